// Package resource is the pure part of the plugin's resource-read tool
// (contract.ResourceToolName): the check of a path the model sent, before
// any of it reaches the host, and the page the tool returns, cut on
// character boundaries out of the window the host read. The plugin checks
// the policy and asks the host; nothing here does I/O.
package resource

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// MaxPathBytes bounds the path argument of the resource-read tool.
const MaxPathBytes = 1024

// WindowBytes is what the plugin asks the host to read for a page: a page
// and the bytes of a character it may cut at its end.
const WindowBytes = render.ResourcePageBytes + utf8.UTFMax - 1

// Read is a checked resource-read call: the skill, the resource's path
// and where the page starts.
type Read struct {
	Name, Path string
	Offset     int64
}

// ValidatePath checks a resource path the model sent before any of it
// reaches the host; it is plugin.ValidateResourcePath. A path is plain
// text, slash-separated and relative to the skill's resource base: at most
// MaxPathBytes of UTF-8 without
// control or format characters; not absolute; no backslash, colon (drive
// letters, URLs), percent sign (encoded dots or separators), question mark
// or number sign; no empty segment, and no segment that starts with a dot
// ("." and ".." included: hidden files are not read). The error says which
// rule the path breaks, for the model.
//
// The host checks again where the path leads (a directory skill's files are
// opened below its directory without following links out of it; a remote
// skill's URI must be canonical), so this check is the first of two.
func ValidatePath(path string) error {
	switch {
	case path == "":
		return errors.New("the path is empty")
	case len(path) > MaxPathBytes:
		return fmt.Errorf("it is longer than %d bytes", MaxPathBytes)
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

// Page turns the host's answer to the read r into the tool's result. A page of a
// remote skill (origin set, a source of the given kind) holds as many bytes
// of the file as fit, escaped, in render.ResourcePageBytes; its provider's
// errors are untrusted text.
func Page(r Read, got contract.ResourceRead, origin string, kind skill.OriginKind) contract.ToolResult {
	switch got.Status {
	case contract.ResourceOK:
	case contract.ResourceSkillNotFound:
		return refused(render.UnknownSkill(r.Name))
	case contract.ResourceNotModelInvocable:
		return refused(render.NotModelInvocable(r.Name))
	case contract.ResourceNotReadable:
		return refused(render.ResourceNotReadable(r.Name))
	case contract.ResourceInvalidPath:
		return refused(render.InvalidPath(r.Path, "it leads outside the skill's resources, or the skill's provider refuses it"))
	case contract.ResourceNotFound:
		return refused(render.ResourceNotFound(r.Name, r.Path))
	case contract.ResourceTooLarge:
		return refused(render.ResourceTooLarge(r.Name, r.Path))
	case contract.ResourceBinary:
		return refused(render.ResourceBinary(r.Name, r.Path))
	case contract.ResourceProviderError:
		if origin != "" {
			return refused(render.ProviderFailedUntrusted(got.Error))
		}
		return refused(render.ProviderFailed(got.Error))
	default:
		return refused(render.ProviderFailed(fmt.Sprintf("the host answered a resource read with status %q", got.Status)))
	}
	total := got.Total
	if total > skill.MaxResourceBytes {
		return refused(render.ResourceTooLarge(r.Name, r.Path))
	}
	if r.Offset >= total && (total > 0 || r.Offset > 0) {
		return refused(render.OffsetPastEnd(r.Name, r.Path, r.Offset, total))
	}
	data := got.Data
	if int64(len(data)) > total-r.Offset {
		data = data[:total-r.Offset] // a host that sent more than there is
	}
	// An offset inside a character starts the page at the next one.
	skip := 0
	for skip < len(data) && skip < utf8.UTFMax-1 && !utf8.RuneStart(data[skip]) {
		skip++
	}
	page := data[skip:]
	start := r.Offset + int64(skip)
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
		return refused(render.ResourceBinary(r.Name, r.Path))
	}
	p := skill.ResourcePage{Name: r.Name, Path: r.Path, Offset: start, TotalBytes: total, Content: string(page)}
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

// refused is the tool's error result of a refusal.
func refused(refusal render.ToolError) contract.ToolResult {
	return contract.ToolResult{Text: string(refusal), IsError: true}
}
