package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// maxResourcePathBytes bounds the path argument of the resource-read tool.
const maxResourcePathBytes = 1024

// ResourceTool returns the definition of the resource-read tool that a
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
// the skill's resource base: at most maxResourcePathBytes of UTF-8 without
// control or format characters; not absolute; no backslash, colon (drive
// letters, URLs), percent sign (encoded dots or separators), question mark
// or number sign; no empty segment, and no segment that starts with a dot
// ("." and ".." included: hidden files are not read). The error says which
// rule the path breaks, for the model.
//
// The host checks again where the path leads (a directory skill's files are
// opened below its directory without following links out of it; a remote
// skill's URI must be canonical), so this check is the first of two.
func ValidateResourcePath(path string) error {
	switch {
	case path == "":
		return errors.New("the path is empty")
	case len(path) > maxResourcePathBytes:
		return fmt.Errorf("it is longer than %d bytes", maxResourcePathBytes)
	case !utf8.ValidString(path):
		return errors.New("it is not UTF-8")
	case strings.ContainsFunc(path, func(r rune) bool { return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) }):
		return errors.New("it holds a control or format character")
	case path[0] == '/':
		return errors.New("absolute paths are not read; give the path relative to the skill's resource base")
	case strings.Contains(path, `\`):
		return errors.New("backslashes are not allowed; separate directories with /")
	case strings.Contains(path, ":"):
		return errors.New("colons are not allowed (no drive letters or URLs)")
	case strings.Contains(path, "%"):
		return errors.New("percent-encoding is not allowed; give the path as plain text")
	case strings.ContainsAny(path, "?#"):
		return errors.New("query and fragment characters are not allowed")
	}
	for seg := range strings.SplitSeq(path, "/") {
		switch {
		case seg == "":
			return errors.New("it has an empty segment")
		case seg == "." || seg == "..":
			return errors.New("dot segments are not allowed")
		case seg[0] == '.':
			return errors.New("hidden files and directories are not read")
		}
	}
	return nil
}

// resourceArgs are the checked arguments of a resource-read call.
type resourceArgs struct {
	name, path string
	offset     int64
}

// resourceArguments checks arguments against the resource-read tool's
// input schema and returns them, or the error text that refuses them. As
// for the `skill` tool, arguments that are not a JSON object are refused as
// such, a missing or invalid name is an invalid name, and a field the
// schema does not allow is named (the first in sorted order). Then the path
// must be a string that ValidateResourcePath accepts, and the offset, when
// present, an integral JSON number from 0 to 2147483647.
func resourceArguments(args json.RawMessage) (resourceArgs, render.ToolError) {
	var a resourceArgs
	obj, ok := argumentObject(args)
	if !ok {
		if sent := bytes.TrimSpace(args); json.Valid(sent) {
			return a, render.ErrResourceArgumentsOtherJSON(string(sent))
		}
		return a, render.ErrResourceArgumentsNotObject(string(bytes.TrimSpace(args)))
	}
	extra, unexpected := "", false
	for k := range obj {
		if k != "name" && k != "path" && k != "offset" && (!unexpected || k < extra) {
			extra, unexpected = k, true
		}
	}
	if unexpected {
		return a, render.ErrResourceUnexpectedArgument(extra)
	}
	raw, present := obj["name"]
	if !present {
		return a, render.ErrResourceMissingName()
	}
	if err := json.Unmarshal(raw, &a.name); err != nil {
		return a, render.ErrInvalidName(string(raw))
	}
	if !skill.ValidListedName(a.name) {
		return a, render.ErrInvalidName(a.name)
	}
	raw, present = obj["path"]
	if !present {
		return a, render.ErrInvalidPath("", "the path is missing")
	}
	if err := json.Unmarshal(raw, &a.path); err != nil {
		return a, render.ErrInvalidPath(string(raw), "the path must be a string")
	}
	if err := ValidateResourcePath(a.path); err != nil {
		return a, render.ErrInvalidPath(a.path, err.Error())
	}
	if raw, present = obj["offset"]; present {
		n, err := parseMinInt(raw, 0)
		if err != nil {
			return a, render.ErrInvalidOffset(compactJSON(raw))
		}
		a.offset = int64(n)
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
	l, err := e.listingOf(ctx, host, m, call, a.name)
	if err != nil {
		return contract.ToolResult{}, err
	} else if l.refusal != "" {
		return errorResult(l.refusal), nil
	}
	rh, ok := host.(contract.ResourceReader)
	if !ok {
		return errorResult(render.ErrResourceNotReadable(a.name)), nil
	}
	origin, kind := l.origin, l.originKind
	if !l.known {
		if origin, kind, refusal, err = originOf(ctx, host, call, a.name); err != nil {
			return contract.ToolResult{}, err
		} else if refusal != "" {
			return errorResult(refusal), nil
		}
	}
	got, err := rh.ReadResource(ctx, contract.ResourceRequest{
		SessionID: call.SessionID, Cwd: call.Cwd, AgentScope: call.AgentScope,
		Name: a.name, Path: a.path, Offset: a.offset,
		MaxBytes: render.ResourcePageBytes + utf8.UTFMax - 1,
	})
	if errors.Is(err, contract.ErrNoResourceReads) {
		return errorResult(render.ErrResourceNotReadable(a.name)), nil
	}
	if err != nil {
		return contract.ToolResult{}, hostFailed("read resource %q of skill %q: %w", a.path, a.name, err)
	}
	return pageResult(a, got, origin, kind), nil
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
		return "", 0, render.ErrProviderUntrusted(got.Error), nil // whose text it is, is what is not known
	case !got.Found:
		return "", 0, render.ErrUnknownSkill(name), nil
	case !got.Skill.Invocation.ModelInvocable:
		return "", 0, render.ErrNotModelInvocable(name), nil
	}
	if err := render.CheckOriginKind(name, got.Skill.Origin, got.Skill.OriginKind); err != nil {
		return "", 0, render.ErrProviderUntrusted(err.Error()), nil
	}
	return got.Skill.Origin, got.Skill.OriginKind, "", nil
}

// pageResult turns the host's answer into the tool's result. A page of a
// remote skill (origin set, a source of the given kind) holds as many bytes
// of the file as fit, escaped, in render.ResourcePageBytes; its provider's
// errors are untrusted text.
func pageResult(a resourceArgs, got contract.ResourceRead, origin string, kind skill.OriginKind) contract.ToolResult {
	switch got.Status {
	case contract.ResourceOK:
	case contract.ResourceSkillNotFound:
		return errorResult(render.ErrUnknownSkill(a.name))
	case contract.ResourceNotModelInvocable:
		return errorResult(render.ErrNotModelInvocable(a.name))
	case contract.ResourceNotReadable:
		return errorResult(render.ErrResourceNotReadable(a.name))
	case contract.ResourceInvalidPath:
		return errorResult(render.ErrInvalidPath(a.path, "it leads outside the skill's resources, or the skill's provider refuses it"))
	case contract.ResourceNotFound:
		return errorResult(render.ErrResourceNotFound(a.name, a.path))
	case contract.ResourceTooLarge:
		return errorResult(render.ErrResourceTooLarge(a.name, a.path))
	case contract.ResourceBinary:
		return errorResult(render.ErrResourceBinary(a.name, a.path))
	case contract.ResourceProviderError:
		return providerError(got.Error, origin != "")
	default:
		return errorResult(render.ErrProvider(fmt.Sprintf("the host answered a resource read with status %q", got.Status)))
	}
	total := got.Total
	if total > skill.MaxResourceBytes {
		return errorResult(render.ErrResourceTooLarge(a.name, a.path))
	}
	if a.offset >= total && (total > 0 || a.offset > 0) {
		return errorResult(render.ErrOffsetPastEnd(a.name, a.path, a.offset, total))
	}
	data := got.Data
	if int64(len(data)) > total-a.offset {
		data = data[:total-a.offset] // a host that sent more than there is
	}
	// An offset inside a character starts the page at the next one.
	skip := 0
	for skip < len(data) && skip < utf8.UTFMax-1 && !utf8.RuneStart(data[skip]) {
		skip++
	}
	page := data[skip:]
	start := a.offset + int64(skip)
	continues := start+int64(len(page)) < total
	if origin != "" {
		// Escaped, the page must still fit.
		if n := render.FitEscaped(page, render.ResourcePageBytes); n < len(page) {
			page, continues = page[:n], true
		}
	}
	if len(page) > render.ResourcePageBytes {
		page = page[:cutBefore(page, render.ResourcePageBytes)]
	} else if continues {
		// The window ends inside the file: drop a character it cut.
		if r := lastRuneStart(page); r >= 0 && !utf8.FullRune(page[r:]) {
			page = page[:r]
		}
	}
	next := start + int64(len(page))
	if !skill.IsText(page) || (len(page) == 0 && next < total) {
		return errorResult(render.ErrResourceBinary(a.name, a.path))
	}
	p := skill.ResourcePage{Name: a.name, Path: a.path, Offset: start, TotalBytes: total, Content: string(page)}
	if next < total {
		p.NextOffset = &next
	}
	return contract.ToolResult{Resource: &p, Text: render.ResourcePageFrom(p, origin, kind)}
}

// cutBefore returns the largest cut <= n at which b splits no character:
// n itself when b[n] starts one.
func cutBefore(b []byte, n int) int {
	for cut := n; cut > n-utf8.UTFMax && cut > 0; cut-- {
		if utf8.RuneStart(b[cut]) {
			return cut
		}
	}
	return n // not UTF-8 there: the text check refuses the page
}

// lastRuneStart returns the index of the last character start among b's
// last utf8.UTFMax bytes, or -1.
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return -1
}
