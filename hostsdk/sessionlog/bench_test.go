package sessionlog_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

func benchRecord(i int) sessionlog.Record {
	return sessionlog.Record{
		Type:   "message",
		Source: []byte(`{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a-skill","description":"d"}]}`),
		Body:   []byte(fmt.Sprintf(`{"role":"user","content":"benchmark message number %d with some ordinary text in it"}`, i)),
	}
}

// BenchmarkFileAppend measures acknowledged appends: each one is written
// and fsync'ed before it returns. "catalog" is one record the size of a
// skill catalog of 1,000 skills (a source and a body of 125 KB each).
func BenchmarkFileAppend(b *testing.B) {
	for _, kind := range []string{"records=1", "records=16", "catalog"} {
		b.Run(kind, func(b *testing.B) {
			l, _, err := sessionlog.OpenFile(filepath.Join(b.TempDir(), "s.jsonl"))
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			var recs []sessionlog.Record
			switch kind {
			case "catalog":
				text := strings.Repeat("x", 125_000)
				recs = []sessionlog.Record{{Type: sessionlog.TypeMessage,
					Source: []byte(`{"kind":"skill-catalog","text":"` + text + `"}`),
					Body:   []byte(`{"id":"c","role":"user","content":[{"type":"text","text":"` + text + `"}]}`)}}
			case "records=16":
				recs = make([]sessionlog.Record, 16)
			default:
				recs = make([]sessionlog.Record, 1)
			}
			for i := range recs {
				if recs[i].Type == "" {
					recs[i] = benchRecord(i)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := l.Append(ctx, recs...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
		})
	}
}

// buildLog writes n events, a compaction every 1000, and reopens the file
// so that the index is the one the open scan builds.
func buildLog(b *testing.B, n int) *sessionlog.FileLog {
	b.Helper()
	path := filepath.Join(b.TempDir(), "s.jsonl")
	l, _, err := sessionlog.OpenFile(path)
	if err != nil {
		b.Fatal(err)
	}
	const batch = 10000
	recs := make([]sessionlog.Record, 0, batch)
	for seq := 1; seq <= n; seq++ {
		r := benchRecord(seq)
		if seq%1000 == 0 {
			r = sessionlog.Record{Type: "compaction", Body: []byte(`{"summary":"s"}`), Hide: &sessionlog.Range{From: uint64(seq - 900), To: uint64(seq - 500)}}
		}
		recs = append(recs, r)
		if len(recs) == batch || seq == n {
			if _, err := l.Append(ctx, recs...); err != nil {
				b.Fatal(err)
			}
			recs = recs[:0]
		}
	}
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	l, _, err = sessionlog.OpenFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = l.Close() })
	return l
}

var benchSizes = []int{1_000, 100_000, 1_000_000}

// BenchmarkFileReadBackward reads one 64-event page at the head, and one in
// the middle, of logs of different lengths: the cost must not grow with
// the log.
func BenchmarkFileReadBackward(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			l := buildLog(b, n)
			for _, at := range []struct {
				name   string
				before uint64
			}{{"head", 0}, {"middle", uint64(n/2 + 100)}} {
				b.Run(at.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						p, err := l.ReadBackward(ctx, at.before, 0, 64)
						if err != nil || len(p.Events) != 64 {
							b.Fatalf("ReadBackward: %d events, %v", len(p.Events), err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkOpenFile measures the open scan, which is linear in the file.
func BenchmarkOpenFile(b *testing.B) {
	l := buildLog(b, 100_000)
	path := l.Path()
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		l, _, err := sessionlog.OpenFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*100_000/b.Elapsed().Seconds(), "events/s")
}

// longRecord is a message of about size bytes, like a published skill
// catalog: a small source and a body listing many skills.
func longRecord(size int) sessionlog.Record {
	body := []byte(`{"role":"system","skills":[`)
	for i := 0; len(body) < size-100; i++ {
		if i > 0 {
			body = append(body, ',')
		}
		body = fmt.Appendf(body, `{"name":"skill-%05d","description":"Handles task family %d: reads the inputs and checks them against the house rules."}`, i, i)
	}
	body = append(body, "]}"...)
	return sessionlog.Record{
		Type:   "message",
		Source: []byte(`{"kind":"skill-catalog","form":"catalog","revision":7}`),
		Body:   body,
	}
}

// BenchmarkFileReadLongRecord reads back a record much larger than a read
// chunk, as a host does at the step after a catalog was published:
// "newest", the record was just appended and is read as the newest event;
// "behind", one small event followed it and both are read; "old", it is
// read after enough small events that the log no longer remembers where it
// starts; "reopened", it is the newest event of a log just opened. The
// bytes read back are the record's; B/op should stay near its size.
func BenchmarkFileReadLongRecord(b *testing.B) {
	for _, size := range []int{250 << 10, 2400 << 10} {
		rec := longRecord(size)
		small := benchRecord(0)
		for _, tc := range []struct {
			name  string
			after int // small events appended after the record
			open  bool
		}{{"newest", 0, false}, {"behind", 1, false}, {"old", 40, false}, {"reopened", 0, true}} {
			b.Run(fmt.Sprintf("size=%dKiB/%s", size>>10, tc.name), func(b *testing.B) {
				path := filepath.Join(b.TempDir(), "s.jsonl")
				l, _, err := sessionlog.OpenFile(path)
				if err != nil {
					b.Fatal(err)
				}
				defer func() { _ = l.Close() }()
				for i := range 100 {
					if _, err := l.Append(ctx, benchRecord(i)); err != nil {
						b.Fatal(err)
					}
				}
				h, err := l.Append(ctx, rec)
				if err != nil {
					b.Fatal(err)
				}
				seq := h.Seq
				for range tc.after {
					if _, err := l.Append(ctx, small); err != nil {
						b.Fatal(err)
					}
				}
				if tc.open {
					if err := l.Close(); err != nil {
						b.Fatal(err)
					}
					if l, _, err = sessionlog.OpenFile(path); err != nil {
						b.Fatal(err)
					}
				}
				before, want := seq+1, 1
				if tc.after <= 1 {
					before, want = 0, 1+tc.after // a read up to the head
				}
				b.ReportAllocs()
				for b.Loop() {
					p, err := l.ReadBackward(ctx, before, seq-1, 64)
					if err != nil || len(p.Events) != want || len(p.Events[want-1].Body) != len(rec.Body) {
						b.Fatalf("ReadBackward: %d events, %v", len(p.Events), err)
					}
				}
				b.ReportMetric(float64(len(rec.Body)), "record-B")
			})
		}
	}
}
