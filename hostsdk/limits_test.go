package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// These tests drive the real plugin binary through go-plugin with messages
// around hostsdk.MaxMessageBytes (64 MiB), the one limit both sides apply
// to every message either way. gRPC's default let a plugin's server receive
// only 4 MiB, while go-plugin's clients accepted 2 GiB.

const fiveMiB = 5 << 20

// bigMessage is a downstream message of n bytes of text.
func bigMessage(id string, n int) hostsdk.Message {
	return hostsdk.Message{ID: id, Role: hostsdk.RoleTool, Content: []hostsdk.ContentBlock{{Type: "text", Text: strings.Repeat("r", n)}}}
}

// checkTooLarge checks that err is the clear error of a message over the
// limit: it matches hostsdk.ErrMessageTooLarge and names the limit, and
// the plugin process was not blamed for it.
func checkTooLarge(t *testing.T, e *env, err error, pid int) {
	t.Helper()
	t.Logf("error: %v", err)
	if !errors.Is(err, hostsdk.ErrMessageTooLarge) {
		t.Fatalf("err = %v, want one matching hostsdk.ErrMessageTooLarge", err)
	}
	if limit := strconv.Itoa(hostsdk.MaxMessageBytes); !strings.Contains(err.Error(), limit) || !strings.Contains(err.Error(), "64 MiB") {
		t.Errorf("error %q does not name the limit of %s bytes (64 MiB)", err, limit)
	}
	if got := e.plugin.PID(); got != pid {
		t.Errorf("plugin pid %d after an oversized message, was %d: the process was replaced", got, pid)
	}
}

// TestStepCarriesAFiveMiBDownstreamMessage: a step whose downstream
// decision holds a 5 MiB message (a large tool result) is over gRPC's
// 4 MiB default and well under hostsdk.MaxMessageBytes: the plugin
// receives it and publishes the catalog beside it.
func TestStepCarriesAFiveMiBDownstreamMessage(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "First skill.")
	e.mount(tools.GlobalScope)
	res, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{Messages: []hostsdk.Message{bigMessage("result-1", fiveMiB)}}, nil)
	if err != nil {
		t.Fatalf("PreStep with a %d-byte downstream message (limit %d): %v", fiveMiB, hostsdk.MaxMessageBytes, err)
	}
	expect(t, res, hostsdk.OutcomeInitial, "alpha")
	if msgs := res.Decision.Messages; len(msgs) != 2 || msgs[0].ID != "result-1" || len(msgs[0].Text()) != fiveMiB {
		t.Fatalf("decision holds %d messages, want the %d-byte downstream message and the catalog", len(msgs), fiveMiB)
	}
}

// TestStepOverTheMessageLimitIsAClearError: a downstream decision larger
// than hostsdk.MaxMessageBytes is not sent; the step fails with an error
// that names the limit, the plugin keeps running, and the next step works.
func TestStepOverTheMessageLimitIsAClearError(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "First skill.")
	e.mount(tools.GlobalScope)
	pid := e.plugin.PID()
	res, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{Messages: []hostsdk.Message{bigMessage("huge", hostsdk.MaxMessageBytes)}}, nil)
	checkTooLarge(t, e, err, pid)
	if !strings.Contains(err.Error(), "PreStep request of ") {
		t.Errorf("error %q does not say the step's request was too large", err)
	}
	if res.Outcome != hostsdk.OutcomePluginError || len(res.Decision.Messages) != 1 || res.Decision.Messages[0].ID != "huge" {
		t.Errorf("failed step: outcome %s with %d messages, want the downstream decision unchanged", res.Outcome, len(res.Decision.Messages))
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "alpha")
}

// TestFiveMiBToolArgumentsAreAToolError: 5 MiB of arguments (over gRPC's
// 4 MiB default, under hostsdk.MaxMessageBytes) reach the plugin, which
// answers them with a tool error repeating at most 200 bytes of them, not
// with a plugin fault.
func TestFiveMiBToolArgumentsAreAToolError(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "First skill.")
	e.mount(tools.GlobalScope)
	tests := []struct{ name, args, want string }{
		{"a huge name", `{"name":"` + strings.Repeat("a", fiveMiB) + `"}`, `Error: skill "` + strings.Repeat("a", 197) + `..." is unknown or no longer available`},
		{"a huge field", `{"name":"alpha","notes":"` + strings.Repeat("n", fiveMiB) + `"}`, `Error: unexpected argument "notes"; the skill tool takes only "name"`},
		{"not JSON", strings.Repeat("?", fiveMiB), `Error: the arguments are not a JSON object: "` + strings.Repeat("?", 197) + `..."; the skill tool takes {"name": "<skill name>"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(tt.args)})
			if err != nil {
				t.Fatalf("CallTool with %d bytes of arguments (limit %d): %v", len(tt.args), hostsdk.MaxMessageBytes, err)
			}
			if !out.IsError || out.Text != tt.want {
				t.Fatalf("result (error %v) of %d bytes: %.240q, want %q", out.IsError, len(out.Text), out.Text, tt.want)
			}
		})
	}
}

// TestToolArgumentsOverTheMessageLimitAreAClearError: arguments that cannot
// fit one message are not sent; CallTool fails with an error naming the
// limit, and the plugin keeps serving.
func TestToolArgumentsOverTheMessageLimitAreAClearError(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "First skill.")
	e.mount(tools.GlobalScope)
	pid := e.plugin.PID()
	_, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"` + strings.Repeat("a", hostsdk.MaxMessageBytes) + `"}`)})
	checkTooLarge(t, e, err, pid)
	if !strings.Contains(err.Error(), "ExecuteSkillTool request of ") {
		t.Errorf("error %q does not say the tool call was too large", err)
	}
	out, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"alpha"}`)})
	if err != nil || out.IsError {
		t.Fatalf("next call: %v, %q", err, out.Text)
	}
}

// TestLargestBodyPassesBothWays: a skill body of 8 MiB, the most a
// provider returns, crosses the GetSkill callback once and comes back in
// the tool's answer twice (value and rendering): 16 MiB, within
// hostsdk.MaxMessageBytes.
func TestLargestBodyPassesBothWays(t *testing.T) {
	const body = 8 << 20
	e := newEnv(t, hostsdk.Options{})
	if err := e.reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "big", Description: "A big skill.", Content: strings.Repeat("b", body)}); err != nil {
		t.Fatal(err)
	}
	e.mount(tools.GlobalScope)
	out, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"big"}`)})
	if err != nil {
		t.Fatalf("CallTool of a %d-byte skill (limit %d): %v", body, hostsdk.MaxMessageBytes, err)
	}
	if out.IsError || out.Value == nil || len(out.Value.Content) != body || len(out.Text) < body {
		t.Fatalf("result (error %v): %d-byte text, want the %d-byte body", out.IsError, len(out.Text), body)
	}
}

// TestCallbackOverTheMessageLimitIsAClearError: a snapshot larger than
// hostsdk.MaxMessageBytes cannot reach the plugin through its callback;
// the step fails with an error that names the limit and the callback,
// instead of the plugin holding it, and the plugin keeps running.
func TestCallbackOverTheMessageLimitIsAClearError(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	const n = 100
	desc := strings.Repeat("d", hostsdk.MaxMessageBytes/n+1024) // n of them exceed the limit
	for i := 0; i < n; i++ {
		e.register(tools.GlobalScope, fmt.Sprintf("skill-%03d", i), desc)
	}
	e.mount(tools.GlobalScope)
	pid := e.plugin.PID()
	_, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{}, nil)
	checkTooLarge(t, e, err, pid)
	if !strings.Contains(err.Error(), "Snapshot callback") {
		t.Errorf("error %q does not name the callback", err)
	}
	for i := 1; i < n; i++ {
		e.reg.Unregister(tools.GlobalScope, fmt.Sprintf("skill-%03d", i))
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "skill-000")
}
