package mcpskills

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

// MaxErrorBytes bounds the message of every error and diagnostic the
// provider returns.
const MaxErrorBytes = 300

// ErrClosed is returned by calls on a closed Provider.
var ErrClosed = errors.New("mcpskills: provider closed")

// ErrResourceNotFound is matched by the error of a read the server answered
// with MCP's "resource not found" error.
var ErrResourceNotFound = errors.New("mcpskills: resource not found")

// ErrVerification is matched by the error of a load or read refused
// because what the server sent does not match the skill's held entry: a
// size or digest that differs, a SKILL.md frontmatter that differs from
// the entry's, or a file the entry does not list.
var ErrVerification = errors.New("mcpskills: the server's content does not match the skill's entry")

// ErrDeclined is matched by the error of a load of a skill whose entry is
// well formed but not loaded: over the extension's limits (512 files,
// 16 MiB, a SKILL.md over 8 MiB) or with "dynamic" resources.
var ErrDeclined = errors.New("mcpskills: skill declined")

// Error is the error type the provider returns for remote failures. Its
// message is a single line of at most MaxErrorBytes bytes with every
// configured credential replaced by "[redacted]". The underlying error is not
// kept (it may quote credentials); Unwrap reports only context cancellation,
// deadline expiry, ErrClosed, ErrResourceNotFound, ErrVerification,
// ErrDeclined and, for a SKILL.md that is not UTF-8, skill.ErrInvalidUTF8
// (and, for a read the host should report as a missing file,
// skills.ErrResourceNotFound, and for one whose answer exceeded
// MaxMessageBytes, skills.ErrResourceTooLarge), so callers can still tell
// those apart.
type Error struct {
	msg  string
	kind error
}

func (e *Error) Error() string { return e.msg }

// Unwrap returns what the error is (see Error), or nil.
func (e *Error) Unwrap() error { return e.kind }

// skillError is an error about one skill of the server, naming both:
// `mcpskills: skill "<name>" from MCP server "<label>": <what>`.
func (p *Provider) skillError(name string, kind error, format string, args ...any) error {
	head := fmt.Sprintf("mcpskills: skill %q from MCP server %q: ", clip(name, 128), p.cfg.Label)
	return &Error{msg: p.san.clean(head + fmt.Sprintf(format, args...)), kind: kind}
}

// sanitizer turns arbitrary errors into bounded, credential-free Errors.
// In those of loads and reads (wrapForModel), whose text reaches the model,
// the message of a JSON-RPC error the server answered with goes to log, and
// the Error names the error's code instead.
type sanitizer struct {
	secrets []string
	log     *slog.Logger
	server  string // the endpoint, as the log names it
}

func (s sanitizer) clean(msg string) string {
	for _, sec := range s.secrets {
		msg = strings.ReplaceAll(msg, sec, "[redacted]")
	}
	// One line, no control characters: messages may come from the server.
	return skillsext.OneLine(msg, MaxErrorBytes)
}

// wrap sanitizes err, prefixed with what was being done, for the host: a
// listing's failure, which the host reports and logs but never shows the
// model.
func (s sanitizer) wrap(what string, err error) error {
	return s.wrapFor(what, err, false)
}

// wrapForModel is wrap for the errors of loads and reads, whose text the
// host shows the model: a JSON-RPC error the server answered with is named
// by its code, and its message, the server's own words, goes to the log.
func (s sanitizer) wrapForModel(what string, err error) error {
	return s.wrapFor(what, err, true)
}

func (s sanitizer) wrapFor(what string, err error, model bool) error {
	if err == nil {
		return nil
	}
	var kind error
	switch {
	case errors.Is(err, context.Canceled):
		kind = context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		kind = context.DeadlineExceeded
	case errors.Is(err, ErrClosed):
		kind = ErrClosed
	case isResourceNotFound(err):
		kind = ErrResourceNotFound
	case errors.Is(err, errMessageTooLarge):
		kind = errMessageTooLarge // for ReadSkillResource to report as too large
	}
	var e *Error
	if errors.As(err, &e) {
		// Already clean; only add context.
		return &Error{msg: s.clean("mcpskills: " + what + ": " + strings.TrimPrefix(e.msg, "mcpskills: ")), kind: e.kind}
	}
	detail := err.Error()
	if werr := serverError(err); werr != nil && model {
		detail = "the server answered with JSON-RPC error " + strconv.FormatInt(werr.Code, 10)
		if s.log != nil {
			s.log.Warn("mcpskills: the server answered with an error", "server", s.server, "doing", s.clean(what),
				"code", werr.Code, "message", s.clean(werr.Message))
		}
	}
	return &Error{msg: s.clean("mcpskills: " + what + ": " + detail), kind: kind}
}

// serverError returns the JSON-RPC error err holds when it is one the
// server answered with, not one the SDK reports for its own transport
// (client closing, server closing, rejected by the transport), or nil.
func serverError(err error) *jsonrpc.Error {
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || sdkTransportCode(werr.Code) {
		return nil
	}
	return werr
}

// sdkTransportCode reports whether code is one of the JSON-RPC codes the
// SDK gives its own transport failures.
func sdkTransportCode(code int64) bool {
	switch code {
	case -32003, -32004, -32005:
		return true
	}
	return false
}

// clip cuts s to at most n bytes without splitting a character
// (skillsext.Clip, shared with the other providers of remote skills).
func clip(s string, n int) string { return skillsext.Clip(s, n) }

// isResourceNotFound reports whether the server answered a read with MCP's
// "resource not found" error.
func isResourceNotFound(err error) bool {
	var werr *jsonrpc.Error
	return errors.As(err, &werr) && werr.Code == mcp.CodeResourceNotFound
}
