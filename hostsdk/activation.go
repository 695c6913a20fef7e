package hostsdk

import (
	"context"
	"encoding/hex"
	"sort"

	"github.com/zeebo/xxh3"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Activation triggers: what put a skill's instructions before the model.
const (
	// TriggerModel: the model called the `skill` tool.
	TriggerModel = "model"
	// TriggerUser: the user invoked the skill by name (`/name`).
	TriggerUser = "user"
	// TriggerPreload: the host preloaded it at the session's first step.
	TriggerPreload = "preload"
	// TriggerReattach: a compaction hid its instructions and the step
	// attached them again.
	TriggerReattach = "reattach"
	// TriggerFork: the user invoked it by name and its directives run it in
	// a sub-agent (context: fork), which the runtime starts.
	TriggerFork = "fork"
)

// Attribute keys of the activation event and counters.
const (
	attrOrigin  = "skillcatalog.skill.origin"
	attrDigest  = "skillcatalog.skill.digest"
	attrTrigger = "skillcatalog.trigger"
	// eventActivation is the name of the span event of one activation.
	eventActivation = "skillcatalog.skill.activation"
	// originLocal is the origin of a skill without a remote source.
	originLocal = "local"
)

// activation is one skill whose instructions reached the model.
type activation struct {
	name, digest, trigger string
}

// maskedName is the stable stand-in for a skill name under
// Options.MaskSkillNames: "skill-" and the first 16 hex digits of the
// name's xxh3-128, equal across hosts and processes.
func maskedName(name string) string {
	sum := xxh3.HashString128(name).Bytes()
	return "skill-" + hex.EncodeToString(sum[:8])
}

// skillLabel is the name telemetry records for a skill.
func (t *hostTelemetry) skillLabel(name string) string {
	if t.maskNames {
		return maskedName(name)
	}
	return name
}

// recordActivations adds one event per activation to span (nil: none)
// and counts them, with each skill's origin from the agent's snapshot.
func (h *Host) recordActivations(ctx context.Context, span trace.Span, session, cwd, scope string, acts []activation) {
	t := h.tel
	if len(acts) == 0 || (span == nil && !t.metrics()) {
		return
	}
	origins := h.snapshotSkills(ctx, session, cwd, scope)
	for _, a := range acts {
		origin := originOf(origins, a.name)
		name := t.skillLabel(a.name)
		if span != nil {
			span.AddEvent(eventActivation, trace.WithAttributes(
				attribute.String(attrSkill, name), attribute.String(attrOrigin, origin),
				attribute.String(attrDigest, a.digest), attribute.String(attrTrigger, a.trigger),
				attribute.String(attrSession, session), attribute.String(attrAgent, scope)))
		}
		if t.metrics() {
			t.activations.Add(ctx, 1, metric.WithAttributeSet(attribute.NewSet(
				attribute.String(attrSkill, name), attribute.String(attrOrigin, origin),
				attribute.String(attrTrigger, a.trigger), attribute.String(attrAgent, scope))))
		}
	}
}

// recordListed counts every skill of the agent's snapshot once, at a step
// that published a catalog (skillcatalog.skill.listed).
func (h *Host) recordListed(ctx context.Context, session, cwd, scope string) {
	t := h.tel
	if !t.metrics() {
		return
	}
	for _, s := range h.snapshotSkills(ctx, session, cwd, scope) {
		t.listed.Add(ctx, 1, metric.WithAttributeSet(attribute.NewSet(
			attribute.String(attrSkill, t.skillLabel(s.Name)), attribute.String(attrOrigin, origin(s)),
			attribute.String(attrAgent, scope))))
	}
}

// snapshotSkills returns the skills of the snapshot the session was last
// answered with for cwd and scope, sorted by name: the one the plugin
// built its catalog from, kept by the host (no provider is asked again).
// When the host no longer holds it, the registry's current snapshot; nil
// when that cannot be had either (telemetry never fails a step).
func (h *Host) snapshotSkills(ctx context.Context, session, cwd, scope string) []skill.Summary {
	if token, ok := h.sessions.get(session).answeredToken(snapshotPlace{cwd, scope}); ok {
		if skills, ok := h.sent.Get(token); ok {
			return skills
		}
	}
	q, err := h.answer.Query(session, cwd, scope)
	if err != nil {
		return nil
	}
	snap, err := h.opts.Skills.SharedSnapshot(ctx, q)
	if err != nil {
		return nil
	}
	return snap.Skills
}

// originOf is the origin of the skill named name in skills (sorted by
// name), looked up by its name or qualified name; "local" when not found.
func originOf(skills []skill.Summary, name string) string {
	i := sort.Search(len(skills), func(i int) bool { return skills[i].Name >= name })
	if i < len(skills) && skills[i].Name == name {
		return origin(skills[i])
	}
	for _, s := range skills {
		if s.Origin != "" && s.QualifiedName == name {
			return s.Origin
		}
	}
	return originLocal
}

// origin is a skill's origin label: its remote source's, or "local".
func origin(s skill.Summary) string {
	if s.Origin == "" {
		return originLocal
	}
	return s.Origin
}

// stepActivations are the activations a step's result carries: skills the
// user invoked (fork when their directives run them in a sub-agent),
// preloaded and attached again, each with the digest the source of its
// message records.
func stepActivations(result StepResult) []activation {
	if len(result.Invocations)+len(result.Preloaded)+len(result.Reattached) == 0 {
		return nil
	}
	digests := messageDigests(result.Decision.Messages)
	var acts []activation
	for _, inv := range result.Invocations {
		trigger := TriggerUser
		if inv.Directives != nil && inv.Directives.Context.IsFork() {
			trigger = TriggerFork
		}
		acts = append(acts, activation{inv.Name, digests[digestKey{inv.MessageID, inv.Name}], trigger})
	}
	for _, list := range []struct {
		skills  []AttachedSkill
		trigger string
	}{{result.Preloaded, TriggerPreload}, {result.Reattached, TriggerReattach}} {
		for _, a := range list.skills {
			if (events.Loaded{State: a.State}).Carried() {
				acts = append(acts, activation{a.Name, digests[digestKey{a.MessageID, a.Name}], list.trigger})
			}
		}
	}
	return acts
}

type digestKey struct{ message, skill string }

// messageDigests maps each skill a load record names, by message id, to
// its digest.
func messageDigests(msgs []Message) map[digestKey]string {
	out := make(map[digestKey]string)
	for _, m := range msgs {
		if len(m.Source) == 0 {
			continue
		}
		if _, loaded, ok := events.ParseLoads(m.Source); ok {
			for _, l := range loaded {
				out[digestKey{m.ID, l.Name}] = l.Digest
			}
		}
	}
	return out
}

// toolActivation is the activation a successful `skill` call's result
// records (ToolResult.Source, a skill-load record).
func toolActivation(res ToolResult) []activation {
	if len(res.Source) == 0 || res.IsError {
		return nil
	}
	kind, loaded, ok := events.ParseLoads(res.Source)
	if !ok || kind != events.LoadKind {
		return nil
	}
	return []activation{{loaded[0].Name, loaded[0].Digest, TriggerModel}}
}

// observeStep records a PreStep's activations and, on a step that
// published a catalog, the skills listed, then ends its observation.
func (h *Host) observeStep(ctx context.Context, o stepObservation, step Step, result StepResult, err error) {
	if err == nil && (o.span != nil || h.tel.metrics()) {
		h.recordActivations(ctx, o.span, step.SessionID, step.Cwd, step.AgentScope, stepActivations(result))
		if result.Outcome == OutcomeInitial || result.Outcome == OutcomeReplacement {
			h.recordListed(ctx, step.SessionID, step.Cwd, step.AgentScope)
		}
	}
	h.tel.endStep(ctx, o, result, err)
}

// observeToolCall records the activation of a successful `skill` call,
// then ends its span.
func (h *Host) observeToolCall(ctx context.Context, span trace.Span, call sessionCall, res ToolResult, err error) {
	if err == nil && (span != nil || h.tel.metrics()) {
		h.recordActivations(ctx, span, call.SessionID, call.Cwd, call.AgentScope, toolActivation(res))
	}
	h.tel.endToolCall(span, res, err)
}
