package wire

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

// testHost is an in-memory contract.Host: the far side of the callbacks the
// plugin makes through the broker. It stands in for hostsdk, whose own
// tests drive the real plugin binary.
type testHost struct {
	mu        sync.Mutex
	skills    []skill.Summary
	defs      map[string]skill.Definition
	events    []contract.SessionEvent
	failWith  error         // every callback fails with it when set
	block     chan struct{} // Snapshot waits for ctx when set
	snapshots int
	reads     int
	token     string
	sent      map[string][]skill.Summary // snapshots answered, by token, for deltas
}

func (h *testHost) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	h.mu.Lock()
	h.snapshots++
	fail, block := h.failWith, h.block
	h.mu.Unlock()
	if block != nil {
		close(block)
		<-ctx.Done()
		return contract.Snapshot{}, ctx.Err()
	}
	if fail != nil {
		return contract.Snapshot{}, fail
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	token := h.token
	if token == "" {
		token = "tok-1"
	}
	out := contract.Snapshot{Skills: h.skills, Complete: true, Token: token}
	if base, ok := h.sent[req.IfNoneMatch]; ok && req.AcceptDelta {
		if up, rm, worth := contract.SnapshotDelta(base, h.skills); worth {
			out.Skills, out.Removed, out.DeltaBase = up, rm, req.IfNoneMatch
		}
	}
	h.sent = map[string][]skill.Summary{token: slices.Clone(h.skills)} // the latest only, as a host bounds it
	return out, nil
}

func (h *testHost) GetSkill(_ context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	d, ok := h.defs[req.Name]
	return contract.SkillLookup{Found: ok, Skill: d}, nil
}

func (h *testHost) ReadEvents(_ context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reads++
	page := contract.EventPage{Head: contract.SessionHead{Seq: uint64(len(h.events))}}
	for i := len(h.events) - 1; i >= 0; i-- {
		if ev := h.events[i]; (req.BeforeSeq == 0 || ev.Seq < req.BeforeSeq) && ev.Seq > req.AfterSeq {
			page.Events = append(page.Events, ev)
		}
	}
	return page, nil
}

// connect starts the plugin service for core on go-plugin's in-process
// test connection and returns the host's client of it, which serves the
// host's callbacks on a real broker between them, and the host it serves.
func connect(t testing.TB, core contract.Service, host contract.Host) (*serviceClient, contract.Host) {
	t.Helper()
	client, _ := goplugin.TestPluginGRPCConn(t, false, map[string]goplugin.Plugin{pluginName: &grpcPlugin{service: core}})
	// Closing the client shuts the server down through go-plugin's
	// controller; stopping it here as well would race with that.
	t.Cleanup(func() { client.Close() })
	svc, err := Dispense(client)
	if err != nil {
		t.Fatal(err)
	}
	return svc.(*serviceClient), host
}

func newTestHost() *testHost {
	return &testHost{
		skills: []skill.Summary{{Name: "alpha", Description: "Does  alpha.", Invocation: skill.DefaultPolicy(), Provider: "runtime"}},
		defs:   map[string]skill.Definition{"alpha": {Summary: skill.Summary{Name: "alpha", Invocation: skill.DefaultPolicy(), Provider: "runtime"}, Content: "Do alpha."}},
	}
}

// mountBound configures a mount and binds its `skill` tool to identity.
func mountBound(t testing.TB, c contract.Service, host contract.Host, config, identity string) contract.ConfigureResponse {
	t.Helper()
	ctx := context.Background()
	resp, err := c.Configure(ctx, host, contract.ConfigureRequest{Config: config, Scope: "global"})
	if err != nil {
		t.Fatalf("Configure: %v", err)
	}
	if err := c.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: identity}}); err != nil {
		t.Fatalf("BindTools: %v", err)
	}
	return resp
}

func TestGRPCMountsBindingAndSteps(t *testing.T) {
	host := newTestHost()
	c, served := connect(t, plugin.New(nil), host)
	ctx := context.Background()

	first := mountBound(t, c, served, "", "tooldef-1")
	if len(first.Tools) != 1 || first.Tools[0].Name != "skill" || !json.Valid(first.Tools[0].InputSchema) {
		t.Fatalf("tools = %+v, want the skill tool", first.Tools)
	}
	second := mountBound(t, c, served, `{"catalogDescriptionMaxLength": 5}`, "tooldef-2")
	if first.MountID == second.MountID {
		t.Fatalf("two mounts share the id %q", first.MountID)
	}

	step := func(mountID, identity, session string) contract.StepResponse {
		t.Helper()
		resp, err := c.PreStep(ctx, contract.StepRequest{MountID: mountID, SessionID: session, SkillToolIdentity: identity, Head: &contract.SessionHead{}})
		if err != nil {
			t.Fatalf("PreStep: %v", err)
		}
		return resp
	}
	// Each mount applies its own configuration to its own identity.
	for _, tc := range []struct {
		mount, identity, session, desc string
	}{
		{first.MountID, "tooldef-1", "s1", "Does alpha."},
		{second.MountID, "tooldef-2", "s2", "Do..."},
	} {
		resp := step(tc.mount, tc.identity, tc.session)
		if resp.Outcome != contract.OutcomeInitial || len(resp.Edits) != 1 || resp.Edits[0].Op != contract.EditAppend {
			t.Fatalf("mount %s: %+v, want one appended initial catalog", tc.mount, resp)
		}
		c, ok := events.ParseCatalog(resp.Edits[0].Message.Source)
		if !ok || len(c.Entries) != 1 || c.Entries[0].Description != tc.desc {
			t.Errorf("mount %s published %s, want the description %q", tc.mount, resp.Edits[0].Message.Source, tc.desc)
		}
		if resp.Edits[0].Message.Role != contract.RoleUser || resp.Edits[0].Message.Text() == "" {
			t.Errorf("mount %s: the catalog message lost its role or text over the wire: %+v", tc.mount, resp.Edits[0].Message)
		}
	}
	// Another tool resolving to `skill` (a shadow) sees nothing.
	if resp := step(first.MountID, "tooldef-shadow", "s3"); resp.Outcome != contract.OutcomeUnchanged || len(resp.Edits) != 0 {
		t.Errorf("shadowed step = %+v, want unchanged", resp)
	}

	res, err := c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: first.MountID, SessionID: "s1", Arguments: json.RawMessage(`{"name":"alpha"}`)})
	if err != nil || res.IsError || res.Value == nil || res.Value.Content != "Do alpha." {
		t.Fatalf("ExecuteSkillTool = %+v, %v", res, err)
	}
	res, err = c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: first.MountID, Arguments: json.RawMessage(`{"name":"nope"}`)})
	if err != nil || !res.IsError || res.Value != nil || res.Text != `Error: skill "nope" is unknown or no longer available` {
		t.Fatalf("unknown skill = %+v, %v", res, err)
	}

	if err := c.EndSession(ctx, "s1"); err != nil {
		t.Fatalf("EndSession: %v", err)
	}
	if err := c.Unmount(ctx, second.MountID); err != nil {
		t.Fatalf("Unmount: %v", err)
	}
	_, err = c.PreStep(ctx, contract.StepRequest{MountID: second.MountID, SkillToolIdentity: "tooldef-2"})
	if !errors.Is(err, contract.ErrUnknownMount) || status.Code(err) != codes.NotFound {
		t.Errorf("step of an unmounted mount: %v, want ErrUnknownMount (NotFound)", err)
	}
	if err := c.Ping(ctx); err != nil {
		t.Errorf("Ping: %v", err)
	}
}

func TestGRPCErrors(t *testing.T) {
	ctx := context.Background()

	t.Run("refused configuration", func(t *testing.T) {
		c, served := connect(t, plugin.New(nil), newTestHost())
		_, err := c.Configure(ctx, served, contract.ConfigureRequest{Config: `{"catalogDescriptionMaxLength": 2}`})
		var cfg *contract.ConfigError
		if !errors.As(err, &cfg) || cfg.Message != "catalogDescriptionMaxLength must be an integer >= 3, got 2" {
			t.Fatalf("err = %v, want the ConfigError naming the option and bound", err)
		}
	})
	t.Run("unknown mount", func(t *testing.T) {
		c, _ := connect(t, plugin.New(nil), newTestHost())
		err := c.BindTools(ctx, "mount-404", nil)
		if !errors.Is(err, contract.ErrUnknownMount) || status.Code(err) != codes.NotFound {
			t.Fatalf("err = %v, want ErrUnknownMount (NotFound)", err)
		}
	})
	t.Run("unbound mount", func(t *testing.T) {
		c, served := connect(t, plugin.New(nil), newTestHost())
		resp, err := c.Configure(ctx, served, contract.ConfigureRequest{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.PreStep(ctx, contract.StepRequest{MountID: resp.MountID, SkillToolIdentity: "x"})
		if !errors.Is(err, contract.ErrUnbound) || status.Code(err) != codes.FailedPrecondition {
			t.Fatalf("err = %v, want ErrUnbound (FailedPrecondition)", err)
		}
	})
	t.Run("host callback failed", func(t *testing.T) {
		host := newTestHost()
		host.failWith = errors.New("provider index corrupt")
		c, served := connect(t, plugin.New(nil), host)
		m := mountBound(t, c, served, "", "tooldef-1")
		_, err := c.PreStep(ctx, contract.StepRequest{MountID: m.MountID, SkillToolIdentity: "tooldef-1"})
		// The host answered Unavailable; the plugin must not relay that
		// code, which would read as "the plugin is unreachable".
		if status.Code(err) != codes.Aborted {
			t.Fatalf("err = %v (code %v), want Aborted", err, status.Code(err))
		}
	})
	t.Run("caller cancelled during a callback", func(t *testing.T) {
		host := newTestHost()
		host.block = make(chan struct{})
		c, served := connect(t, plugin.New(nil), host)
		m := mountBound(t, c, served, "", "tooldef-1")
		stepCtx, cancel := context.WithCancel(ctx)
		go func() {
			<-host.block
			cancel()
		}()
		_, err := c.PreStep(stepCtx, contract.StepRequest{MountID: m.MountID, SkillToolIdentity: "tooldef-1"})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

// TestGRPCLoopStepMakesNoCallback: a step that carries the events appended
// since the previous one, on the same surface, is one round trip.
func TestGRPCLoopStepMakesNoCallback(t *testing.T) {
	host := newTestHost()
	c, served := connect(t, plugin.New(nil), host)
	m := mountBound(t, c, served, "", "tooldef-1")
	ctx := context.Background()
	var sent uint64
	step := func() contract.StepResponse {
		t.Helper()
		host.mu.Lock()
		head := contract.SessionHead{Seq: uint64(len(host.events))}
		recent := &contract.RecentEvents{AfterSeq: sent}
		for i := len(host.events) - 1; i >= int(sent); i-- {
			recent.Events = append(recent.Events, host.events[i])
		}
		host.mu.Unlock()
		resp, err := c.PreStep(ctx, contract.StepRequest{MountID: m.MountID, SessionID: "s", SkillToolIdentity: "tooldef-1", SnapshotToken: "tok-1", Head: &head, Recent: recent})
		if err != nil {
			t.Fatal(err)
		}
		sent = head.Seq
		host.mu.Lock()
		for _, e := range resp.Edits {
			host.events = append(host.events, contract.SessionEvent{Seq: uint64(len(host.events) + 1), Source: e.Message.Source, Visible: true})
		}
		host.mu.Unlock()
		return resp
	}
	if resp := step(); resp.Outcome != contract.OutcomeInitial {
		t.Fatalf("first step: %v", resp.Outcome)
	}
	host.mu.Lock()
	reads, snaps := host.reads, host.snapshots
	host.mu.Unlock()
	for i := 0; i < 5; i++ {
		host.mu.Lock()
		for k := 0; k < 2; k++ { // the model's reply and a tool result
			host.events = append(host.events, contract.SessionEvent{Seq: uint64(len(host.events) + 1), Type: "message", Visible: true})
		}
		host.mu.Unlock()
		if resp := step(); resp.Outcome != contract.OutcomeUnchanged {
			t.Fatalf("loop step %d: %v", i, resp.Outcome)
		}
	}
	host.mu.Lock()
	defer host.mu.Unlock()
	if host.reads != reads || host.snapshots != snaps {
		t.Errorf("loop steps made %d ReadEvents and %d Snapshot calls, want none", host.reads-reads, host.snapshots-snaps)
	}
}

// TestUnannouncedBrokerIDIsTheHosts: a ConfigureRequest naming a broker id
// the host never announced on the broker stream is the host's mistake, so
// the plugin answers ABORTED (never UNAVAILABLE, which says the plugin is
// unreachable) and names the id and what the host must send.
func TestUnannouncedBrokerIDIsTheHosts(t *testing.T) {
	c, _ := connect(t, plugin.New(nil), newTestHost())
	_, err := c.c.Configure(context.Background(), &pb.ConfigureRequest{ConfigJson: "{}", Scope: "global", HostServiceBrokerId: 4242})
	if got := status.Code(err); got != codes.Aborted {
		t.Fatalf("Configure with an unannounced broker id: code %v (%v), want Aborted", got, err)
	}
	for _, want := range []string{"broker id 4242", "ConnInfo"} {
		if !strings.Contains(status.Convert(err).Message(), want) {
			t.Errorf("message %q does not say %q", status.Convert(err).Message(), want)
		}
	}
	if !errors.Is(fromStatus(err), contract.ErrHostFailed) {
		t.Errorf("the host reads %v as not its own failure", fromStatus(err))
	}
}
