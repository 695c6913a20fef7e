package plugin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
	"github.com/skillcatalog/skillcatalog/skill"
)

// New is the engine with no transport: a contract.Service that a host
// drives directly in its own process (what hostsdk does with the plugin
// in process) or that pluginserver serves over go-plugin. The host it
// calls back here is contracttest's scriptable one, holding one skill and
// an empty session. A mount is configured, its `skill` tool bound to the
// identity the host registered it under; the session's first step then
// publishes the catalog, and the tool loads the skill.
func ExampleNew() {
	ctx := context.Background()
	host := contracttest.NewHost()
	host.SetSkill(skill.Definition{
		Summary: skill.Summary{Name: "pdf-forms", Description: "Fill in PDF forms.", Invocation: skill.DefaultPolicy()},
		Content: "Read the form's fields first.",
	})

	engine := plugin.New(nil)
	mount, err := engine.Configure(ctx, host, contract.ConfigureRequest{Config: `{"catalogBudget": 4000}`})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range mount.Tools {
		fmt.Println("tool:", t.Name)
	}
	if err := engine.BindTools(ctx, mount.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "skill-1"}}); err != nil {
		log.Fatal(err)
	}
	step, err := engine.PreStep(ctx, contract.StepRequest{MountID: mount.MountID, SessionID: "session-1", Cwd: "/work", SkillToolIdentity: "skill-1"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("outcome:", step.Outcome)
	for _, e := range step.Edits {
		fmt.Println(e.Message.Text())
	}
	res, err := engine.ExecuteSkillTool(ctx, contract.ToolCall{MountID: mount.MountID, SessionID: "session-1", Cwd: "/work", Arguments: json.RawMessage(`{"name": "pdf-forms"}`)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Value.Content)
	// Output:
	// tool: skill
	// outcome: initial
	// <system-reminder>
	// A skill is a reusable set of task-specific instructions. The following skills are available in this session:
	//
	// <available_skills>
	// -`pdf-forms`: Fill in PDF forms.
	// </available_skills>
	//
	// If the user names a skill, or the task clearly matches a skill's description, call the `skill` tool with the exact skill name before taking task actions. Load all applicable skills, then follow their full instructions. This catalog contains summaries only; do not infer or follow a skill's instructions until it has been loaded.
	// </system-reminder>
	// Read the form's fields first.
}

// ParseConfig checks a mount's options as a non-Go host sends them, JSON,
// and names the option and its bound when one is out of range.
func ExampleParseConfig() {
	opts, err := plugin.ParseConfig(`{"catalogBudget": 4000, "searchTool": true}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(opts.CatalogBudget, opts.SearchTool)
	_, err = plugin.ParseConfig(`{"catalogDescriptionMaxLength": -1}`)
	fmt.Println(err)
	// Output:
	// 4000 true
	// catalogDescriptionMaxLength must be an integer >= 3, got -1
}
