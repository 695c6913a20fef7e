package wire

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/metadata"
)

// Trace context crosses the connection both ways as W3C Trace Context
// (traceparent, tracestate) in gRPC metadata: with the host's PreStep and
// ExecuteSkillTool calls, so the plugin's work continues the host's trace,
// and back with the plugin's callbacks, so the host's callback spans are
// children of the span that stands for the plugin's call. Only the
// OpenTelemetry API is used: the plugin records no spans of its own, it
// carries the context it was given from the call to the callbacks it makes
// for it. A call without a valid span context sends nothing.

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
// none (or it does not parse).
func incomingTrace(ctx context.Context) context.Context {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok || len(md.Get("traceparent")) == 0 {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, mdCarrier(md))
}

// mdCarrier is gRPC metadata as a propagation.TextMapCarrier. gRPC keys
// are lower case, as W3C Trace Context's are.
type mdCarrier metadata.MD

func (c mdCarrier) Get(key string) string {
	if vs := metadata.MD(c).Get(key); len(vs) > 0 {
		return vs[0]
	}
	return ""
}

func (c mdCarrier) Set(key, value string) { metadata.MD(c).Set(key, value) }

func (c mdCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}
