package modelapi

import (
	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// OfferedTools returns the tools of offered, in order, that the session
// may offer the model now: all of them but those the active skill's
// enforced grants withhold (hostsdk.Options.ToolGrants,
// hostsdk.Session.OfferedTools). Pass the result to an adapter's Tools or
// Request in place of offered, at every model call: the grants change as
// skills load and turns end.
func OfferedTools(s *hostsdk.Session, offered []tools.ResolvedTool) []tools.ResolvedTool {
	names := make([]string, len(offered))
	for i, t := range offered {
		names[i] = t.Definition.Name
	}
	kept := s.OfferedTools(names)
	if len(kept) == len(names) {
		return offered
	}
	out := make([]tools.ResolvedTool, 0, len(kept))
	for _, t := range offered {
		for _, n := range kept {
			if t.Definition.Name == n {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// Refusal returns, for a call the session's enforced grants withhold
// (hostsdk.Session.CheckToolCall), its result: the refusal text naming the
// skill, as an error result, and true. The caller sends it in
// ResultMessage instead of running the tool. For a call the grants allow
// it returns false.
func Refusal(s *hostsdk.Session, call hostsdk.ToolCall) (Result, bool) {
	refusal, ok := s.CheckToolCall(call.Name)
	if ok {
		return Result{}, false
	}
	return Result{CallID: call.CallID, Result: hostsdk.ToolResult{Text: refusal, IsError: true}}, true
}
