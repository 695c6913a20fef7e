package sessionlog_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// A file store keeps each session in a file of its own, one event per
// line, under one directory. A compaction record hides earlier events from
// the surface without deleting them; a reader pages backwards from the
// newest event.
func ExampleNewFileStore() {
	dir, err := os.MkdirTemp("", "sessions")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sessionlog.NewFileStore(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	session, err := store.Open(ctx, "session-1")
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	_, err = session.Append(ctx,
		sessionlog.Record{Type: "message", Body: []byte(`{"role":"user","content":"Fill in the form."}`)},
		sessionlog.Record{Type: "message", Body: []byte(`{"role":"assistant","content":"Done."}`)},
	)
	if err != nil {
		log.Fatal(err)
	}
	head, err := session.Append(ctx, sessionlog.Record{Type: "compaction", Body: []byte(`{"summary":"A form was filled in."}`), Hide: &sessionlog.Range{From: 1, To: 2}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("head %d, surface revision %d\n", head.Seq, head.SurfaceRevision)

	page, err := session.ReadBackward(ctx, 0, 0, 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range page.Events {
		fmt.Println(e.Seq, e.Type, e.Visible, string(e.Body))
	}
	fmt.Println(filepath.Base(store.Path("session-1")))
	// Output:
	// head 3, surface revision 1
	// 3 compaction true {"summary":"A form was filled in."}
	// 2 message false {"role":"assistant","content":"Done."}
	// 1 message false {"role":"user","content":"Fill in the form."}
	// session-1.jsonl
}

// A memory store suits tests and hosts whose sessions need not outlive the
// process. AppendIf appends only while the head is where the caller read
// it, so two writers of one session cannot interleave unseen.
func ExampleNewMemoryStore() {
	ctx := context.Background()
	store := sessionlog.NewMemoryStore()
	session, err := store.Open(ctx, "session-1")
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	head, err := session.Head(ctx)
	if err != nil {
		log.Fatal(err)
	}
	msg := sessionlog.Record{Type: "message", Body: []byte(`{"role":"user","content":"Hello."}`)}
	if _, err := session.AppendIf(ctx, head.Seq, msg); err != nil {
		log.Fatal(err)
	}
	// A second writer that read the same head is refused.
	_, err = session.AppendIf(ctx, head.Seq, msg)
	var conflict *sessionlog.ConflictError
	if errors.As(err, &conflict) {
		fmt.Printf("expected head %d, log at %d: %v\n", conflict.Expected, conflict.Head.Seq, errors.Is(err, sessionlog.ErrConflict))
	}
	// Output:
	// expected head 0, log at 1: true
}
