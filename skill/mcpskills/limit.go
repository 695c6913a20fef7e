package mcpskills

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// MaxFrontmatterBytes bounds the frontmatter block of a remote SKILL.md,
// delimiter lines included, that the provider reads to compare with the
// skill's entry: 64 KiB, the bound the filesystem provider applies
// (agentskills.MaxFrontmatterBytes). A skill whose frontmatter is larger
// may be listed (its entry carries the frontmatter as JSON), but its load
// fails with an ErrVerification error that names this bound.
const MaxFrontmatterBytes = skillsext.MaxFrontmatterBytes

// MaxMessageBytes bounds one message the provider accepts from a server over
// streamable HTTP: a whole response body, or one event of an event stream
// (counted as the SDK counts it, up to the blank line that ends it). The
// client stops reading at the bound, so a hostile server cannot make the
// host hold more, and the request fails with an error naming the bound. It
// is 16 MiB, the SDK's default bound of a message over stdio.
//
// The answer to a read of a file whose size the held entry states (a
// server declaring the MCP Skills extension) is bounded instead at six
// times that size plus 1 MiB, at most 49 MiB: JSON escaping writes up to
// six bytes for one byte of text, so a text file of 3 MiB can need 18 MiB.
// Over stdio, where the SDK bounds every line alike, every message is
// bounded at 49 MiB; the SDK holds one line at a time per connection.
const MaxMessageBytes = 16 << 20

// errMessageTooLarge is the error of a request whose response was cut off.
var errMessageTooLarge = fmt.Errorf("the server sent a message larger than the limit of %d bytes (MaxMessageBytes, 16 MiB)", MaxMessageBytes)

// JSON escaping makes a file's text up to six times larger on the wire
// ("\u0001" for the byte 0x01; "\u003c" for '<' from encoders that escape
// HTML), so a file the manifest lists well under skill.MaxResourceBytes can
// arrive in a message above MaxMessageBytes. A read of a file whose size
// the held entry states is therefore bounded by what that size can need:
// six bytes a byte, plus the envelope.
const (
	// escapeFactor is the most bytes JSON writes for one byte of text.
	escapeFactor = 6
	// envelopeBytes bounds what a read's answer holds besides the text.
	envelopeBytes = 1 << 20
	// maxReadFrameBytes is the largest such bound, for a file of
	// skill.MaxResourceBytes: 49 MiB. Over stdio, where the SDK bounds
	// every line alike, it bounds every message.
	maxReadFrameBytes = escapeFactor*skill.MaxResourceBytes + envelopeBytes
)

// readFrameBytes bounds the answer to a read of a file of size bytes: never
// below MaxMessageBytes, never above maxReadFrameBytes.
func readFrameBytes(size int64) int64 {
	return min(max(MaxMessageBytes, escapeFactor*size+envelopeBytes), maxReadFrameBytes)
}

type frameBoundKey struct{}

// withFrameBound has the requests made under ctx accept responses of up to
// bound bytes instead of MaxMessageBytes.
func withFrameBound(ctx context.Context, bound int64) context.Context {
	return context.WithValue(ctx, frameBoundKey{}, bound)
}

// errSkillFileTooLarge reports a SKILL.md above skill.MaxSkillFileBytes.
func errSkillFileTooLarge(size int) error {
	return fmt.Errorf("SKILL.md of %d bytes exceeds the limit of %d bytes (skill.MaxSkillFileBytes, 8 MiB)", size, skill.MaxSkillFileBytes)
}

// isSkillFileURI reports whether uri is the SKILL.md of some skill.
func isSkillFileURI(uri string) bool {
	name, ok := strings.CutSuffix(strings.TrimPrefix(uri, skillsext.Scheme), "/SKILL.md")
	return ok && strings.HasPrefix(uri, skillsext.Scheme) && skill.ValidBoundedName(name)
}

// messageLimit learns, for one request, that a response to it was cut off
// at MaxMessageBytes. The SDK reports a failed body read only as text, so
// the flag travels in the request's context to the body that trips, which
// also cancels the request: a cut-off event stream would otherwise leave
// the call waiting for a response until the SDK gives up reconnecting.
type messageLimit struct {
	max    int64 // the bound of this request's messages
	hit    atomic.Bool
	cancel context.CancelFunc
}

type messageLimitKey struct{}

// withMessageLimit returns a context for one request, whose cancel function
// the caller must call, and the limit that records a cut-off response.
// The bound is MaxMessageBytes unless ctx carries another (withFrameBound).
func withMessageLimit(ctx context.Context) (context.Context, *messageLimit, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	lim := &messageLimit{max: MaxMessageBytes, cancel: cancel}
	if b, ok := ctx.Value(frameBoundKey{}).(int64); ok {
		lim.max = b
	}
	return context.WithValue(ctx, messageLimitKey{}, lim), lim, cancel
}

func (l *messageLimit) exceeded() bool { return l != nil && l.hit.Load() }

// err is the error of a request whose response exceeded l's bound.
func (l *messageLimit) err() error {
	if l.max == MaxMessageBytes {
		return errMessageTooLarge
	}
	return fmt.Errorf("the server sent a message larger than the limit of %d bytes (six times the size its entry states, plus 1 MiB)", l.max)
}

// boundedTransport bounds the body of every response at MaxMessageBytes per
// message, or at the bound of the request's messageLimit.
type boundedTransport struct {
	base http.RoundTripper
}

func (t boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	lim, _ := req.Context().Value(messageLimitKey{}).(*messageLimit)
	bound := int64(MaxMessageBytes)
	if lim != nil {
		bound = lim.max
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	resp.Body = &boundedBody{rc: resp.Body, max: bound, stream: ct == "text/event-stream", lineEmpty: true, lim: lim}
	return resp, nil
}

// boundedBody ends a response body with errMessageTooLarge before the byte
// that would make a message exceed max. A message is the whole body, or in
// an event stream the bytes since the last empty line: lines end at LF, and
// a line holding nothing but CRs is empty, as the SDK's event reader has it.
// The error is sticky, so draining the body after it stops at once.
type boundedBody struct {
	rc        io.ReadCloser
	max       int64
	stream    bool
	n         int64 // bytes of the current message delivered
	lineEmpty bool  // the current line has no byte other than CR so far
	err       error
	lim       *messageLimit
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if !b.stream {
		// One byte past the bound is enough to know it is exceeded.
		if int64(len(p)) > b.max-b.n+1 {
			p = p[:b.max-b.n+1]
		}
		k, err := b.rc.Read(p)
		if b.n+int64(k) > b.max {
			return b.cut(int(b.max - b.n))
		}
		b.n += int64(k)
		return k, err
	}
	k, err := b.rc.Read(p)
	// Line by line, not byte by byte: an event may be tens of MiB.
	for off := 0; off < k; {
		end, lf := k, false
		if i := bytes.IndexByte(p[off:k], '\n'); i >= 0 {
			end, lf = off+i+1, true
		}
		if b.n+int64(end-off) > b.max {
			return b.cut(off + int(b.max-b.n))
		}
		b.n += int64(end - off)
		line := p[off:end]
		if lf {
			line = line[:len(line)-1]
		}
		for i := 0; b.lineEmpty && i < len(line); i++ {
			b.lineEmpty = line[i] == '\r'
		}
		if lf {
			if b.lineEmpty {
				b.n = 0 // an empty line ends the event
			}
			b.lineEmpty = true
		}
		off = end
	}
	return k, err
}

// cut records that the bound was exceeded after the first fit bytes of the
// last read, hands those over, and fails this or the next Read.
func (b *boundedBody) cut(fit int) (int, error) {
	b.err = errMessageTooLarge
	if b.lim != nil {
		b.err = b.lim.err()
		b.lim.hit.Store(true)
		b.lim.cancel()
	}
	if fit == 0 {
		return 0, b.err
	}
	return fit, nil
}

func (b *boundedBody) Close() error { return b.rc.Close() }
