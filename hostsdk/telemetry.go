package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/skillcatalog/skillcatalog/internal/telemetry"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// instrumentationScope names the host's tracer and meter.
const instrumentationScope = "github.com/skillcatalog/skillcatalog/hostsdk"

// Attribute keys of the host's spans and metrics. Metrics carry only the
// bounded ones: outcome, kind, callback and result.
const (
	attrOutcome   = "skillcatalog.outcome"
	attrKind      = "skillcatalog.kind"
	attrCallback  = "skillcatalog.callback"
	attrResult    = "skillcatalog.result"
	attrSession   = "skillcatalog.session.id"
	attrAgent     = "skillcatalog.agent.scope"
	attrSkill     = "skillcatalog.skill"
	attrTool      = "skillcatalog.tool"
	attrAttempts  = "skillcatalog.attempts"
	attrAppended  = "skillcatalog.appended"
	attrCallbacks = "skillcatalog.callbacks"
)

// outcomeError labels a step that failed before any outcome was decided (a
// listener's error, an unknown scope, a failed step under FailClosed).
const outcomeError Outcome = "error"

// hostTelemetry is the host's tracer and instruments, from
// Options.TracerProvider and Options.MeterProvider. With neither, it records
// nothing, and the step and callback paths skip it entirely.
type hostTelemetry struct {
	tracer trace.Tracer // nil: no spans

	// All nil without a MeterProvider.
	steps            metric.Int64Counter
	stepDuration     metric.Float64Histogram
	publications     metric.Int64Counter
	callbackDuration metric.Float64Histogram
	skillLoads       metric.Int64Counter
	resourceReads    metric.Int64Counter
	activations      metric.Int64Counter
	listed           metric.Int64Counter

	// maskNames records skill names as maskedName (Options.MaskSkillNames).
	maskNames bool
}

func newHostTelemetry(tp trace.TracerProvider, mp metric.MeterProvider) (*hostTelemetry, error) {
	t := &hostTelemetry{}
	if tp != nil {
		t.tracer = tp.Tracer(instrumentationScope)
	}
	if mp == nil {
		return t, nil
	}
	m := mp.Meter(instrumentationScope)
	buckets := metric.WithExplicitBucketBoundaries(telemetry.DurationBuckets()...)
	var errs [8]error
	t.steps, errs[0] = m.Int64Counter("skillcatalog.steps", metric.WithUnit("{step}"),
		metric.WithDescription("Pre-steps, by outcome."))
	t.stepDuration, errs[1] = m.Float64Histogram("skillcatalog.step.duration", metric.WithUnit("s"), buckets,
		metric.WithDescription("Duration of pre-steps, listeners, plugin, callbacks and append included, by outcome."))
	t.publications, errs[2] = m.Int64Counter("skillcatalog.publications", metric.WithUnit("{publication}"),
		metric.WithDescription("Catalog messages published, by kind: initial, replacement, tombstone."))
	t.callbackDuration, errs[3] = m.Float64Histogram("skillcatalog.callback.duration", metric.WithUnit("s"), buckets,
		metric.WithDescription("Duration of the host callbacks the plugin makes, by callback and result."))
	t.skillLoads, errs[4] = m.Int64Counter("skillcatalog.skill.loads", metric.WithUnit("{load}"),
		metric.WithDescription("Skill definitions the plugin asked the host for, by result: ok, not_found, error."))
	t.resourceReads, errs[5] = m.Int64Counter("skillcatalog.resource.reads", metric.WithUnit("{read}"),
		metric.WithDescription("Skill resource reads the plugin asked the host for, by result: ok, binary, not_found, refused, error."))
	t.activations, errs[6] = m.Int64Counter("skillcatalog.skill.activations", metric.WithUnit("{activation}"),
		metric.WithDescription("Skills whose instructions reached the model, by skill, origin, trigger and agent scope."))
	t.listed, errs[7] = m.Int64Counter("skillcatalog.skill.listed", metric.WithUnit("{listing}"),
		metric.WithDescription("Skills of the agent's snapshot at each step that published a catalog, by skill, origin and agent scope."))
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("hostsdk: create instrument: %w", err)
		}
	}
	return t, nil
}

func (t *hostTelemetry) metrics() bool { return t.steps != nil }

// stepObservation is one PreStep being observed.
type stepObservation struct {
	span  trace.Span // nil without a tracer
	start time.Time  // zero without metrics
}

// startStep starts observing a PreStep: its span, the parent of the
// plugin's span, and its clock.
func (t *hostTelemetry) startStep(ctx context.Context, step Step) (context.Context, stepObservation) {
	var o stepObservation
	if t.tracer != nil {
		ctx, o.span = t.tracer.Start(ctx, "skillcatalog.PreStep", trace.WithAttributes(
			attribute.String(attrSession, step.SessionID),
			attribute.String(attrAgent, step.AgentScope),
			attribute.Int("skillcatalog.turn", step.Turn),
			attribute.Int("skillcatalog.step", step.Step),
		))
	}
	if t.metrics() {
		o.start = time.Now()
	}
	return ctx, o
}

// endStep records a PreStep's result.
func (t *hostTelemetry) endStep(ctx context.Context, o stepObservation, result StepResult, err error) {
	outcome := result.Outcome
	if outcome == "" {
		outcome = outcomeError
	}
	if o.span != nil {
		o.span.SetAttributes(
			attribute.String(attrOutcome, string(outcome)),
			attribute.Int(attrAppended, len(result.Appended)),
			attribute.Int(attrCallbacks, result.Callbacks.Total()),
		)
		if err != nil {
			o.span.RecordError(err)
			o.span.SetStatus(codes.Error, err.Error())
		}
		o.span.End()
	}
	if !t.metrics() {
		return
	}
	// ctx holds the step's span, which an exemplar may name.
	set := metric.WithAttributeSet(attribute.NewSet(attribute.String(attrOutcome, string(outcome))))
	t.steps.Add(ctx, 1, set)
	t.stepDuration.Record(ctx, time.Since(o.start).Seconds(), set)
	if err == nil && publishes(outcome) {
		t.publications.Add(ctx, 1, metric.WithAttributeSet(attribute.NewSet(attribute.String(attrKind, string(outcome)))))
	}
}

// startToolCall starts the span of a CallTool, the parent of the plugin's
// span.
func (t *hostTelemetry) startToolCall(ctx context.Context, call sessionCall) (context.Context, trace.Span) {
	if t.tracer == nil {
		return ctx, nil
	}
	return t.tracer.Start(ctx, "skillcatalog.CallTool", trace.WithAttributes(
		attribute.String(attrTool, call.Name),
		attribute.String(attrSession, call.SessionID),
		attribute.String(attrAgent, call.AgentScope),
	))
}

// endToolCall ends a CallTool's span. A name that is not the plugin's is
// the runtime's to dispatch, not a failure.
func (t *hostTelemetry) endToolCall(span trace.Span, res ToolResult, err error) {
	if span == nil {
		return
	}
	var notFound *ToolNotFoundError
	if errors.As(err, &notFound) {
		span.SetAttributes(attribute.Bool("skillcatalog.tool.forwarded", false))
		span.End()
		return
	}
	span.SetAttributes(attribute.Bool("skillcatalog.tool.error", res.IsError))
	endSpan(span, err)
}

// endSpan ends span, marking it failed with err.
func endSpan(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// service is svc as the host calls it: with a span for each PreStep and
// ExecuteSkillTool that stands for the plugin's work, whose context goes
// with the call (across the gRPC boundary as W3C trace context) and so
// parents the callbacks the plugin makes for it.
func (t *hostTelemetry) service(svc contract.Service) contract.Service {
	if t.tracer == nil {
		return svc
	}
	return tracedService{Service: svc, tracer: t.tracer}
}

type tracedService struct {
	contract.Service
	tracer trace.Tracer
}

func (s tracedService) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	ctx, span := s.tracer.Start(ctx, "skillcatalog.plugin.PreStep", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String(attrSession, req.SessionID)))
	resp, err := s.Service.PreStep(ctx, req)
	if err == nil {
		span.SetAttributes(attribute.String(attrOutcome, string(resp.Outcome)))
	}
	endSpan(span, err)
	return resp, err
}

func (s tracedService) ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (contract.ToolResult, error) {
	ctx, span := s.tracer.Start(ctx, "skillcatalog.plugin.ExecuteSkillTool", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String(attrTool, call.ToolName), attribute.String(attrSession, call.SessionID)))
	res, err := s.Service.ExecuteSkillTool(ctx, call)
	if err == nil {
		span.SetAttributes(attribute.Bool("skillcatalog.tool.error", res.IsError))
	}
	endSpan(span, err)
	return res, err
}

// callbacks is the host's callbacks as the plugin is given them: with a
// span and measurements for each when telemetry is on.
func (t *hostTelemetry) callbacks(c hostCallbacks) contract.Host {
	if t.tracer == nil && !t.metrics() {
		return c
	}
	return tracedCallbacks{c: c, t: t}
}

// tracedCallbacks observes every callback of hostCallbacks.
type tracedCallbacks struct {
	c hostCallbacks
	t *hostTelemetry
}

var (
	_ contract.Host           = tracedCallbacks{}
	_ contract.ResourceReader = tracedCallbacks{}
)

// callbackObservation is one callback being observed.
type callbackObservation struct {
	kind  string
	span  trace.Span
	start time.Time
}

func (c tracedCallbacks) begin(ctx context.Context, kind, session string) (context.Context, callbackObservation) {
	o := callbackObservation{kind: kind}
	if c.t.tracer != nil {
		ctx, o.span = c.t.tracer.Start(ctx, "skillcatalog.callback."+kind, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String(attrSession, session)))
	}
	if c.t.metrics() {
		o.start = time.Now()
	}
	return ctx, o
}

func (c tracedCallbacks) end(ctx context.Context, o callbackObservation, err error, attrs ...attribute.KeyValue) {
	if o.span != nil {
		o.span.SetAttributes(attrs...)
		endSpan(o.span, err)
	}
	if c.t.metrics() {
		result := "ok"
		if err != nil {
			result = "error"
		}
		c.t.callbackDuration.Record(ctx, time.Since(o.start).Seconds(), metric.WithAttributeSet(attribute.NewSet(
			attribute.String(attrCallback, o.kind), attribute.String(attrResult, result))))
	}
}

func (c tracedCallbacks) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	ctx, o := c.begin(ctx, "Snapshot", req.SessionID)
	snap, err := c.c.Snapshot(ctx, req)
	c.end(ctx, o, err, attribute.Bool("skillcatalog.not_modified", snap.NotModified),
		attribute.Bool("skillcatalog.complete", snap.Complete), attribute.Int("skillcatalog.skills", len(snap.Skills)))
	return snap, err
}

func (c tracedCallbacks) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	ctx, o := c.begin(ctx, "ReadEvents", req.SessionID)
	page, err := c.c.ReadEvents(ctx, req)
	c.end(ctx, o, err, attribute.Int("skillcatalog.events", len(page.Events)))
	return page, err
}

func (c tracedCallbacks) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	ctx, o := c.begin(ctx, "GetSkill", req.SessionID)
	got, err := c.c.GetSkill(ctx, req)
	result := "ok"
	switch {
	case err != nil || got.Error != "":
		result = "error"
	case !got.Found:
		result = "not_found"
	}
	c.end(ctx, o, err, attribute.String(attrSkill, req.Name), attribute.String(attrResult, result))
	if c.t.metrics() {
		c.t.skillLoads.Add(ctx, 1, metric.WithAttributeSet(attribute.NewSet(attribute.String(attrResult, result))))
	}
	return got, err
}

func (c tracedCallbacks) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	ctx, o := c.begin(ctx, "ReadResource", req.SessionID)
	got, err := c.c.ReadResource(ctx, req)
	result := resourceResult(got.Status)
	if err != nil {
		result = "error"
	}
	c.end(ctx, o, err, attribute.String(attrSkill, req.Name), attribute.String("skillcatalog.path", req.Path),
		attribute.String(attrResult, result), attribute.Int("skillcatalog.bytes", len(got.Data)))
	if c.t.metrics() {
		c.t.resourceReads.Add(ctx, 1, metric.WithAttributeSet(attribute.NewSet(attribute.String(attrResult, result))))
	}
	return got, err
}

// resourceResult is the bounded result label of a resource read.
func resourceResult(s contract.ResourceStatus) string {
	switch s {
	case contract.ResourceOK:
		return "ok"
	case contract.ResourceBinary:
		return "binary"
	case contract.ResourceSkillNotFound, contract.ResourceNotFound:
		return "not_found"
	case contract.ResourceNotModelInvocable, contract.ResourceNotReadable, contract.ResourceInvalidPath, contract.ResourceTooLarge:
		return "refused"
	}
	return "error"
}
