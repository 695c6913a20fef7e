package hostcheck_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
	"github.com/skillcatalog/skillcatalog/skill"
)

// A Checker wraps the engine: it answers every call as the engine does
// and, at each step, asks the host again and compares with what the host
// promised. This host (contracttest's) sends a snapshot token that is not
// the token of the snapshot it answers with, and the report says so.
// `skillcatalog hostcheck` runs the same checker against a host in any
// language, started as a process of its own.
func ExampleNew() {
	ctx := context.Background()
	host := contracttest.NewHost()
	host.SetSkill(skill.Definition{
		Summary: skill.Summary{Name: "pdf-forms", Description: "Fill in PDF forms.", Invocation: skill.DefaultPolicy()},
		Content: "Read the form's fields first.",
	})
	checker := hostcheck.New(nil)
	service := checker.Service(plugin.New(nil))
	mount, err := service.Configure(ctx, host, contract.ConfigureRequest{})
	if err != nil {
		log.Fatal(err)
	}
	if err := service.BindTools(ctx, mount.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "skill-1"}}); err != nil {
		log.Fatal(err)
	}
	step := contract.StepRequest{MountID: mount.MountID, SessionID: "session-1", Cwd: "/work", SkillToolIdentity: "skill-1", SnapshotToken: "not-the-token"}
	if _, err := service.PreStep(ctx, step); err != nil {
		log.Fatal(err)
	}

	report := checker.Report()
	fmt.Println("steps:", report.Steps, "failed:", report.Failed())
	for _, v := range report.Violations {
		// The detail goes on with the token the host's Snapshot answers,
		// a digest of its skills.
		carried, _, _ := strings.Cut(v.Detail, ", Snapshot answers")
		fmt.Printf("%s: %s\n", v.Check, carried)
	}
	// Output:
	// steps: 1 failed: true
	// snapshot-hint: the step carried snapshot_token "not-the-token"
}
