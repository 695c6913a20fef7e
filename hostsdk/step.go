package hostsdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	skillcatalogv1 "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleSystem    = "system"
	RoleTool      = "tool"
)

// ContentBlock is one block of a message's content.
type ContentBlock struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// Message is a durable message proposed for, or added to, a step.
type Message struct {
	ID      string         `json:"id"`
	Role    string         `json:"role"`
	Content []ContentBlock `json:"content"`
	// Source is the message's raw durable source JSON, kept byte for byte;
	// nil when it has none.
	Source json.RawMessage `json:"-"`
}

// Text returns the concatenated text of the message's text blocks.
func (m Message) Text() string {
	var s string
	for _, b := range m.Content {
		if b.Type == "text" {
			s += b.Text
		}
	}
	return s
}

// Decision is a pre-step decision: reject the step, or enter it with extra
// messages.
type Decision struct {
	// Reject, when non-nil, rejects the step; Messages are then ignored.
	Reject *Reject
	// Messages to add when entering.
	Messages []Message
}

// Reject says why a step was rejected.
type Reject struct {
	Reason string
}

// Step identifies one model step of an agent in a session.
type Step struct {
	SessionID  string
	Cwd        string
	AgentScope string
	Turn       int
	Step       int
	// Downstream is the decision before the host's listeners run; the zero
	// value enters with no messages.
	Downstream Decision
}

// Outcome says what the plugin did in a step.
type Outcome string

// Outcomes of a step.
const (
	OutcomeNoPlugin          Outcome = "no-plugin"
	OutcomeRejectPassthrough Outcome = "reject-passthrough"
	OutcomeUnchanged         Outcome = "unchanged"
	OutcomeIncomplete        Outcome = "incomplete"
	OutcomeInitial           Outcome = "initial"
	OutcomeReplacement       Outcome = "replacement"
	OutcomeTombstone         Outcome = "tombstone"
	OutcomePluginError       Outcome = "plugin-error"
)

// StepResult is what a PreStep decided.
type StepResult struct {
	// Decision is the final decision of the step.
	Decision Decision
	// Outcome says what the plugin did.
	Outcome Outcome
	// Appended are the session-log sequence numbers of the messages that
	// were appended, in order.
	Appended []uint64
}

// PluginError is a PreStep that failed because of the plugin (its process
// died or hung, or it answered with an error).
type PluginError struct {
	Err error
}

func (e *PluginError) Error() string { return "skill-catalog plugin: " + e.Err.Error() }
func (e *PluginError) Unwrap() error { return e.Err }

// PreStep runs one pre-step: downstream listeners, then the plugin mount in
// effect for step.AgentScope, then appends an entering decision's messages to
// the session log. On a plugin failure it returns a *PluginError; unless
// Config.FailClosed is set, the StepResult then carries the downstream
// decision unchanged and nothing is appended.
func (h *Host) PreStep(ctx context.Context, step Step) (StepResult, error) {
	decision := step.Downstream
	h.mu.Lock()
	listeners := append([]Listener(nil), h.listeners...)
	h.mu.Unlock()
	for _, l := range listeners {
		d, err := l(ctx, step, decision)
		if err != nil {
			return StepResult{}, fmt.Errorf("pre-step listener: %w", err)
		}
		decision = d
	}

	log, err := h.sessionLog(ctx, step.SessionID)
	if err != nil {
		return StepResult{}, err
	}
	m, chain, err := h.mountFor(step.AgentScope)
	if err != nil {
		return StepResult{}, fmt.Errorf("agent scope %q: %w", step.AgentScope, err)
	}
	result := StepResult{Decision: decision, Outcome: OutcomeNoPlugin}
	if m != nil {
		result, err = h.runPlugin(ctx, m, chain, log, step, decision)
		if err != nil {
			if h.cfg.FailClosed {
				return StepResult{}, err
			}
			return StepResult{Decision: decision, Outcome: OutcomePluginError}, err
		}
	}
	if result.Decision.Reject != nil || len(result.Decision.Messages) == 0 {
		return result, nil
	}
	recs := make([]sessionlog.Record, len(result.Decision.Messages))
	for i, msg := range result.Decision.Messages {
		body, err := json.Marshal(msg)
		if err != nil {
			return StepResult{}, fmt.Errorf("encode message %q: %w", msg.ID, err)
		}
		recs[i] = sessionlog.Record{Type: sessionlog.TypeMessage, Source: msg.Source, Body: body}
	}
	head, err := log.Append(ctx, recs...)
	if err != nil {
		return StepResult{}, fmt.Errorf("append step messages: %w", err)
	}
	for i := range recs {
		result.Appended = append(result.Appended, head.Seq-uint64(len(recs)-1-i))
	}
	return result, nil
}

func (h *Host) runPlugin(ctx context.Context, m *Mount, chain []string, log sessionlog.Log, step Step, decision Decision) (StepResult, error) {
	// (Re)starting the process and replaying mounts is not part of the
	// step's time budget: a slow start is not a hung plugin.
	if _, err := m.plugin.running(ctx); err != nil {
		return StepResult{}, &PluginError{Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, h.cfg.PreStepTimeout)
	defer cancel()

	req := &skillcatalogv1.PreStepRequest{
		SessionId:  step.SessionID,
		Cwd:        step.Cwd,
		AgentScope: step.AgentScope,
		Turn:       uint32(step.Turn),
		Step:       uint32(step.Step),
		Downstream: toWireDecision(decision),
	}
	if id, _, ok := h.cfg.Tools.Resolve(step.AgentScope, "skill"); ok {
		req.SkillToolIdentity = id
	}
	if tok, ok := h.cfg.Skills.CachedToken(skillsQuery(step, chain)); ok {
		req.SnapshotToken = tok
	}
	if head, err := log.Head(ctx); err == nil {
		req.SessionHead = &skillcatalogv1.SessionHead{HeadSeq: head.Seq, SurfaceRevision: head.SurfaceRevision}
	}

	var resp *skillcatalogv1.PreStepResponse
	err := m.call(ctx, func(proc *process, mountID string) error {
		req.MountId = mountID
		var err error
		resp, err = proc.plugin.PreStep(ctx, req)
		return err
	})
	if err != nil {
		return StepResult{}, &PluginError{Err: err}
	}
	outcome, err := fromWireOutcome(resp.GetOutcome())
	if err != nil {
		return StepResult{}, &PluginError{Err: err}
	}
	final, err := applyEdits(decision, resp.GetEdits())
	if err != nil {
		return StepResult{}, &PluginError{Err: err}
	}
	return StepResult{Decision: final, Outcome: outcome}, nil
}

// applyEdits applies the plugin's edits to the downstream decision:
// replacements and removals by index into the proposed messages, then
// appends in order.
func applyEdits(d Decision, edits []*skillcatalogv1.MessageEdit) (Decision, error) {
	if d.Reject != nil {
		if len(edits) > 0 {
			return d, errors.New("plugin edited a rejected decision")
		}
		return d, nil
	}
	msgs := append([]Message(nil), d.Messages...)
	removed := make([]bool, len(msgs))
	var appended []Message
	for _, e := range edits {
		switch {
		case e.GetReplace() != nil:
			i := int(e.GetReplace().GetIndex())
			if i >= len(msgs) {
				return d, fmt.Errorf("plugin replaced message %d of %d", i, len(msgs))
			}
			msgs[i] = fromWireMessage(e.GetReplace().GetMessage())
		case e.GetAppend() != nil:
			appended = append(appended, fromWireMessage(e.GetAppend()))
		default:
			rm, ok := e.GetEdit().(*skillcatalogv1.MessageEdit_Remove)
			if !ok {
				return d, errors.New("plugin sent an empty edit")
			}
			if int(rm.Remove) >= len(msgs) {
				return d, fmt.Errorf("plugin removed message %d of %d", rm.Remove, len(msgs))
			}
			removed[rm.Remove] = true
		}
	}
	out := Decision{Messages: make([]Message, 0, len(msgs)+len(appended))}
	for i, m := range msgs {
		if !removed[i] {
			out.Messages = append(out.Messages, m)
		}
	}
	out.Messages = append(out.Messages, appended...)
	return out, nil
}

func toWireDecision(d Decision) *skillcatalogv1.Decision {
	if d.Reject != nil {
		return &skillcatalogv1.Decision{Kind: &skillcatalogv1.Decision_Reject{Reject: &skillcatalogv1.RejectDecision{Reason: d.Reject.Reason}}}
	}
	enter := &skillcatalogv1.EnterDecision{Messages: make([]*skillcatalogv1.Message, len(d.Messages))}
	for i, m := range d.Messages {
		enter.Messages[i] = toWireMessage(m)
	}
	return &skillcatalogv1.Decision{Kind: &skillcatalogv1.Decision_Enter{Enter: enter}}
}

func roleToWire(role string) skillcatalogv1.Role {
	switch role {
	case RoleUser:
		return skillcatalogv1.Role_ROLE_USER
	case RoleAssistant:
		return skillcatalogv1.Role_ROLE_ASSISTANT
	case RoleSystem:
		return skillcatalogv1.Role_ROLE_SYSTEM
	case RoleTool:
		return skillcatalogv1.Role_ROLE_TOOL
	}
	return skillcatalogv1.Role_ROLE_UNSPECIFIED
}

func roleFromWire(role skillcatalogv1.Role) string {
	switch role {
	case skillcatalogv1.Role_ROLE_USER:
		return RoleUser
	case skillcatalogv1.Role_ROLE_ASSISTANT:
		return RoleAssistant
	case skillcatalogv1.Role_ROLE_SYSTEM:
		return RoleSystem
	case skillcatalogv1.Role_ROLE_TOOL:
		return RoleTool
	}
	return ""
}

func toWireMessage(m Message) *skillcatalogv1.Message {
	out := &skillcatalogv1.Message{Id: m.ID, Role: roleToWire(m.Role), SourceJson: m.Source}
	for _, b := range m.Content {
		out.Content = append(out.Content, &skillcatalogv1.ContentBlock{Type: b.Type, Text: b.Text})
	}
	return out
}

func fromWireMessage(m *skillcatalogv1.Message) Message {
	out := Message{ID: m.GetId(), Role: roleFromWire(m.GetRole()), Source: m.GetSourceJson()}
	for _, b := range m.GetContent() {
		out.Content = append(out.Content, ContentBlock{Type: b.GetType(), Text: b.GetText()})
	}
	return out
}

func fromWireOutcome(o skillcatalogv1.Outcome) (Outcome, error) {
	switch o {
	case skillcatalogv1.Outcome_OUTCOME_REJECT_PASSTHROUGH:
		return OutcomeRejectPassthrough, nil
	case skillcatalogv1.Outcome_OUTCOME_UNCHANGED:
		return OutcomeUnchanged, nil
	case skillcatalogv1.Outcome_OUTCOME_INCOMPLETE:
		return OutcomeIncomplete, nil
	case skillcatalogv1.Outcome_OUTCOME_INITIAL:
		return OutcomeInitial, nil
	case skillcatalogv1.Outcome_OUTCOME_REPLACEMENT:
		return OutcomeReplacement, nil
	case skillcatalogv1.Outcome_OUTCOME_TOMBSTONE:
		return OutcomeTombstone, nil
	}
	return "", fmt.Errorf("plugin answered with unknown outcome %v", o)
}
