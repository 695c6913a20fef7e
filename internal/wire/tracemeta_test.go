package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/metadata"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// Trace metadata a host (or, on callbacks, a plugin) may send that is not a
// well-formed W3C Trace Context: it must be ignored or refused cleanly,
// never crash the server or change what a step answers.

const (
	goodTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	goodTraceID     = "4bf92f3577b34da6a3ce929d0e0e4736"
	// bigValue is far longer than any valid trace header, and within
	// maxHeaderListBytes: what a server accepts, and must ignore.
	bigValue = maxHeaderListBytes / 2
)

// badTrace is one malformed or oversized set of trace metadata, and the
// span context the receiving side should end up with: the good one, with
// its trace state dropped, or none.
type badTrace struct {
	name  string
	pairs []string // key, value, ...
	keep  bool     // the good span context survives (without trace state)
}

func badTraces() []badTrace {
	many := make([]string, 40)
	for i := range many {
		many[i] = fmt.Sprintf("k%d=v", i)
	}
	return []badTrace{
		{"garbage traceparent", []string{"traceparent", "garbage"}, false},
		{"unknown version ff", []string{"traceparent", "ff" + goodTraceparent[2:]}, false},
		{"version 00 with an extra field", []string{"traceparent", goodTraceparent + "-extra"}, false},
		{"all-zero trace id", []string{"traceparent", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"}, false},
		{"upper-case hex", []string{"traceparent", strings.ToUpper(goodTraceparent)}, false},
		{"a long traceparent", []string{"traceparent", goodTraceparent + strings.Repeat("0", bigValue)}, false},
		{"a later version, long", []string{"traceparent", "01" + goodTraceparent[2:] + "-" + strings.Repeat("x", bigValue)}, true},
		{"a long tracestate", []string{"traceparent", goodTraceparent, "tracestate", "k=" + strings.Repeat("v", bigValue)}, true},
		{"40 tracestate members", []string{"traceparent", goodTraceparent, "tracestate", strings.Join(many, ",")}, true},
		{"a tracestate of commas", []string{"traceparent", goodTraceparent, "tracestate", strings.Repeat(",", bigValue)}, true},
		{"a tracestate without a traceparent", []string{"tracestate", "k=v"}, false},
		{"two traceparents, the first good", []string{"traceparent", goodTraceparent, "traceparent", "garbage"}, false},
		{"two traceparents, both good", []string{"traceparent", goodTraceparent, "traceparent", "00-11111111111111111111111111111111-2222222222222222-01"}, false},
		{"two traceparents, the second good", []string{"traceparent", "garbage", "traceparent", goodTraceparent}, false},
	}
}

// stepShape is what a step answered, without the session it was for.
func stepShape(resp contract.StepResponse) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v", resp.Outcome)
	for _, e := range resp.Edits {
		fmt.Fprintf(&b, "|%v %v %q %s", e.Op, e.Message.Role, e.Message.Text(), e.Message.Source)
	}
	return b.String()
}

// requireTrace fails unless every span context seen is the good one (with
// no trace state) when keep, and none is valid otherwise.
func requireTrace(t *testing.T, seen map[string][]trace.SpanContext, keep bool, kinds ...string) {
	t.Helper()
	for _, kind := range kinds {
		if len(seen[kind]) == 0 {
			t.Errorf("no %s seen", kind)
		}
		for _, sc := range seen[kind] {
			switch {
			case keep && (sc.TraceID().String() != goodTraceID || !sc.IsRemote() || sc.TraceState().Len() != 0):
				t.Errorf("%s carried %v, want the sent span context without its trace state", kind, sc)
			case !keep && sc.IsValid():
				t.Errorf("%s carried %v, want no span context", kind, sc)
			}
		}
	}
}

// TestMalformedTraceMetadataToThePlugin: PreStep and ExecuteSkillTool with
// malformed or oversized trace metadata answer exactly as without it, and
// the plugin continues the host's trace only from a well-formed
// traceparent, on its own and on every callback.
func TestMalformedTraceMetadataToThePlugin(t *testing.T) {
	host := &traceHost{testHost: newTestHost()}
	c, served := connect(t, traceService{plugin.New(nil), host}, host)
	m := mountBound(t, c, served, "", "tooldef-1")
	ctx := context.Background()
	step := func(ctx context.Context, session string) (string, string) {
		t.Helper()
		resp, err := c.PreStep(ctx, contract.StepRequest{MountID: m.MountID, SessionID: session, SkillToolIdentity: "tooldef-1", Head: &contract.SessionHead{}})
		if err != nil {
			t.Fatalf("PreStep: %v", err)
		}
		res, err := c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: m.MountID, SessionID: session, SkillToolIdentity: "tooldef-1", Arguments: json.RawMessage(`{"name":"alpha"}`)})
		if err != nil {
			t.Fatalf("ExecuteSkillTool: %v", err)
		}
		return stepShape(resp), res.Text
	}
	wantStep, wantTool := step(ctx, "reference")
	host.take()
	for i, tt := range badTraces() {
		t.Run(tt.name, func(t *testing.T) {
			gotStep, gotTool := step(metadata.AppendToOutgoingContext(ctx, tt.pairs...), fmt.Sprintf("s%d", i))
			if gotStep != wantStep || gotTool != wantTool {
				t.Errorf("answered\n%s\n%s\nwant, as without trace metadata,\n%s\n%s", gotStep, gotTool, wantStep, wantTool)
			}
			requireTrace(t, host.take(), tt.keep, "plugin PreStep", "Snapshot", "plugin ExecuteSkillTool", "GetSkill")
		})
	}
}

// traceOnCallbacks is the engine, with every callback it makes for a step
// of a session other than "clean" carrying the given trace metadata as
// well (sent before the call's own, so a receiver that reads the first
// value sees it).
type traceOnCallbacks struct {
	contract.Service
	pairs []string
}

func (s *traceOnCallbacks) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	if req.SessionID != "clean" {
		ctx = metadata.AppendToOutgoingContext(ctx, s.pairs...)
	}
	return s.Service.PreStep(ctx, req)
}

// TestMalformedTraceMetadataToTheHost: callbacks from a plugin that sends
// malformed or oversized trace metadata are answered as without it, and
// the host sees a span context only from a well-formed traceparent.
func TestMalformedTraceMetadataToTheHost(t *testing.T) {
	for i, tt := range badTraces() {
		t.Run(tt.name, func(t *testing.T) {
			host := &traceHost{testHost: newTestHost()}
			svc := &traceOnCallbacks{Service: plugin.New(nil), pairs: tt.pairs}
			c, served := connect(t, svc, host)
			m := mountBound(t, c, served, "", "tooldef-1")
			resp, err := c.PreStep(context.Background(), contract.StepRequest{MountID: m.MountID, SessionID: fmt.Sprintf("s%d", i), SkillToolIdentity: "tooldef-1", Head: &contract.SessionHead{}})
			if err != nil {
				t.Fatalf("PreStep: %v", err)
			}
			if resp.Outcome != contract.OutcomeInitial || len(resp.Edits) != 1 || !strings.Contains(resp.Edits[0].Message.Text(), "alpha") {
				t.Errorf("step answered %s, want the initial catalog listing alpha", stepShape(resp))
			}
			requireTrace(t, host.take(), tt.keep, "Snapshot", "ReadEvents")
		})
	}
}

// TestOversizedTraceMetadataToTheHost: a plugin whose callbacks carry
// metadata over the bound never reaches the host's callback server with
// them: the callback, and so the step, fails; the next step without them
// is served.
func TestOversizedTraceMetadataToTheHost(t *testing.T) {
	host := &traceHost{testHost: newTestHost()}
	svc := &traceOnCallbacks{Service: plugin.New(nil), pairs: []string{"traceparent", goodTraceparent, "tracestate", "k=" + strings.Repeat("v", 2*maxHeaderListBytes)}}
	c, served := connect(t, svc, host)
	m := mountBound(t, c, served, "", "tooldef-1")
	_, err := c.PreStep(context.Background(), contract.StepRequest{MountID: m.MountID, SessionID: "s1", SkillToolIdentity: "tooldef-1", Head: &contract.SessionHead{}})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprint(maxHeaderListBytes)) {
		t.Errorf("PreStep: %v, want the callback refused, naming the bound", err)
	}
	if seen := host.take(); len(seen["Snapshot"]) > 0 {
		t.Errorf("the host served the callback: %v", seen)
	}
	if _, err := c.PreStep(context.Background(), contract.StepRequest{MountID: m.MountID, SessionID: "clean", SkillToolIdentity: "tooldef-1", Head: &contract.SessionHead{}}); err != nil {
		t.Errorf("the next step, without them: %v", err)
	}
}
