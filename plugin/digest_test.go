package plugin

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
	"github.com/skillcatalog/skillcatalog/skill"
)

// TestRecentSourcesByDigest: a recent event sent by its source's digest is
// resolved from what the engine published, without a callback; a digest it
// does not know (another source, or one it forgot) makes it read the log,
// and the decision is the same.
func TestRecentSourcesByDigest(t *testing.T) {
	for _, tt := range []struct {
		name      string
		digest    func(catalog []byte) []byte
		callbacks int
	}{
		{"its own catalog", contract.SourceDigestOf, 0},
		{"a digest it does not know", func([]byte) []byte { return contract.SourceDigestOf([]byte(`{"kind":"other"}`)) }, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			host := contracttest.NewHost()
			for i := range 20 {
				host.SetSkill(skill.Definition{Summary: skill.Summary{Name: fmt.Sprintf("s-%02d", i), Description: strings.Repeat("d", 60), Invocation: skill.DefaultPolicy(), Provider: "runtime"}, Content: "x"})
			}
			svc := New(nil)
			resp, err := svc.Configure(ctx, host, contract.ConfigureRequest{Config: "{}", Scope: "global"})
			if err != nil || !resp.AcceptsSourceDigests {
				t.Fatalf("Configure: %+v, %v; want a mount that accepts source digests", resp, err)
			}
			if err := svc.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "id-1"}}); err != nil {
				t.Fatal(err)
			}
			step := func(recent *contract.RecentEvents) contract.StepResponse {
				t.Helper()
				head := host.Head("s")
				out, err := svc.PreStep(ctx, contract.StepRequest{MountID: resp.MountID, SessionID: "s", SkillToolIdentity: "id-1", SnapshotToken: host.Token(), Head: &head, Recent: recent})
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			first := step(nil)
			final, err := contract.Decision{}.Apply(first.Edits)
			if err != nil || first.Outcome != contract.OutcomeInitial {
				t.Fatalf("step 1: %s, %v", first.Outcome, err)
			}
			host.Append("s", final.Messages...)
			recent := host.Since("s", 0)
			recent.Events[0].SourceDigest = tt.digest(recent.Events[0].Source)
			recent.Events[0].Source = nil
			before := host.TotalCalls()
			if out := step(recent); out.Outcome != contract.OutcomeUnchanged {
				t.Errorf("step 2: %s, want unchanged", out.Outcome)
			}
			if got := host.TotalCalls() - before; got != tt.callbacks {
				t.Errorf("step 2 made %d callbacks, want %d", got, tt.callbacks)
			}
		})
	}
}
