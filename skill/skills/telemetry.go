package skills

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/skillcatalog/skillcatalog/internal/telemetry"
	"github.com/skillcatalog/skillcatalog/skill"
)

// instrumentationScope names the tracer and meter of provider calls.
const instrumentationScope = "github.com/skillcatalog/skillcatalog/skill/skills"

// Provider operations, the values of the skillcatalog.operation attribute.
const (
	opList          = "List"
	opLoad          = "Load"
	opReadResource  = "ReadSkillResource"
	opOpenDirectory = "OpenSkillDirectory"
)

// Results of a provider call, the values of the skillcatalog.result
// attribute: "refused" is an answer the provider's interface defines (a
// resource not found, a path refused), "canceled" the caller's context
// ending.
const (
	resultOK       = "ok"
	resultRefused  = "refused"
	resultError    = "error"
	resultCanceled = "canceled"
)

// providerTelemetry records a span and measurements for each provider
// call. Its zero value records nothing and costs nothing.
type providerTelemetry struct {
	tracer   trace.Tracer            // nil: no spans
	duration metric.Float64Histogram // nil (with errors): no metrics
	errors   metric.Int64Counter
}

func newProviderTelemetry(tp trace.TracerProvider, mp metric.MeterProvider) (providerTelemetry, error) {
	var t providerTelemetry
	if tp != nil {
		t.tracer = tp.Tracer(instrumentationScope)
	}
	if mp == nil {
		return t, nil
	}
	m := mp.Meter(instrumentationScope)
	var err error
	if t.duration, err = m.Float64Histogram("skillcatalog.provider.duration",
		metric.WithUnit("s"),
		metric.WithDescription("Duration of calls of skill providers, by provider label, operation and result."),
		metric.WithExplicitBucketBoundaries(telemetry.DurationBuckets()...)); err != nil {
		return providerTelemetry{}, fmt.Errorf("skills: histogram skillcatalog.provider.duration: %w", err)
	}
	if t.errors, err = m.Int64Counter("skillcatalog.provider.errors",
		metric.WithUnit("{error}"),
		metric.WithDescription("Failed calls of skill providers, by provider label and operation."),
	); err != nil {
		return providerTelemetry{}, fmt.Errorf("skills: counter skillcatalog.provider.errors: %w", err)
	}
	return t, nil
}

func (t *providerTelemetry) on() bool { return t.tracer != nil || t.duration != nil }

// providerCall is one provider call being observed.
type providerCall struct {
	t     *providerTelemetry
	attrs [2]attribute.KeyValue // provider label and operation
	span  trace.Span            // nil without a tracer
	start time.Time
}

// begin starts observing a call of operation op of the provider e, for the
// skill name ("" for a listing).
func (t *providerTelemetry) begin(ctx context.Context, e *providerEntry, op, name string) (context.Context, providerCall) {
	c := providerCall{t: t, attrs: [2]attribute.KeyValue{attribute.String("skillcatalog.provider", e.label), attribute.String("skillcatalog.operation", op)}, start: time.Now()}
	if t.tracer != nil {
		ctx, c.span = t.tracer.Start(ctx, "skillcatalog.provider."+op, trace.WithAttributes(c.attrs[:]...))
		if name != "" && c.span.IsRecording() {
			c.span.SetAttributes(attribute.String("skillcatalog.skill", name))
		}
	}
	return ctx, c
}

// end records the call's result; refused tells which errors are answers
// the operation defines rather than failures.
func (c providerCall) end(ctx context.Context, err error, refused bool, extra ...attribute.KeyValue) {
	result := resultOK
	switch {
	case err == nil:
	case ctx.Err() != nil:
		result = resultCanceled
	case refused:
		result = resultRefused
	default:
		result = resultError
	}
	if c.span != nil {
		c.span.SetAttributes(extra...)
		c.span.SetAttributes(attribute.String("skillcatalog.result", result))
		if result == resultError {
			c.span.RecordError(err)
			c.span.SetStatus(codes.Error, err.Error())
		}
		c.span.End()
	}
	if c.t.duration != nil {
		set := attribute.NewSet(c.attrs[0], c.attrs[1], attribute.String("skillcatalog.result", result))
		c.t.duration.Record(ctx, time.Since(c.start).Seconds(), metric.WithAttributeSet(set))
		if result == resultError {
			c.t.errors.Add(ctx, 1, metric.WithAttributeSet(attribute.NewSet(c.attrs[0], c.attrs[1])))
		}
	}
}

// list calls the provider's List, observed.
func (e *providerEntry) list(ctx context.Context, req ListRequest) (Observation, error) {
	t := &e.r.tel
	if !t.on() {
		return e.p.List(ctx, req)
	}
	ctx, call := t.begin(ctx, e, opList, "")
	obs, err := e.p.List(ctx, req)
	call.end(ctx, err, false, attribute.Int("skillcatalog.skills", len(obs.Skills)), attribute.Bool("skillcatalog.complete", err == nil && obs.Complete))
	return obs, err
}

// load calls the provider's Load, observed.
func (e *providerEntry) load(ctx context.Context, req LoadRequest) (def skill.Definition, found bool, err error) {
	t := &e.r.tel
	if !t.on() {
		return e.p.Load(ctx, req)
	}
	ctx, call := t.begin(ctx, e, opLoad, req.Name)
	def, found, err = e.p.Load(ctx, req)
	call.end(ctx, err, false, attribute.Bool("skillcatalog.found", found))
	return def, found, err
}

// readSkillResource calls the provider's ResourceReader, observed.
func (e *providerEntry) readSkillResource(ctx context.Context, reader ResourceReader, req ResourceRequest) ([]byte, error) {
	t := &e.r.tel
	if !t.on() {
		return reader.ReadSkillResource(ctx, req)
	}
	ctx, call := t.begin(ctx, e, opReadResource, req.Name)
	data, err := reader.ReadSkillResource(ctx, req)
	call.end(ctx, err, resourceAnswer(err), attribute.Int("skillcatalog.bytes", len(data)))
	return data, err
}

// openSkillDirectory calls the provider's DirectoryOpener, observed.
func (e *providerEntry) openSkillDirectory(ctx context.Context, opener DirectoryOpener, req ResourceRequest) (*os.Root, error) {
	t := &e.r.tel
	if !t.on() {
		return opener.OpenSkillDirectory(ctx, req)
	}
	ctx, call := t.begin(ctx, e, opOpenDirectory, req.Name)
	root, err := opener.OpenSkillDirectory(ctx, req)
	call.end(ctx, err, resourceAnswer(err))
	return root, err
}

// resourceAnswer reports whether err is one of the answers a resource
// read or directory open defines, not a provider failure.
func resourceAnswer(err error) bool {
	for _, answer := range []error{ErrSkillNotFound, ErrNotModelInvocable, ErrInvalidResourcePath, ErrResourceNotFound, ErrResourceTooLarge, ErrResourceNotReadable} {
		if errors.Is(err, answer) {
			return true
		}
	}
	return false
}

// providerLabel is the label of a provider attachment.
func providerLabel(p Provider, opts ProviderOptions) string {
	if opts.Label != "" {
		return opts.Label
	}
	return fmt.Sprintf("%T", p)
}
