package pglog_test

import (
	"context"
	"log"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog/pglog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// A host keeps its sessions in PostgreSQL; every replica opens the same
// DSN and schema.
func Example() {
	ctx := context.Background()
	store, err := pglog.Open(ctx, "postgres://agent@127.0.0.1:5432/agents?sslmode=disable&pool_max_conns=16", &pglog.Options{Schema: "skillcatalog"})
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		log.Fatal(err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: registry, Sessions: store})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
}
