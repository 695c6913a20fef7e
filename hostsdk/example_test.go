package hostsdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// A host of its own: the runtime builds the Host from its parts (a scope
// tree, a skill registry, a session store), loads the plugin binary and
// mounts it globally, then runs a session's model step and a `skill` tool
// call.
func ExampleNew() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "sessions")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	tree := tools.NewTree()
	if err := tree.AddScope("agent:reviewer", tools.GlobalScope); err != nil {
		log.Fatal(err)
	}
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := registry.Register(tools.GlobalScope, skills.RuntimeSkill{
		Name:        "code-review",
		Description: "Review a change for correctness and style.",
		Content:     "Read the diff twice, then comment.",
	}); err != nil {
		log.Fatal(err)
	}
	store, err := sessionlog.NewFileStore(dir, nil)
	if err != nil {
		log.Fatal(err)
	}

	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: registry, Sessions: store})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	plugin, err := host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := plugin.MountJSON(ctx, tools.GlobalScope, `{"catalogDescriptionMaxLength": 200}`); err != nil {
		log.Fatal(err)
	}

	session := host.Session("session-1", &hostsdk.SessionOptions{Cwd: "/src/project", AgentScope: "agent:reviewer"})
	step, err := session.Step(ctx, hostsdk.Decision{}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(step.Outcome)
	fmt.Println(step.Decision.Messages[0].Text())

	result, err := session.CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"code-review"}`)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(result.Value.Content)
	// Output:
	// initial
	// <system-reminder>
	// A skill is a reusable set of task-specific instructions. The following skills are available in this session:
	//
	// <available_skills>
	// -`code-review`: Review a change for correctness and style.
	// </available_skills>
	//
	// If the user names a skill, or the task clearly matches a skill's description, call the `skill` tool with the exact skill name before taking task actions. Load all applicable skills, then follow their full instructions. This catalog contains summaries only; do not infer or follow a skill's instructions until it has been loaded.
	// </system-reminder>
	// Read the diff twice, then comment.
}
