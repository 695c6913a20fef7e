package pluginproc_test

import (
	"context"
	"encoding/hex"
	"log"
	"os"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
)

// A host runs the plugin in a process of its own by naming its binary
// (go build -o bin/skillcatalog-plugin ./cmd/skillcatalog-plugin) and the
// SHA-256 recorded when it was built: a binary that does not match is
// refused before it runs. The example needs that binary, so it is
// compiled, not run.
func ExampleBinary() {
	checksum, err := hex.DecodeString(os.Getenv("SKILLCATALOG_PLUGIN_SHA256"))
	if err != nil {
		log.Fatal(err)
	}
	host, err := hostsdk.Open(context.Background(), &hostsdk.OpenOptions{
		SkillDirs: []string{"skills"},
		Launcher:  pluginproc.Binary{Path: "bin/skillcatalog-plugin", Checksum: checksum},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
}
