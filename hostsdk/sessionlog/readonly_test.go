package sessionlog_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// TestParseFileLogReadsWhatOpenFileKeeps: the events ParseFileLog reads
// from a file are those a FileLog reads back, with the same visibility; a
// torn last line is left out, and the file is not changed.
func TestParseFileLogReadsWhatOpenFileKeeps(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	log, _, err := sessionlog.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs := []sessionlog.Record{
		{Type: "message", Source: []byte(`{"kind":"skill-catalog","form":"catalog","entries":[]}`), Body: []byte(`{"role":"user"}`)},
		{Type: "message", Source: []byte("not JSON"), Body: []byte(`{"role":"assistant"}`)},
		{Type: "compaction", Body: []byte(`{"summary":"s"}`), Hide: &sessionlog.Range{From: 1, To: 1}},
	}
	for _, r := range recs {
		if _, err := log.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := log.Append(ctx, recs[1], recs[1]); err != nil { // one Append of two lines
		t.Fatal(err)
	}
	page, err := log.ReadBackward(ctx, 0, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":6,"type":"message","more":true,"body":{}}` + "\n" + `{"seq":7,"type":"mess`) // an unfinished Append
	f.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := sessionlog.ParseFileLog(data)
	if len(got) != len(page.Events) {
		t.Fatalf("ParseFileLog read %d events, the log %d", len(got), len(page.Events))
	}
	for i, ev := range got {
		want := page.Events[len(page.Events)-1-i]
		if ev.Seq != want.Seq || ev.Type != want.Type || ev.Visible != want.Visible || !bytes.Equal(ev.Source, want.Source) || !bytes.Equal(ev.Body, want.Body) {
			t.Errorf("event %d: %+v, the log read %+v", i, ev, want)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Error("ParseFileLog changed the file")
	}
}

// FuzzParseFileLog: any bytes read without a panic, as events numbered
// densely from 1.
func FuzzParseFileLog(f *testing.F) {
	f.Add([]byte(`{"seq":1,"type":"message","body":{}}` + "\n"))
	f.Add([]byte(`{"seq":1,"type":"compaction","body":{},"hide":{"from":1,"to":1}}` + "\n" + `x` + "\n"))
	f.Add([]byte(`{"seq":1,"type":"message","more":true,"sourceB64":"AA==","body":{}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, ev := range sessionlog.ParseFileLog(data) {
			if ev.Seq != uint64(i+1) {
				t.Fatalf("event %d has seq %d", i, ev.Seq)
			}
		}
	})
}
