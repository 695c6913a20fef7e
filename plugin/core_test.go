package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

func TestCoreMounts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newMemHost(summary("alpha", "Does alpha."))
	h.defs["alpha"] = testDefinition("alpha", "Do alpha.")
	c := New(nil)

	if _, err := c.Configure(ctx, nil, contract.ConfigureRequest{}); err == nil {
		t.Error("a mount without a host to call back was accepted")
	}
	var cfgErr *contract.ConfigError
	if _, err := c.Configure(ctx, h, contract.ConfigureRequest{Config: `{"catalogDescriptionMaxLength": "x"}`}); !errors.As(err, &cfgErr) {
		t.Errorf("bad configuration: err = %v, want *ConfigError", err)
	}

	m, err := c.Configure(ctx, h, contract.ConfigureRequest{Scope: "global"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tools) != 1 || m.Tools[0].Name != "skill" {
		t.Fatalf("tools = %+v, want the skill tool", m.Tools)
	}
	req := step(h, enter())
	req.MountID = m.MountID
	if _, err := c.PreStep(ctx, req); !errors.Is(err, contract.ErrUnbound) {
		t.Errorf("step before BindTools: err = %v, want ErrUnbound", err)
	}
	if err := c.BindTools(ctx, "mount-404", nil); !errors.Is(err, contract.ErrUnknownMount) {
		t.Errorf("BindTools of an unknown mount: err = %v, want ErrUnknownMount", err)
	}
	// Bindings of other tools leave `skill` unbound.
	if err := c.BindTools(ctx, m.MountID, []contract.ToolBinding{{ToolName: "other", DefinitionIdentity: identity}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PreStep(ctx, req); !errors.Is(err, contract.ErrUnbound) {
		t.Errorf("step with only another tool bound: err = %v, want ErrUnbound", err)
	}
	if err := c.BindTools(ctx, m.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: identity}}); err != nil {
		t.Fatal(err)
	}
	resp, err := c.PreStep(ctx, req)
	if err != nil || resp.Outcome != contract.OutcomeInitial {
		t.Fatalf("bound step = %+v, %v; want the initial catalog", resp, err)
	}
	res, err := c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: m.MountID, Arguments: json.RawMessage(`{"name":"alpha"}`)})
	if err != nil || res.IsError || res.Value.Content != "Do alpha." {
		t.Fatalf("ExecuteSkillTool = %+v, %v", res, err)
	}
	if err := c.EndSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if err := c.Unmount(ctx, m.MountID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PreStep(ctx, req); !errors.Is(err, contract.ErrUnknownMount) {
		t.Errorf("step after Unmount: err = %v, want ErrUnknownMount", err)
	}
	if _, err := c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: m.MountID}); !errors.Is(err, contract.ErrUnknownMount) {
		t.Errorf("tool call after Unmount: err = %v, want ErrUnknownMount", err)
	}
}

// TestCoreIsSafeForConcurrentUse steps many sessions of two mounts while
// tools are re-bound; -race reports any unguarded state.
func TestCoreIsSafeForConcurrentUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := New(nil)
	var mounts []string
	for _, cfg := range []string{"", `{"catalogDescriptionMaxLength": 5}`} {
		m, err := c.Configure(ctx, &lockedHost{h: newMemHost(summary("alpha", "Does alpha."))}, contract.ConfigureRequest{Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.BindTools(ctx, m.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: identity}}); err != nil {
			t.Fatal(err)
		}
		mounts = append(mounts, m.MountID)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				id := mounts[(g+i)%2]
				if _, err := c.PreStep(ctx, contract.StepRequest{MountID: id, SessionID: "s", SkillToolIdentity: identity}); err != nil {
					t.Error(err)
					return
				}
				if i%10 == 0 {
					_ = c.BindTools(ctx, id, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: identity}})
					_ = c.EndSession(ctx, "s")
				}
			}
		}(g)
	}
	wg.Wait()
}

// lockedHost serializes a memHost, which counts calls without locking.
type lockedHost struct {
	mu sync.Mutex
	h  *memHost
}

func (l *lockedHost) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.h.Snapshot(ctx, req)
}

func (l *lockedHost) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.h.GetSkill(ctx, req)
}

func (l *lockedHost) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.h.ReadEvents(ctx, req)
}

func testDefinition(name, content string) skill.Definition {
	return skill.Definition{Summary: summary(name, ""), Content: content}
}
