package hostsdk

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// ToolCall is a model's call of a tool, as the runtime received it. The
// session, its working directory and agent scope are the Session's.
type ToolCall struct {
	// CallID is the model's id of the call, where the runtime has one
	// (some frameworks give tools none): the plugin records and traces it,
	// and decides nothing by it. Optional.
	CallID string
	// Name is the tool name the model called.
	Name string
	// Arguments is the raw JSON of the call's arguments, as the model sent
	// it (the plugin reports malformed arguments as a tool error).
	Arguments json.RawMessage
}

// sessionCall is a tool call with the session that makes it.
type sessionCall struct {
	ToolCall
	SessionID  string
	Cwd        string
	AgentScope string
}

// ToolResult is a tool call's result: the rendered text the model sees and,
// on success, the canonical value.
type ToolResult = contract.ToolResult

// ToolNotFoundError is returned by CallTool when the name resolves to no tool
// for the agent.
type ToolNotFoundError struct{ Name, Scope string }

func (e *ToolNotFoundError) Error() string {
	return fmt.Sprintf("tool %q is not available in scope %q", e.Name, e.Scope)
}

// CallTool runs the model's call of one of the session's tools: it
// resolves call.Name for the session's agent scope and, when it resolves
// to a tool a plugin mount registered, forwards the call to the plugin. A
// name that resolves to another definition (a same-name shadow, say) is
// not the plugin's: CallTool returns *ToolNotFoundError for it, and the
// runtime dispatches it itself. A working directory that is not absolute
// is a *HostError matching ErrRelativeCwd, and the plugin is not called.
//
// A `skill` call's result carries the plugin's load record
// (ToolResult.Source): a runtime appends the tool-result message with it
// (Append), and Sync sets it itself on the message that answers call.CallID.
func (s *Session) CallTool(ctx context.Context, call ToolCall) (ToolResult, error) {
	return s.h.callTool(ctx, sessionCall{ToolCall: call, SessionID: s.id, Cwd: s.cwd, AgentScope: s.agentScope})
}

// callTool is CallTool for a call of the session it names.
func (h *Host) callTool(ctx context.Context, call sessionCall) (result ToolResult, err error) {
	if err := h.checkOpen("call tool", call.Name); err != nil {
		return ToolResult{}, err
	}
	ctx, span := h.tel.startToolCall(ctx, call)
	defer func() { h.observeToolCall(ctx, span, call, result, err) }()
	id, _, ok := h.opts.Tools.Resolve(call.AgentScope, call.Name)
	if !ok {
		return ToolResult{}, &ToolNotFoundError{Name: call.Name, Scope: call.AgentScope}
	}
	for _, p := range h.loaded() {
		for _, m := range p.mountList() {
			if m.ToolIdentity(call.Name) == id {
				if err := checkCwd(call.Cwd); err != nil {
					return ToolResult{}, &HostError{Err: err}
				}
				callerFirst := callerDeadlineFirst(ctx, h.opts.ToolCallTimeout)
				callCtx, cancel := context.WithTimeout(ctx, h.opts.ToolCallTimeout)
				defer cancel()
				skillID, _, _ := h.opts.Tools.Resolve(call.AgentScope, contract.SkillToolName)
				res, err := m.executeSkillTool(callCtx, call, skillID, h.toolCallToken(call))
				if err != nil {
					return ToolResult{}, blame(ctx, callerFirst, err)
				}
				if res.Source != nil && call.CallID != "" {
					h.sessions.get(call.SessionID).noteLoad(call.CallID, res.Source)
				}
				h.grantsAfterTool(call, res)
				return res, nil
			}
		}
	}
	return ToolResult{}, &ToolNotFoundError{Name: call.Name, Scope: call.AgentScope}
}

// executeSkillTool forwards a call of one of the mount's tools, named by
// call.Name, to the plugin, with the identity `skill` resolves to for the
// calling agent.
func (m *Mount) executeSkillTool(ctx context.Context, call sessionCall, skillID, token string) (ToolResult, error) {
	var res contract.ToolResult
	err := m.call(ctx, "execute skill tool", func(svc contract.Service, mountID string) (err error) {
		res, err = svc.ExecuteSkillTool(ctx, contract.ToolCall{
			MountID:    mountID,
			ToolName:   call.Name,
			SessionID:  call.SessionID,
			Cwd:        call.Cwd,
			AgentScope: call.AgentScope,
			CallID:     call.CallID,
			Arguments:  call.Arguments,

			SkillToolIdentity: skillID,
			SnapshotToken:     token,
		})
		return err
	})
	return res, err
}

// toolCallToken is the snapshot token a tool call carries, as a step's
// does: the registry's cached token for the agent, under the skill
// selection the session's latest step knew (what its catalog showed), or
// "" when the host holds no token or knows no selection yet, and the
// plugin asks.
func (h *Host) toolCallToken(call sessionCall) string {
	q, err := h.answer.Query(call.SessionID, call.Cwd, call.AgentScope)
	if err != nil {
		return ""
	}
	tok, ok := h.opts.Skills.CachedToken(q)
	if !ok {
		return ""
	}
	sel, known := h.sessions.get(call.SessionID).knownSelection()
	if !known {
		return ""
	}
	return sel.token(tok)
}
