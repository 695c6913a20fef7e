package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// spanCollector is the demo's span exporter: it keeps every ended span
// until the demo prints them (take). Behind a synchronous processor a
// span is here when its End returns, so a step's spans are all here when
// PreStep returns.
type spanCollector struct {
	mu    sync.Mutex
	spans []sdktrace.ReadOnlySpan
}

var _ sdktrace.SpanExporter = (*spanCollector)(nil)

func (c *spanCollector) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spans = append(c.spans, spans...)
	return nil
}

func (c *spanCollector) Shutdown(context.Context) error { return nil }

// take returns the spans ended since the last take.
func (c *spanCollector) take() []sdktrace.ReadOnlySpan {
	c.mu.Lock()
	defer c.mu.Unlock()
	spans := c.spans
	c.spans = nil
	return spans
}

// newDemoTracing returns a tracer provider that samples every span into a
// collector.
func newDemoTracing() (*sdktrace.TracerProvider, *spanCollector) {
	c := &spanCollector{}
	return sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithSyncer(c)), c
}

// traceLine is one span of a printed trace, in tree order.
type traceLine struct {
	Name       string            `json:"name"`
	SpanID     string            `json:"spanId"`
	ParentID   string            `json:"parentId,omitempty"`
	Depth      int               `json:"depth"`
	DurationMS float64           `json:"durationMs"`
	Attributes map[string]string `json:"attributes,omitempty"`
}

// shownAttribute reports whether the demo prints a span attribute: the
// ones that say what happened, not which session it was.
func shownAttribute(k attribute.Key) bool {
	switch k {
	case "skillcatalog.outcome", "skillcatalog.tool", "skillcatalog.skill", "skillcatalog.provider",
		"skillcatalog.result", "skillcatalog.not_modified", "skillcatalog.complete":
		return true
	}
	return false
}

// traceTrees orders spans as trees, one per trace, each parent before its
// children and siblings in the order they started. A span whose parent is
// not among spans is a root.
func traceTrees(spans []sdktrace.ReadOnlySpan) [][]traceLine {
	ids := make(map[trace.SpanID]bool, len(spans))
	for _, s := range spans {
		ids[s.SpanContext().SpanID()] = true
	}
	children := make(map[trace.SpanID][]sdktrace.ReadOnlySpan)
	var roots []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if p := s.Parent(); p.IsValid() && ids[p.SpanID()] {
			children[p.SpanID()] = append(children[p.SpanID()], s)
		} else {
			roots = append(roots, s)
		}
	}
	byStart := func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) }
	slices.SortFunc(roots, byStart)
	var trees [][]traceLine
	for _, root := range roots {
		var lines []traceLine
		var walk func(s sdktrace.ReadOnlySpan, depth int)
		walk = func(s sdktrace.ReadOnlySpan, depth int) {
			l := traceLine{Name: s.Name(), SpanID: s.SpanContext().SpanID().String(), Depth: depth,
				DurationMS: float64(s.EndTime().Sub(s.StartTime())) / float64(time.Millisecond)}
			if depth > 0 {
				l.ParentID = s.Parent().SpanID().String()
			}
			for _, kv := range s.Attributes() {
				if shownAttribute(kv.Key) {
					if l.Attributes == nil {
						l.Attributes = make(map[string]string)
					}
					l.Attributes[strings.TrimPrefix(string(kv.Key), "skillcatalog.")] = kv.Value.Emit()
				}
			}
			lines = append(lines, l)
			kids := children[s.SpanContext().SpanID()]
			slices.SortFunc(kids, byStart)
			for _, k := range kids {
				walk(k, depth+1)
			}
		}
		walk(root, 0)
		trees = append(trees, lines)
	}
	return trees
}

// trace reports the spans of what the demo just did.
func (r *reporter) trace(spans []sdktrace.ReadOnlySpan) {
	for _, tree := range traceTrees(spans) {
		if r.json {
			r.emit(map[string]any{"event": "trace", "spans": tree})
			continue
		}
		fmt.Fprintln(r.w, "trace:")
		for _, l := range tree {
			name := strings.Repeat("  ", l.Depth) + l.Name
			fmt.Fprintf(r.w, "  %-48s %8.2f ms", name, l.DurationMS)
			keys := make([]string, 0, len(l.Attributes))
			for k := range l.Attributes {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				fmt.Fprintf(r.w, "  %s=%s", k, l.Attributes[k])
			}
			fmt.Fprintln(r.w)
		}
	}
}
