package hostsdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// A session excludes one skill: its next step publishes a replacement
// without it, and the `skill` tool answers it as unknown. Other sessions
// keep every skill.
func ExampleSession_SelectSkills() {
	ctx := context.Background()
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range []skills.RuntimeSkill{
		{Name: "code-review", Description: "Review a change.", Content: "Read the diff twice."},
		{Name: "deploy-prod", Description: "Deploy to production.", Content: "Ask first."},
	} {
		if err := registry.Register(tools.GlobalScope, s); err != nil {
			log.Fatal(err)
		}
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: registry, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	plugin, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := plugin.Mount(ctx, tools.GlobalScope, nil); err != nil {
		log.Fatal(err)
	}
	session := host.Session("session-1", nil)
	if _, err := session.Step(ctx, hostsdk.Decision{}, nil); err != nil { // the initial catalog lists both
		log.Fatal(err)
	}

	if err := session.SelectSkills(ctx, hostsdk.Selection{ExcludeNames: []string{"deploy-prod"}}); err != nil {
		log.Fatal(err)
	}
	res, err := session.Step(ctx, hostsdk.Decision{}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Outcome, string(res.Decision.Messages[0].Source))
	out, err := session.CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"deploy-prod"}`)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Text)
	sel, err := session.Selection(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", sel)
	// Output:
	// replacement {"kind":"skill-catalog","form":"catalog","update":true,"entries":[{"name":"code-review","description":"Review a change."}]}
	// Error: skill "deploy-prod" is unknown or no longer available
	// {IncludeNames:[] ExcludeNames:[deploy-prod] IncludeProviders:[] ExcludeProviders:[]}
}
