package wire

import (
	"context"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// Trace context crosses the connection both ways as W3C Trace Context
// (traceparent, tracestate) in gRPC metadata: with the host's PreStep and
// ExecuteSkillTool calls, so the plugin's work continues the host's trace,
// and back with the plugin's callbacks, so the host's callback spans are
// children of the span that stands for the plugin's call. Only the
// OpenTelemetry API is used: the plugin records no spans of its own, it
// carries the context it was given from the call to the callbacks it makes
// for it, and reports how long it worked on the call in a trailer, which
// the host sets on its span for the call. A call without a valid span
// context sends nothing.

// outgoingTrace returns ctx with the trace context of its span, if any,
// added to the outgoing gRPC metadata.
func outgoingTrace(ctx context.Context) context.Context {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	md := metadata.MD{}
	propagation.TraceContext{}.Inject(ctx, mdCarrier(md))
	kv := make([]string, 0, 2*len(md))
	for k, vs := range md {
		for _, v := range vs {
			kv = append(kv, k, v)
		}
	}
	return metadata.AppendToOutgoingContext(ctx, kv...)
}

// incomingTrace returns ctx carrying, as a remote span context, the trace
// context the caller sent in the gRPC metadata; ctx as it is when there is
// none, or when it does not parse. A call with more than one traceparent
// carries no trace context to continue (W3C Trace Context allows one):
// which of them to pick would be a guess. Whatever the caller sent, only a
// span context parsed from it goes any further, re-encoded; the text it
// came in does not.
func incomingTrace(ctx context.Context) context.Context {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok || len(md.Get("traceparent")) != 1 {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, mdCarrier(md))
}

// mdCarrier is gRPC metadata as a propagation.TextMapCarrier. gRPC keys
// are lower case, as W3C Trace Context's are. A key sent more than once
// reads as its values joined by commas, as HTTP combines header fields
// (tracestate may be split so).
type mdCarrier metadata.MD

func (c mdCarrier) Get(key string) string {
	return strings.Join(metadata.MD(c).Get(key), ",")
}

func (c mdCarrier) Set(key, value string) { metadata.MD(c).Set(key, value) }

func (c mdCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}

// pluginDurationKey is the trailer in which the plugin reports, on a
// traced PreStep or ExecuteSkillTool, how long it worked on the call, in
// microseconds: the host's span for the call then tells the plugin's time
// from the connection's.
const pluginDurationKey = "skillcatalog-plugin-duration-us"

// reportDuration sets the trailer of a sampled call served since start
// (the host records no span for a call it does not sample). Deferred by
// the plugin's handlers.
func reportDuration(ctx context.Context, start time.Time) {
	if trace.SpanContextFromContext(ctx).IsSampled() {
		_ = grpc.SetTrailer(ctx, metadata.Pairs(pluginDurationKey, strconv.FormatInt(time.Since(start).Microseconds(), 10)))
	}
}

// pluginTiming receives the plugin's duration trailer of one call, for the
// recording span of the call's context. nil when the span does not record.
type pluginTiming struct {
	span    trace.Span
	trailer metadata.MD
}

func timing(ctx context.Context) *pluginTiming {
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		return &pluginTiming{span: span}
	}
	return nil
}

// callOptions are the call's options that receive the trailer.
func (t *pluginTiming) callOptions() []grpc.CallOption {
	if t == nil {
		return nil
	}
	return []grpc.CallOption{grpc.Trailer(&t.trailer)}
}

// record sets the span's skillcatalog.plugin.duration_ms attribute from
// the trailer, when the plugin sent one that parses.
func (t *pluginTiming) record() {
	if t == nil {
		return
	}
	vs := t.trailer.Get(pluginDurationKey)
	if len(vs) == 0 {
		return
	}
	us, err := strconv.ParseInt(vs[0], 10, 64)
	if err != nil || us < 0 {
		return
	}
	t.span.SetAttributes(attribute.Float64("skillcatalog.plugin.duration_ms", float64(us)/1000))
}
