package wire

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/metadata"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// traceHost is a testHost that records the span context each callback's
// context carries.
type traceHost struct {
	*testHost
	mu   sync.Mutex
	seen map[string][]trace.SpanContext
}

func (h *traceHost) record(ctx context.Context, kind string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen == nil {
		h.seen = make(map[string][]trace.SpanContext)
	}
	h.seen[kind] = append(h.seen[kind], trace.SpanContextFromContext(ctx))
}

func (h *traceHost) take() map[string][]trace.SpanContext {
	h.mu.Lock()
	defer h.mu.Unlock()
	seen := h.seen
	h.seen = nil
	return seen
}

func (h *traceHost) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	h.record(ctx, "Snapshot")
	return h.testHost.Snapshot(ctx, req)
}

func (h *traceHost) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	h.record(ctx, "ReadEvents")
	return h.testHost.ReadEvents(ctx, req)
}

func (h *traceHost) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	h.record(ctx, "GetSkill")
	return h.testHost.GetSkill(ctx, req)
}

// traceService is the engine, recording the span context each PreStep and
// ExecuteSkillTool is served with in the plugin.
type traceService struct {
	contract.Service
	host *traceHost
}

func (s traceService) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	s.host.record(ctx, "plugin PreStep")
	return s.Service.PreStep(ctx, req)
}

func (s traceService) ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (contract.ToolResult, error) {
	s.host.record(ctx, "plugin ExecuteSkillTool")
	return s.Service.ExecuteSkillTool(ctx, call)
}

// TestTraceContextCrossesBothWays: the span context of the host's PreStep
// and ExecuteSkillTool reaches the plugin as a remote parent, and the
// plugin sends it on with every callback it makes for the call, so the
// host sees the same trace and parent span on its callbacks. A call
// without a span context sends none.
func TestTraceContextCrossesBothWays(t *testing.T) {
	host := &traceHost{testHost: newTestHost()}
	c, served := connect(t, traceService{plugin.New(nil), host}, host)
	m := mountBound(t, c, served, "", "tooldef-1")

	sent := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID:    trace.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36},
		SpanID:     trace.SpanID{0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7},
		TraceFlags: trace.FlagsSampled,
	})
	want := sent.WithRemote(true)
	ctx := trace.ContextWithSpanContext(context.Background(), sent)

	if _, err := c.PreStep(ctx, contract.StepRequest{MountID: m.MountID, SessionID: "s1", SkillToolIdentity: "tooldef-1"}); err != nil {
		t.Fatalf("PreStep: %v", err)
	}
	seen := host.take()
	for _, kind := range []string{"plugin PreStep", "Snapshot", "ReadEvents"} {
		if len(seen[kind]) == 0 {
			t.Errorf("no %s seen; seen %v", kind, seen)
		}
		for _, sc := range seen[kind] {
			if !sc.Equal(want) {
				t.Errorf("%s carried %v, want the host's span context %v as a remote parent", kind, sc, want)
			}
		}
	}

	if _, err := c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: m.MountID, SessionID: "s1", SkillToolIdentity: "tooldef-1", Arguments: json.RawMessage(`{"name":"alpha"}`)}); err != nil {
		t.Fatalf("ExecuteSkillTool: %v", err)
	}
	seen = host.take()
	for _, kind := range []string{"plugin ExecuteSkillTool", "GetSkill"} {
		if len(seen[kind]) != 1 || !seen[kind][0].Equal(want) {
			t.Errorf("%s carried %v, want once the host's span context %v", kind, seen[kind], want)
		}
	}

	// Without a span context nothing is sent, and nothing is made up.
	if _, err := c.PreStep(context.Background(), contract.StepRequest{MountID: m.MountID, SessionID: "s2", SkillToolIdentity: "tooldef-1"}); err != nil {
		t.Fatalf("PreStep: %v", err)
	}
	for kind, scs := range host.take() {
		for _, sc := range scs {
			if sc.IsValid() {
				t.Errorf("%s carried %v from a call without trace context", kind, sc)
			}
		}
	}
}

// TestIncomingTraceIgnoresMalformedHeaders: a traceparent that does not
// parse yields no span context rather than an invented one.
func TestIncomingTraceIgnoresMalformedHeaders(t *testing.T) {
	for _, tp := range []string{"", "00-zz-00f067aa0ba902b7-01", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "garbage"} {
		ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs("traceparent", tp))
		if sc := trace.SpanContextFromContext(incomingTrace(ctx)); sc.IsValid() {
			t.Errorf("traceparent %q gave %v", tp, sc)
		}
	}
	ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate", "vendor=x"))
	sc := trace.SpanContextFromContext(incomingTrace(ctx))
	if sc.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || sc.SpanID().String() != "00f067aa0ba902b7" || !sc.IsSampled() || !sc.IsRemote() || sc.TraceState().Get("vendor") != "x" {
		t.Errorf("well-formed traceparent gave %v", sc)
	}
}

// TestThePluginReportsItsTime: on a call under a recording span, the
// plugin's time on the call comes back in a trailer and is set on that
// span; a call under a span that does not record asks for nothing.
func TestThePluginReportsItsTime(t *testing.T) {
	host := &traceHost{testHost: newTestHost()}
	c, served := connect(t, plugin.New(nil), host)
	m := mountBound(t, c, served, "", "tooldef-1")
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithSyncer(spans))
	ctx, span := tp.Tracer("test").Start(context.Background(), "plugin call")
	if _, err := c.PreStep(ctx, contract.StepRequest{MountID: m.MountID, SessionID: "s1", SkillToolIdentity: "tooldef-1"}); err != nil {
		t.Fatal(err)
	}
	span.End()
	got := spans.GetSpans()
	if len(got) != 1 {
		t.Fatalf("%d spans, want 1", len(got))
	}
	var ms float64 = -1
	for _, kv := range got[0].Attributes {
		if kv.Key == attribute.Key("skillcatalog.plugin.duration_ms") {
			ms = kv.Value.AsFloat64()
		}
	}
	if ms < 0 || ms > float64(got[0].EndTime.Sub(got[0].StartTime).Microseconds())/1000 {
		t.Errorf("plugin duration %v ms on a span of %v, want a share of it", ms, got[0].EndTime.Sub(got[0].StartTime))
	}
	if timing(trace.ContextWithSpanContext(context.Background(), got[0].SpanContext)) != nil {
		t.Error("a span context that does not record asks for the trailer")
	}
}

// FuzzIncomingTrace: whatever trace headers arrive (the host reads them
// from a plugin process it does not trust), reading them does not panic,
// and a span context it accepts is a valid remote one that is sent on
// unchanged.
func FuzzIncomingTrace(f *testing.F) {
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "vendor=x")
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", "")
	f.Add("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", "a=1,b=2")
	f.Add("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "")
	f.Add("00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01", "")
	f.Add("00-00000000000000000000000000000000-00f067aa0ba902b7-01", "=,")
	f.Fuzz(func(t *testing.T, traceparent, tracestate string) {
		md := metadata.MD{}
		md.Set("traceparent", traceparent)
		md.Set("tracestate", tracestate)
		sc := trace.SpanContextFromContext(incomingTrace(metadata.NewIncomingContext(context.Background(), md)))
		if !sc.IsValid() {
			return
		}
		if !sc.IsRemote() {
			t.Errorf("%q gave a span context that is not remote", traceparent)
		}
		out, _ := metadata.FromOutgoingContext(outgoingTrace(trace.ContextWithRemoteSpanContext(context.Background(), sc)))
		again := trace.SpanContextFromContext(incomingTrace(metadata.NewIncomingContext(context.Background(), out)))
		if !again.Equal(sc) {
			t.Errorf("%q, %q: sent on as %v, read back as %v, want %v", traceparent, tracestate, out, again, sc)
		}
	})
}

// TestIncomingTraceJoinsASplitTracestate: a tracestate sent as two values
// is one list, as HTTP joins header fields; a second traceparent makes the
// call's trace context unusable, whatever either says.
func TestIncomingTraceJoinsASplitTracestate(t *testing.T) {
	ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate", "a=1", "tracestate", "b=2"))
	sc := trace.SpanContextFromContext(incomingTrace(ctx))
	if !sc.IsValid() || sc.TraceState().Get("a") != "1" || sc.TraceState().Get("b") != "2" {
		t.Errorf("a tracestate split in two gave %v, want both members", sc)
	}
	ctx = metadata.NewIncomingContext(context.Background(), metadata.Pairs("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
	if sc := trace.SpanContextFromContext(incomingTrace(ctx)); sc.IsValid() {
		t.Errorf("two traceparents gave %v, want none", sc)
	}
}
