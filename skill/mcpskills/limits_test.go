package mcpskills

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// hostileBytes is what the oversized server tries to send: three times
// MaxMessageBytes, so that a client without the bound reads it all.
const hostileBytes = 3 * MaxMessageBytes

// sentBound is the most an oversized response may have been sent when the
// client stops at MaxMessageBytes: the bound plus what the kernel's socket
// buffers and the HTTP stacks' buffers accept before writes block.
const sentBound = MaxMessageBytes + 16<<20

func wantMessageLimitError(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("an oversized message was accepted")
	}
	msg := err.Error()
	if !strings.Contains(msg, "MaxMessageBytes") || !strings.Contains(msg, fmt.Sprint(MaxMessageBytes)) {
		t.Errorf("error %q does not name the MaxMessageBytes limit of %d bytes", msg, MaxMessageBytes)
	}
	checkNoSecrets(t, msg)
}

// A streamable HTTP server that sends an index or a body larger than
// MaxMessageBytes, as a JSON body or as an event, is cut off at the bound:
// the call fails with an error naming it, and the client stopped reading
// (the server could not send the whole response).
func TestHTTPOversizedMessageIsCutOff(t *testing.T) {
	for _, tc := range []struct {
		name string
		sse  bool
		body bool // the body is oversized, not the index
	}{
		{"index as JSON", false, false},
		{"index as event", true, false},
		{"body as JSON", false, true},
		{"body as event", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &mcpfake.Oversized{SSE: tc.sse, BodyBytes: 100}
			if tc.body {
				o.BodyBytes = hostileBytes
			} else {
				o.IndexBytes = hostileBytes
			}
			srv := httptest.NewServer(o)
			defer srv.Close()
			p, err := New(&Options{URL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()

			if tc.body {
				if obs := listSkills(t, p, "s1"); len(obs.Skills) != 1 {
					t.Fatalf("List = %+v", obs)
				}
				_, _, err = p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: mcpfake.OversizedSkill})
			} else {
				var obs skills.Observation
				obs, err = p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
				if obs.Complete {
					t.Errorf("List of an oversized index is complete")
				}
			}
			wantMessageLimitError(t, err)
			if tc.body {
				// The cut-off connection is replaced: a new session lists.
				if obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s2"}); err != nil || len(obs.Skills) != 1 {
					t.Errorf("List after a cut-off body = %+v, %v", obs, err)
				}
			}

			// Closing both ends waits for the server's handlers, so Sent is final.
			_ = p.Close()
			srv.Close()
			if sent := o.Sent(); sent > sentBound {
				t.Errorf("the server sent %d bytes of a %d-byte response: the client read past MaxMessageBytes (%d)", sent, hostileBytes, MaxMessageBytes)
			}
		})
	}
}

// A SKILL.md above skill.MaxSkillFileBytes (but within MaxMessageBytes) is
// refused with an error naming the bound, whether loaded as a skill or read
// as a resource, and never cached; one at the bound loads.
func TestSkillBodyBound(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int
		ok   bool
	}{
		{"at the bound", skill.MaxSkillFileBytes, true},
		{"one byte over", skill.MaxSkillFileBytes + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mcpfake.New()
			s.SetSkill("deploy", "Deploy.", "# Deploy\n"+strings.Repeat("x", tc.size-len("# Deploy\n")))
			h, err := s.ListenHTTP("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer h.Stop()
			// The bound is what is tested, not the time: under the race
			// detector moving 8 MiB through JSON takes much of the default
			// request timeout.
			p := newHTTPProvider(t, Options{URL: h.URL(), CacheMaxBytes: 64 << 20, RequestTimeout: 5 * time.Minute})

			def, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: "deploy"})
			if tc.ok {
				if err != nil || !found || len(def.Content) != tc.size {
					t.Fatalf("Load = %d bytes, %v, %v; want the whole %d-byte body", len(def.Content), found, err, tc.size)
				}
				return
			}
			for _, err := range []error{err, func() error {
				_, err := p.ReadResource(t.Context(), "s1", "deploy", SkillURI("deploy"))
				return err
			}()} {
				if err == nil {
					t.Fatalf("a %d-byte SKILL.md was accepted", tc.size)
				}

				if msg := err.Error(); !strings.Contains(msg, "skill.MaxSkillFileBytes") || !strings.Contains(msg, fmt.Sprint(skill.MaxSkillFileBytes)) || !strings.Contains(msg, fmt.Sprint(tc.size)) {
					t.Errorf("error %q does not name the size and the skill.MaxSkillFileBytes bound of %d bytes", msg, skill.MaxSkillFileBytes)
				}
			}
			wantReads(t, s, SkillURI("deploy"), 2)
		})
	}
}

// An initialize response above MaxMessageBytes fails the connection with an
// error naming the bound.
func TestHTTPOversizedInitializeIsCutOff(t *testing.T) {
	srv := httptest.NewServer(&mcpfake.Oversized{InitializeBytes: 2 * MaxMessageBytes})
	defer srv.Close()
	p := newHTTPProvider(t, Options{URL: srv.URL})
	_, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
	wantMessageLimitError(t, err)
}

// chunkReader returns its data in reads of at most size bytes.
type chunkReader struct {
	data []byte
	size int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.size)], r.data)
	r.data = r.data[n:]
	return n, nil
}

func (r *chunkReader) Close() error { return nil }

// readBounded reads everything a boundedBody of bound max hands over.
func readBounded(in string, max int64, stream bool, chunk int) (string, error) {
	b := &boundedBody{rc: &chunkReader{data: []byte(in), size: chunk}, max: max, stream: stream, lineEmpty: true}
	out, err := io.ReadAll(b)
	if err == nil {
		// The error is sticky only once reported; a clean end stays clean.
		return string(out), nil
	}
	if _, again := b.Read(make([]byte, 8)); again != err {
		return string(out), fmt.Errorf("Read after %v returned %v", err, again)
	}
	return string(out), err
}

func TestBoundedBody(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     string
		stream bool
		want   string // what is handed over
		cut    bool   // ends with errMessageTooLarge
	}{
		{"body at the bound", "0123456789", false, "0123456789", false},
		{"body one over", "0123456789x", false, "0123456789", true},
		{"empty body", "", false, "", false},
		// An event counts its lines, the empty line that ends it included.
		{"events each at the bound", "data:123\n\ndata:456\n\n", true, "data:123\n\ndata:456\n\n", false},
		{"stream of many small events", strings.Repeat("data:1\n\n", 20), true, strings.Repeat("data:1\n\n", 20), false},
		{"event one over", "data:123\n\ndata:1234\n\n", true, "data:123\n\ndata:1234\n", true},
		{"CRLF lines end events", "data:1\r\n\r\ndata:2\r\n\r\n", true, "data:1\r\n\r\ndata:2\r\n\r\n", false},
		{"a line of CRs is empty", "data:1\n\r\r\ndata:2\n\n", true, "data:1\n\r\r\ndata:2\n\n", false},
		{"bare CR ends no line", "data:1\r\rdata:2\n\n", true, "data:1\r\rda", true},
		{"long line without end", strings.Repeat("a", 25), true, "aaaaaaaaaa", true},
		{"blank lines count toward nothing", "\n\n\n\n\n\n\n\n\n\n\n\n", true, "\n\n\n\n\n\n\n\n\n\n\n\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, chunk := range []int{1, 3, 4096} {
				got, err := readBounded(tc.in, 10, tc.stream, chunk)
				if got != tc.want || (err != nil) != tc.cut || (err != nil && err != errMessageTooLarge) {
					t.Errorf("chunks of %d: handed over %q, %v; want %q, cut %v (bound 10 bytes)", chunk, got, err, tc.want, tc.cut)
				}
			}
		})
	}
}

// eventSizesWithin reports whether every event of an SSE stream, counted as
// the SDK counts it (bytes since the last line that is empty once CRs are
// trimmed, LF ending lines), is at most max bytes.
func eventSizesWithin(s string, max int) bool {
	n := 0
	for len(s) > 0 {
		line, rest, found := strings.Cut(s, "\n")
		if found {
			line += "\n"
		}
		n += len(line)
		if n > max {
			return false
		}
		if strings.TrimRight(line, "\r\n") == "" && found {
			n = 0
		}
		s = rest
	}
	return true
}

func FuzzBoundedBody(f *testing.F) {
	f.Add("data:1234\n\ndata:12345\n\n", true, uint8(3))
	f.Add("data:123\r\r\ndata:1\n\n", true, uint8(1))
	f.Add("0123456789x", false, uint8(7))
	f.Fuzz(func(t *testing.T, in string, stream bool, chunk uint8) {
		const max = 10
		got, err := readBounded(in, max, stream, int(chunk)%16+1)
		if err != nil && err != errMessageTooLarge {
			t.Fatal(err)
		}
		if !strings.HasPrefix(in, got) {
			t.Fatalf("handed over %q, not a prefix of the input %q", got, in)
		}
		within := len(in) <= max
		if stream {
			within = eventSizesWithin(in, max)
		}
		switch {
		case within && (err != nil || got != in):
			t.Fatalf("input within the bound of %d: handed over %q, %v", max, got, err)
		case !within && err == nil:
			t.Fatalf("input over the bound of %d handed over whole", max)
		case stream && !eventSizesWithin(got, max), !stream && len(got) > max:
			t.Fatalf("handed over %q, which exceeds the bound of %d", got, max)
		case !within && stream && eventSizesWithin(in[:len(got)+1], max):
			t.Fatalf("cut after %d bytes, before the event exceeded the bound of %d", len(got), max)
		}
	})
}
