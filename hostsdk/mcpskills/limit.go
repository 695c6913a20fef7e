package mcpskills

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/skillcatalog/skillcatalog/skill"
)

// MaxMessageBytes bounds one message the provider accepts from a server over
// streamable HTTP: a whole response body, or one event of an event stream
// (counted as the SDK counts it, up to the blank line that ends it). The
// client stops reading at the bound, so a hostile server cannot make the
// host hold more, and the request fails with an error naming the bound. It
// is 16 MiB, the bound the SDK applies to a message over stdio, so both
// transports accept the same messages; a SKILL.md of
// skill.MaxSkillFileBytes fits even when JSON escaping doubles it.
const MaxMessageBytes = 16 << 20

// errMessageTooLarge is the error of a request whose response was cut off.
var errMessageTooLarge = fmt.Errorf("the server sent a message larger than the limit of %d bytes (MaxMessageBytes, 16 MiB)", MaxMessageBytes)

// errSkillFileTooLarge reports a SKILL.md above skill.MaxSkillFileBytes.
func errSkillFileTooLarge(size int) error {
	return fmt.Errorf("SKILL.md of %d bytes exceeds the limit of %d bytes (skill.MaxSkillFileBytes, 8 MiB)", size, skill.MaxSkillFileBytes)
}

// isSkillFileURI reports whether uri is the SKILL.md of some skill.
func isSkillFileURI(uri string) bool {
	name, ok := strings.CutSuffix(strings.TrimPrefix(uri, uriScheme), "/SKILL.md")
	return ok && strings.HasPrefix(uri, uriScheme) && skill.ValidBoundedName(name)
}

// messageLimit learns, for one request, that a response to it was cut off
// at MaxMessageBytes. The SDK reports a failed body read only as text, so
// the flag travels in the request's context to the body that trips, which
// also cancels the request: a cut-off event stream would otherwise leave
// the call waiting for a response until the SDK gives up reconnecting.
type messageLimit struct {
	hit    atomic.Bool
	cancel context.CancelFunc
}

type messageLimitKey struct{}

// withMessageLimit returns a context for one request, whose cancel function
// the caller must call, and the limit that records a cut-off response.
func withMessageLimit(ctx context.Context) (context.Context, *messageLimit, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	lim := &messageLimit{cancel: cancel}
	return context.WithValue(ctx, messageLimitKey{}, lim), lim, cancel
}

func (l *messageLimit) exceeded() bool { return l != nil && l.hit.Load() }

// boundedTransport bounds the body of every response at MaxMessageBytes per
// message.
type boundedTransport struct {
	base http.RoundTripper
}

func (t boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	lim, _ := req.Context().Value(messageLimitKey{}).(*messageLimit)
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	resp.Body = &boundedBody{rc: resp.Body, max: MaxMessageBytes, stream: ct == "text/event-stream", lineEmpty: true, lim: lim}
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
	for i, c := range p[:k] {
		b.n++
		if b.n > b.max {
			return b.cut(i)
		}
		switch c {
		case '\n':
			if b.lineEmpty {
				b.n = 0 // an empty line ends the event
			}
			b.lineEmpty = true
		case '\r':
		default:
			b.lineEmpty = false
		}
	}
	return k, err
}

// cut records that the bound was exceeded after the first fit bytes of the
// last read, hands those over, and fails this or the next Read.
func (b *boundedBody) cut(fit int) (int, error) {
	b.err = errMessageTooLarge
	if b.lim != nil {
		b.lim.hit.Store(true)
		b.lim.cancel()
	}
	if fit == 0 {
		return 0, b.err
	}
	return fit, nil
}

func (b *boundedBody) Close() error { return b.rc.Close() }
