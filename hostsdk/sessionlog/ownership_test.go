package sessionlog_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// TestCompactBodyIsTakenAtItsWord: a body marked BodyCompactJSON is not
// scanned by Validate (it is its writer's promise), and a FileLog embeds
// it in its line as it is; unmarked, the same bytes are still refused.
func TestCompactBodyIsTakenAtItsWord(t *testing.T) {
	notJSON := sessionlog.Record{Type: "message", Body: []byte(`{"unterminated"`)}
	if err := notJSON.Validate(1); !errors.Is(err, sessionlog.ErrInvalidRecord) {
		t.Errorf("an unmarked body that is not JSON: Validate = %v, want ErrInvalidRecord", err)
	}
	notJSON.BodyCompactJSON = true
	if err := notJSON.Validate(1); err != nil {
		t.Errorf("a marked body: Validate = %v, want nil (not scanned)", err)
	}

	path := filepath.Join(t.TempDir(), "s.jsonl")
	l, _ := mustOpen(t, path)
	body := []byte(`{"id":"m","text":"a \u003cb\u003e"}`)
	mustAppend(t, l, sessionlog.Record{Type: "message", Body: body, BodyCompactJSON: true})
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"seq":1,"type":"message","body":` + string(body) + "}\n"; string(got) != want {
		t.Errorf("file = %s, want %s", got, want)
	}
	if evs := readAll(t, l); len(evs) != 1 || !bytes.Equal(evs[0].Body, body) {
		t.Errorf("read back %+v", evs)
	}
}

// TestLogsShareWhatTheyAreHanded: the memory log and a FileLog's tail keep
// the slices of an appended record and hand them to readers without
// copying, as Log documents; a read allocates no copy of a large body.
func TestLogsShareWhatTheyAreHanded(t *testing.T) {
	big := append(append([]byte(`{"text":"`), bytes.Repeat([]byte("x"), 1<<20)...), `"}`...)
	small := []byte(`{"text":"x"}`)
	file, _ := mustOpen(t, filepath.Join(t.TempDir(), "s.jsonl"))
	for name, l := range map[string]sessionlog.Log{"memory": sessionlog.NewMemory(), "file": file} {
		t.Run(name, func(t *testing.T) {
			rec := sessionlog.Record{Type: "message", Source: []byte(`{"kind":"k"}`), Body: small}
			if name == "memory" {
				rec.Body = big
			}
			mustAppend(t, l, rec)
			evs := readAll(t, l)
			if &evs[0].Body[0] != &rec.Body[0] || &evs[0].Source[0] != &rec.Source[0] {
				t.Errorf("the event read back is a copy of the record appended")
			}
			allocs := testing.AllocsPerRun(10, func() {
				if _, err := l.ReadBackward(ctx, 0, 0, 1); err != nil {
					t.Fatal(err)
				}
			})
			if allocs > 1 {
				t.Errorf("a read of one event makes %v allocations, want only the page's", allocs)
			}
		})
	}
}
