package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/resource"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// resourceToolDefinition returns the definition of the resource-read tool that a
// mount with contract.OptionResourceTool asks the host to register.
func resourceToolDefinition() contract.ToolDefinition {
	return contract.ToolDefinition{
		Name:         contract.ResourceToolName,
		Description:  render.ResourceToolDescription,
		InputSchema:  []byte(render.ResourceToolInputSchema),
		OutputSchema: []byte(render.ResourceToolOutputSchema),
	}
}

// ValidateResourcePath checks a resource path the model sent before any of
// it reaches the host. A path is plain text, slash-separated and relative to
// the skill's resource base: at most 1024 bytes of UTF-8 without control or
// format characters; not absolute; no backslash, colon (drive letters,
// URLs), percent sign (encoded dots or separators), question mark or number
// sign; no empty segment, and no segment that starts with a dot ("." and
// ".." included: hidden files are not read). The error says which rule the
// path breaks, for the model.
//
// The host checks again where the path leads (a directory skill's files are
// opened below its directory without following links out of it; a remote
// skill's URI must be canonical), so this check is the first of two.
func ValidateResourcePath(path string) error { return resource.ValidatePath(path) }

// resourceArguments checks arguments against the resource-read tool's
// input schema and returns them, or the error text that refuses them. As
// for the `skill` tool, arguments that are not a JSON object are refused as
// such, a missing or invalid name is an invalid name, and a field the
// schema does not allow is named (the first in sorted order). Then the path
// must be a string that ValidateResourcePath accepts, and the offset, when
// present, an integral JSON number from 0 to 2147483647.
func resourceArguments(args json.RawMessage) (resource.Read, render.ToolError) {
	var a resource.Read
	obj, ok := argumentObject(args)
	if !ok {
		if sent := bytes.TrimSpace(args); json.Valid(sent) {
			return a, render.ResourceArgumentsOtherJSON(string(sent))
		}
		return a, render.ResourceArgumentsNotObject(string(bytes.TrimSpace(args)))
	}
	extra, unexpected := "", false
	for k := range obj {
		if k != "name" && k != "path" && k != "offset" && (!unexpected || k < extra) {
			extra, unexpected = k, true
		}
	}
	if unexpected {
		return a, render.ResourceUnexpectedArgument(extra)
	}
	raw, present := obj["name"]
	if !present {
		return a, render.ResourceMissingName()
	}
	if err := json.Unmarshal(raw, &a.Name); err != nil {
		return a, render.InvalidName(string(raw))
	}
	if !skill.ValidListedName(a.Name) {
		return a, render.InvalidName(a.Name)
	}
	raw, present = obj["path"]
	if !present {
		return a, render.InvalidPath("", "the path is missing")
	}
	if err := json.Unmarshal(raw, &a.Path); err != nil {
		return a, render.InvalidPath(string(raw), "the path must be a string")
	}
	if err := resource.ValidatePath(a.Path); err != nil {
		return a, render.InvalidPath(a.Path, err.Error())
	}
	if raw, present = obj["offset"]; present {
		n, err := parseMinInt(raw, 0)
		if err != nil {
			return a, render.InvalidOffset(compactJSON(raw))
		}
		a.Offset = int64(n)
	}
	return a, ""
}

// executeResourceTool runs one resource-read call. The `skill` tool's
// policy checks come first: the name must be listed for the agent and
// model-invocable (an incomplete snapshot defers to the host, which checks
// the loaded definition). The host reads a window a few bytes larger than
// a page; the page is cut on character boundaries at both ends. A remote
// skill's page is rendered as untrusted text; where the snapshot cannot
// say whose the skill is, its definition does.
func (e *engine) executeResourceTool(ctx context.Context, host contract.Host, m mount, call contract.ToolCall) (contract.ToolResult, error) {
	a, refusal := resourceArguments(call.Arguments)
	if refusal != "" {
		return errorResult(refusal), nil
	}
	l, err := e.listingOf(ctx, host, m, call, a.Name)
	if err != nil {
		return contract.ToolResult{}, err
	} else if l.refusal != "" {
		return errorResult(l.refusal), nil
	}
	rh, ok := host.(contract.ResourceReader)
	if !ok {
		return errorResult(render.ResourceNotReadable(a.Name)), nil
	}
	origin, kind := l.origin, l.originKind
	if !l.known {
		if origin, kind, refusal, err = originOf(ctx, host, call, a.Name); err != nil {
			return contract.ToolResult{}, err
		} else if refusal != "" {
			return errorResult(refusal), nil
		}
	}
	got, err := rh.ReadResource(ctx, contract.ResourceRequest{
		SessionID: call.SessionID, Cwd: call.Cwd, AgentScope: call.AgentScope,
		Name: a.Name, Path: a.Path, Offset: a.Offset,
		MaxBytes: resource.WindowBytes,
	})
	if errors.Is(err, contract.ErrNoResourceReads) {
		return errorResult(render.ResourceNotReadable(a.Name)), nil
	}
	if err != nil {
		return contract.ToolResult{}, hostFailed("read resource %q of skill %q: %w", a.Path, a.Name, err)
	}
	return resource.Page(a, got, origin, kind), nil
}

// originOf loads the skill named name to learn its origin and the
// origin's kind, for a read the snapshot could not place; a skill that
// cannot be loaded for the model is refused as the `skill` tool refuses
// it, and so is one whose origin is of a kind no text can name.
func originOf(ctx context.Context, host contract.Host, call contract.ToolCall, name string) (string, skill.OriginKind, render.ToolError, error) {
	got, err := host.GetSkill(ctx, contract.SkillRequest{SessionID: call.SessionID, Cwd: call.Cwd, AgentScope: call.AgentScope, Name: name})
	switch {
	case err != nil:
		return "", 0, "", hostFailed("load skill %q: %w", name, err)
	case got.Error != "":
		return "", 0, render.ProviderFailedUntrusted(got.Error), nil // whose text it is, is what is not known
	case !got.Found:
		return "", 0, render.UnknownSkill(name), nil
	case !got.Skill.Invocation.ModelInvocable:
		return "", 0, render.NotModelInvocable(name), nil
	}
	if err := render.CheckOriginKind(name, got.Skill.Origin, got.Skill.OriginKind); err != nil {
		return "", 0, render.ProviderFailedUntrusted(err.Error()), nil
	}
	return got.Skill.Origin, got.Skill.OriginKind, "", nil
}
