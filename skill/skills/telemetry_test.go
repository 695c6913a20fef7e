package skills_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// remoteFiles is a provider of one URL skill whose files it reads itself:
// a file it has, one it answers is not found, and any other path fails.
type remoteFiles struct{}

func (remoteFiles) List(context.Context, skills.ListRequest) (skills.Observation, error) {
	return skills.Observation{Complete: true, Skills: []skill.Summary{{Name: "remote", Description: "R.", Invocation: skill.DefaultPolicy()}}}, nil
}

func (remoteFiles) Load(_ context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	return skill.Definition{Summary: skill.Summary{Name: req.Name}, Content: "Body.", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: "skill://remote/"}}, true, nil
}

func (remoteFiles) ReadSkillResource(_ context.Context, req skills.ResourceRequest) ([]byte, error) {
	switch req.Path {
	case "a.md":
		return []byte("A"), nil
	case "missing.md":
		return nil, skills.ErrResourceNotFound
	}
	return nil, errors.New("server unreachable")
}

// TestProviderCallsAreTracedAndMeasured: every provider call is a span,
// a child of the caller's, labelled with the provider's label (its Go type
// when the host gives none), the operation and the result; the latency
// histogram counts every call and the error counter the failures only: an
// answer the interface defines (a file not found) is not one.
func TestProviderCallsAreTracedAndMeasured(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	reg, err := skills.NewRegistry(&skills.RegistryOptions{TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	fake := skilltest.New(nil)
	fake.SetSkills(skilltest.Skill{Summary: skill.Summary{Name: "local", Description: "L.", Invocation: skill.DefaultPolicy()}, LoadErr: errors.New("disk gone")})
	reg.AddProvider("global", fake, nil)
	reg.AddProvider("global", remoteFiles{}, &skills.ProviderOptions{Label: "remote"})
	q := skills.Query{SessionID: "s1", Chain: []string{"global"}}

	ctx, parent := tp.Tracer("test").Start(context.Background(), "caller")
	if _, err := reg.Snapshot(ctx, q); err != nil {
		t.Fatal(err)
	}
	if _, _, err := reg.Get(ctx, q, "local"); err == nil {
		t.Fatal("loading a skill whose provider fails succeeded")
	}
	for path, want := range map[string]error{"a.md": nil, "missing.md": skills.ErrResourceNotFound, "b.md": errors.New("")} {
		_, err := reg.ReadResource(ctx, q, "remote", path)
		if (err == nil) != (want == nil) || want != nil && want.Error() != "" && !errors.Is(err, want) {
			t.Fatalf("read %s: %v, want %v", path, err, want)
		}
	}
	parent.End()

	var got []string
	for _, s := range spans.GetSpans() {
		if s.Name == "caller" {
			continue
		}
		if s.Parent.SpanID() != parent.SpanContext().SpanID() {
			t.Errorf("span %s is not a child of the caller's span", s.Name)
		}
		got = append(got, s.Name+" "+attrs(s.Attributes, "skillcatalog.provider", "skillcatalog.result", "skillcatalog.skill"))
	}
	slices.Sort(got)
	fakeLabel := fmt.Sprintf("%T", fake)
	want := []string{
		// Snapshot, and Get's and each read's view: the fake announces no
		// changes, so nothing is cached.
		"skillcatalog.provider.List provider=" + fakeLabel + " result=ok",
		"skillcatalog.provider.List provider=" + fakeLabel + " result=ok",
		"skillcatalog.provider.List provider=" + fakeLabel + " result=ok",
		"skillcatalog.provider.List provider=" + fakeLabel + " result=ok",
		"skillcatalog.provider.List provider=" + fakeLabel + " result=ok",
		"skillcatalog.provider.List provider=remote result=ok",
		"skillcatalog.provider.List provider=remote result=ok",
		"skillcatalog.provider.List provider=remote result=ok",
		"skillcatalog.provider.List provider=remote result=ok",
		"skillcatalog.provider.List provider=remote result=ok",
		"skillcatalog.provider.Load provider=" + fakeLabel + " result=error skill=local",
		"skillcatalog.provider.Load provider=remote result=ok skill=remote",
		"skillcatalog.provider.Load provider=remote result=ok skill=remote",
		"skillcatalog.provider.Load provider=remote result=ok skill=remote",
		"skillcatalog.provider.ReadSkillResource provider=remote result=error skill=remote",
		"skillcatalog.provider.ReadSkillResource provider=remote result=ok skill=remote",
		"skillcatalog.provider.ReadSkillResource provider=remote result=refused skill=remote",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("provider spans (-want +got):\n%s", d)
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	points := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					points[m.Name+" "+attrs(p.Attributes.ToSlice(), "skillcatalog.provider", "skillcatalog.operation", "skillcatalog.result")] = p.Value
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					points[m.Name+" "+attrs(p.Attributes.ToSlice(), "skillcatalog.provider", "skillcatalog.operation", "skillcatalog.result")] = int64(p.Count)
				}
			}
		}
	}
	wantPoints := map[string]int64{
		"skillcatalog.provider.duration provider=" + fakeLabel + " operation=List result=ok":        5,
		"skillcatalog.provider.duration provider=remote operation=List result=ok":                   5,
		"skillcatalog.provider.duration provider=" + fakeLabel + " operation=Load result=error":     1,
		"skillcatalog.provider.duration provider=remote operation=Load result=ok":                   3,
		"skillcatalog.provider.duration provider=remote operation=ReadSkillResource result=ok":      1,
		"skillcatalog.provider.duration provider=remote operation=ReadSkillResource result=refused": 1,
		"skillcatalog.provider.duration provider=remote operation=ReadSkillResource result=error":   1,
		"skillcatalog.provider.errors provider=" + fakeLabel + " operation=Load":                    1,
		"skillcatalog.provider.errors provider=remote operation=ReadSkillResource":                  1,
	}
	if d := cmp.Diff(wantPoints, points); d != "" {
		t.Errorf("provider metrics (-want +got):\n%s", d)
	}
}

// TestProviderCallsUntracedByDefault: a registry without providers of
// telemetry records nothing even under a recording span.
func TestProviderCallsUntracedByDefault(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reg := skilltest.NewRegistry(t)
	reg.AddProvider("global", remoteFiles{}, &skills.ProviderOptions{Label: "remote"})
	ctx, parent := tp.Tracer("test").Start(context.Background(), "caller")
	if _, err := reg.Snapshot(ctx, skills.Query{SessionID: "s1", Chain: []string{"global"}}); err != nil {
		t.Fatal(err)
	}
	parent.End()
	if got := spans.GetSpans(); len(got) != 1 {
		t.Errorf("%d spans, want only the caller's", len(got))
	}
}

// attrs renders the named attributes present in kvs as "short=value",
// in the order named.
func attrs(kvs []attribute.KeyValue, keys ...attribute.Key) string {
	var out []string
	for _, k := range keys {
		for _, kv := range kvs {
			if kv.Key == k {
				out = append(out, strings.TrimPrefix(string(k), "skillcatalog.")+"="+kv.Value.Emit())
			}
		}
	}
	return strings.Join(out, " ")
}
