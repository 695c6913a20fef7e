package plugin

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// listing is what the agent's snapshot says about a name a tool was
// called with.
type listing struct {
	// refusal is the tool's refusal when a complete snapshot does not list
	// the name or lists it as not model-invocable; "" otherwise.
	refusal render.ToolError
	// known is true when a complete snapshot lists the name, and origin
	// then says where the skill comes from: the label of its remote source,
	// of kind originKind, or "" for the host's own skill.
	known      bool
	origin     string
	originKind skill.OriginKind
}

// untrusted reports whether the texts of the listed skill come, or may
// come, from a remote origin: a text whose origin the plugin cannot
// establish is treated as one that does.
func (l listing) untrusted() bool { return !l.known || l.origin != "" }

// listingOf applies the `skill` tool's policy to name on the agent's
// snapshot. An incomplete snapshot cannot prove absence: the listing then
// refuses nothing and knows nothing, and the caller asks for the skill
// itself and lets the loaded definition's policy decide.
func (e *engine) listingOf(ctx context.Context, host contract.Host, m mount, call contract.ToolCall, name string) (listing, error) {
	v, complete, err := e.currentView(ctx, host, m.cfg, contract.SnapshotRequest{SessionID: call.SessionID, Cwd: call.Cwd, AgentScope: call.AgentScope}, call.SnapshotToken, nil)
	if err != nil || !complete {
		return listing{}, err
	}
	invocable, ok := v.Lookup(name)
	switch {
	case !ok:
		return listing{refusal: render.UnknownSkill(name)}, nil
	case !invocable:
		return listing{refusal: render.NotModelInvocable(name)}, nil
	}
	l := listing{known: true}
	l.origin, l.originKind = v.Origin(name)
	return l, nil
}

// providerError is the error text of a provider's failure: verbatim for
// the host's own skill, as untrusted text (render.ProviderFailedUntrusted)
// for a remote one's or one whose origin is not known.
func providerError(message string, untrusted bool) contract.ToolResult {
	if untrusted {
		return errorResult(render.ProviderFailedUntrusted(message))
	}
	return errorResult(render.ProviderFailed(message))
}

// executeSkillTool runs one `skill` tool call. Failures the model should
// see are error results, not Go errors; a Go error means the host could not
// be reached. Policy is checked on the snapshot listing before the body is
// requested, and again on the loaded definition. A remote skill (an origin
// on the definition or on its listing) is rendered as untrusted text. A
// skill's directives come with the result, and its text ends with the
// notice of those the host does not act on.
func (e *engine) executeSkillTool(ctx context.Context, host contract.Host, m mount, call contract.ToolCall) (contract.ToolResult, error) {
	name, refusal := skillNameArgument(call.Arguments)
	if refusal != "" {
		return errorResult(refusal), nil
	}

	l, err := e.listingOf(ctx, host, m, call, name)
	if err != nil {
		return contract.ToolResult{}, err
	} else if l.refusal != "" {
		return errorResult(l.refusal), nil
	}

	got, err := host.GetSkill(ctx, contract.SkillRequest{SessionID: call.SessionID, Cwd: call.Cwd, AgentScope: call.AgentScope, Name: name})
	if err != nil {
		return contract.ToolResult{}, hostFailed("load skill %q: %w", name, err)
	}
	if got.Error != "" {
		return providerError(got.Error, l.untrusted() || got.Skill.Origin != ""), nil
	}
	if !got.Found {
		return errorResult(render.UnknownSkill(name)), nil
	}
	if !got.Skill.Invocation.ModelInvocable {
		return errorResult(render.NotModelInvocable(name)), nil
	}

	value := got.Skill.ToolValue()
	value.Name = name
	if value.Origin == "" {
		// Shown as remote by its listing: the kind goes with the label.
		value.Origin, value.OriginKind = l.origin, l.originKind
	}
	text, err := render.SkillContent(value, m.cfg.ResourceTool)
	if err != nil {
		return providerError(err.Error(), value.Origin != ""), nil
	}
	directives := directivesOf(got.Skill, value.Origin)
	return contract.ToolResult{Value: &value, Text: render.WithDirectivesNotice(text, name, directives), Directives: directives,
		Source: events.EncodeLoadVersion(name, events.ContentDigest(value.Content), got.Skill.ContentDigest)}, nil
}

func errorResult(refusal render.ToolError) contract.ToolResult {
	return contract.ToolResult{Text: string(refusal), IsError: true}
}

// skillNameArgument checks arguments against the tool's input schema and
// returns the skill name, or the error text that refuses them. Arguments
// that are not JSON are refused as not an object, and JSON of another type
// (a string such as "pdf", null included) as that type, shown as sent; a
// missing name is said to be missing; a name that is not a string or not
// a valid skill name is an invalid name (a non-string shown as its JSON
// text); a field besides "name" is refused as the schema says
// (additionalProperties: false), naming the first such field in sorted
// order. Error texts cap what they repeat (render.MaxEchoBytes).
func skillNameArgument(args json.RawMessage) (name string, refusal render.ToolError) {
	obj, ok := argumentObject(args)
	if !ok {
		if sent := bytes.TrimSpace(args); json.Valid(sent) {
			return "", render.ArgumentsOtherJSON(string(sent))
		}
		return "", render.ArgumentsNotObject(string(bytes.TrimSpace(args)))
	}
	extra, unexpected := "", false
	for k := range obj {
		if k != "name" && (!unexpected || k < extra) {
			extra, unexpected = k, true
		}
	}
	if unexpected {
		return "", render.UnexpectedArgument(extra)
	}
	raw, present := obj["name"]
	if !present {
		return "", render.MissingName()
	}
	if err := json.Unmarshal(raw, &name); err != nil {
		return "", render.InvalidName(string(raw))
	}
	if !skill.ValidListedName(name) {
		return "", render.InvalidName(name)
	}
	return name, ""
}

// argumentObject decodes a tool call's arguments as a JSON object. ok is
// false for anything else: text that is not JSON, and JSON values of other
// types, null among them.
func argumentObject(args json.RawMessage) (obj map[string]json.RawMessage, ok bool) {
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return nil, false
	}
	return obj, true
}
