// Package logtest is the conformance suite for sessionlog.Log and
// sessionlog.Store implementations. An implementation backed by another
// store (a SQL database, a replicated log) passes the same suite as the
// in-memory and file-backed logs:
//
//	func TestConformance(t *testing.T) {
//		logtest.Run(t, func(t *testing.T) sessionlog.Log { return newEmptyLog(t) })
//	}
package logtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// Run runs the Log conformance suite. open must return a new, empty log
// each time it is called; Run closes every log it opens.
func Run(t *testing.T, open func(t *testing.T) sessionlog.Log) {
	t.Helper()
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, l sessionlog.Log)
	}{
		{"Empty", testEmpty},
		{"AppendAndRead", testAppendAndRead},
		{"Paging", testPaging},
		{"Bounds", testBounds},
		{"ManyEvents", testManyEvents},
		{"LargeRecords", testLargeRecords},
		{"Visibility", testVisibility},
		{"InvalidRecords", testInvalidRecords},
		{"SourceVerbatim", testSourceVerbatim},
		{"BodyVerbatim", testBodyVerbatim},
		{"NeverModifies", testNeverModifies},
		{"ContextCancelled", testContextCancelled},
		{"BadMax", testBadMax},
		{"Concurrent", testConcurrent},
		{"AppendIf", testAppendIf},
		{"AppendIfConcurrent", testAppendIfConcurrent},
		{"Closed", testClosed},
		{"TypeSeeker", testTypeSeeker},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := open(t)
			t.Cleanup(func() { _ = l.Close() })
			tc.fn(t, l)
		})
	}
}

// model is the reference behaviour the suite compares against.
type model struct{ recs []sessionlog.Record }

func (m *model) append(recs ...sessionlog.Record) {
	for _, r := range recs {
		r.Source = clone(r.Source)
		r.Body = clone(r.Body)
		if r.Hide != nil {
			h := *r.Hide
			r.Hide = &h
		}
		m.recs = append(m.recs, r)
	}
}

func (m *model) head() sessionlog.Head {
	h := sessionlog.Head{Seq: uint64(len(m.recs))}
	for _, r := range m.recs {
		if r.Hide != nil {
			h.SurfaceRevision++
		}
	}
	return h
}

func (m *model) visible(seq uint64) bool {
	for _, r := range m.recs[seq:] {
		if r.Hide != nil && r.Hide.From <= seq && seq <= r.Hide.To {
			return false
		}
	}
	return true
}

func (m *model) page(before, after uint64, limit int) sessionlog.Page {
	p := sessionlog.Page{Head: m.head()}
	seq := p.Head.Seq
	if before != 0 && before-1 < seq {
		seq = before - 1
	}
	for ; seq > after && len(p.Events) < limit; seq-- {
		r := m.recs[seq-1]
		p.Events = append(p.Events, sessionlog.Event{
			Seq: seq, Type: r.Type, Source: r.Source, Body: r.Body, Visible: m.visible(seq),
		})
	}
	p.More = seq > after
	return p
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// diffBytes describes how got differs from want, including nil versus
// empty, or returns "".
func diffBytes(field string, got, want []byte) string {
	if (got == nil) != (want == nil) || !bytes.Equal(got, want) {
		return fmt.Sprintf("%s = %s, want %s", field, showBytes(got), showBytes(want))
	}
	return ""
}

func showBytes(b []byte) string {
	if b == nil {
		return "nil"
	}
	return fmt.Sprintf("%q", b)
}

func diffEvent(got, want sessionlog.Event) []string {
	var d []string
	if got.Seq != want.Seq {
		d = append(d, fmt.Sprintf("Seq = %d, want %d", got.Seq, want.Seq))
	}
	if got.Type != want.Type {
		d = append(d, fmt.Sprintf("Type = %q, want %q", got.Type, want.Type))
	}
	if got.Visible != want.Visible {
		d = append(d, fmt.Sprintf("Visible = %v, want %v", got.Visible, want.Visible))
	}
	for _, s := range []string{
		diffBytes("Source", got.Source, want.Source),
		diffBytes("Body", got.Body, want.Body),
		diffBytes("Raw", got.Raw, want.Raw),
	} {
		if s != "" {
			d = append(d, s)
		}
	}
	return d
}

// checkPage compares one ReadBackward result with the model.
func checkPage(t *testing.T, l sessionlog.Log, m *model, before, after uint64, limit int) sessionlog.Page {
	t.Helper()
	got, err := l.ReadBackward(context.Background(), before, after, limit)
	if err != nil {
		t.Fatalf("ReadBackward(%d, %d, %d): %v", before, after, limit, err)
	}
	want := m.page(before, after, limit)
	where := fmt.Sprintf("ReadBackward(before=%d, after=%d, max=%d)", before, after, limit)
	if got.Head != want.Head {
		t.Errorf("%s: Head = %+v, want %+v", where, got.Head, want.Head)
	}
	if got.More != want.More {
		t.Errorf("%s: More = %v, want %v", where, got.More, want.More)
	}
	if len(got.Events) != len(want.Events) {
		t.Fatalf("%s: %d events %v, want %d %v", where, len(got.Events), seqs(got.Events), len(want.Events), seqs(want.Events))
	}
	for i := range got.Events {
		if d := diffEvent(got.Events[i], want.Events[i]); d != nil {
			t.Errorf("%s: event %d (seq %d): %s", where, i, want.Events[i].Seq, strings.Join(d, "; "))
		}
	}
	return got
}

func seqs(evs []sessionlog.Event) []uint64 {
	s := make([]uint64, len(evs))
	for i, e := range evs {
		s[i] = e.Seq
	}
	return s
}

// checkAll compares the whole log, read one page at a time, with the model.
func checkAll(t *testing.T, l sessionlog.Log, m *model, pageSize int) {
	t.Helper()
	before := uint64(0)
	for {
		p := checkPage(t, l, m, before, 0, pageSize)
		if !p.More {
			return
		}
		before = p.Events[len(p.Events)-1].Seq
	}
}

func appendOK(t *testing.T, l sessionlog.Log, m *model, recs ...sessionlog.Record) sessionlog.Head {
	t.Helper()
	h, err := l.Append(context.Background(), recs...)
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	m.append(recs...)
	if want := m.head(); h != want {
		t.Fatalf("Append returned head %+v, want %+v", h, want)
	}
	return h
}

func checkHead(t *testing.T, l sessionlog.Log, m *model) {
	t.Helper()
	h, err := l.Head(context.Background())
	if err != nil {
		t.Fatalf("Head: %v", err)
	}
	if want := m.head(); h != want {
		t.Fatalf("Head = %+v, want %+v", h, want)
	}
}

func msg(i int) sessionlog.Record {
	return sessionlog.Record{
		Type:   "message",
		Source: []byte(fmt.Sprintf(`{"kind":"test","n":%d}`, i)),
		Body:   []byte(fmt.Sprintf(`{"role":"user","content":"message %d"}`, i)),
	}
}

func compaction(from, to uint64) sessionlog.Record {
	return sessionlog.Record{
		Type: "compaction",
		Body: []byte(fmt.Sprintf(`{"summary":"hides %d..%d"}`, from, to)),
		Hide: &sessionlog.Range{From: from, To: to},
	}
}

func testEmpty(t *testing.T, l sessionlog.Log) {
	m := &model{}
	checkHead(t, l, m)
	checkPage(t, l, m, 0, 0, 1)
	checkPage(t, l, m, 5, 2, 10)
	h, err := l.Append(context.Background())
	if err != nil || h != (sessionlog.Head{}) {
		t.Fatalf("Append() with no records = %+v, %v; want zero head, nil", h, err)
	}
	checkHead(t, l, m)
}

func testAppendAndRead(t *testing.T, l sessionlog.Log) {
	m := &model{}
	appendOK(t, l, m, msg(1))
	checkHead(t, l, m)
	checkAll(t, l, m, 10)
	// One call, several records: dense seqs, head names the last.
	appendOK(t, l, m, msg(2), msg(3), msg(4))
	appendOK(t, l, m, sessionlog.Record{Type: "note"}) // no source, no body
	checkHead(t, l, m)
	checkAll(t, l, m, 10)
}

func testPaging(t *testing.T, l sessionlog.Log) {
	m := &model{}
	for i := 1; i <= 10; i += 2 {
		appendOK(t, l, m, msg(i), msg(i+1))
	}
	for _, size := range []int{1, 3, 4, 9, 10, 11, 100} {
		checkAll(t, l, m, size)
	}
	p := checkPage(t, l, m, 0, 0, 3)
	if got := seqs(p.Events); len(got) != 3 || got[0] != 10 || !p.More {
		t.Fatalf("first page of 3 = %v More=%v, want [10 9 8] More=true", got, p.More)
	}
	p = checkPage(t, l, m, 0, 0, 10)
	if p.More {
		t.Fatalf("a page holding exactly every event reports More")
	}
}

func testBounds(t *testing.T, l sessionlog.Log) {
	m := &model{}
	for i := 1; i <= 10; i++ {
		appendOK(t, l, m, msg(i))
	}
	for _, c := range []struct {
		before, after uint64
		limit         int
	}{
		{6, 2, 10}, {6, 2, 3}, {6, 2, 2}, {6, 4, 10}, {6, 5, 10}, {6, 6, 10}, {6, 9, 10},
		{1, 0, 10}, {2, 0, 10}, {11, 0, 10}, {12, 0, 3}, {100, 0, 10}, {0, 10, 10},
		{0, 9, 10}, {0, 100, 10}, {3, 3, 1}, {10, 0, 9}, {10, 1, 8}, {0, 1, 9},
	} {
		checkPage(t, l, m, c.before, c.after, c.limit)
	}
}

func testManyEvents(t *testing.T, l sessionlog.Log) {
	m := &model{}
	// Enough events, in few calls, to cross any index or chunk boundary an
	// implementation is likely to have.
	const n = 1300
	for start := 1; start <= n; start += 325 {
		var batch []sessionlog.Record
		for i := start; i < start+325; i++ {
			if i%97 == 0 {
				batch = append(batch, compaction(uint64(i-40), uint64(i-30)))
			} else {
				batch = append(batch, msg(i))
			}
		}
		appendOK(t, l, m, batch...)
	}
	for _, c := range []struct {
		before, after uint64
		limit         int
	}{
		{0, 0, 64}, {0, 1200, 200}, {257, 0, 3}, {256, 0, 1}, {258, 250, 64},
		{513, 255, 300}, {1000, 0, 64}, {769, 767, 5}, {2, 0, 5}, {1301, 1299, 5},
	} {
		checkPage(t, l, m, c.before, c.after, c.limit)
	}
	checkAll(t, l, m, 500)
}

func testLargeRecords(t *testing.T, l sessionlog.Log) {
	m := &model{}
	big := func(n int, c byte) []byte {
		return []byte(`{"text":"` + strings.Repeat(string(c), n) + `"}`)
	}
	appendOK(t, l, m, msg(1))
	appendOK(t, l, m, sessionlog.Record{Type: "message", Body: big(200<<10, 'a')})
	appendOK(t, l, m, msg(3), sessionlog.Record{Type: "message", Source: bytes.Repeat([]byte("x\n"), 70<<10), Body: big(1, 'b')}, msg(5))
	appendOK(t, l, m, sessionlog.Record{Type: "message", Body: big(65535, 'c')})
	appendOK(t, l, m, msg(7))
	for _, size := range []int{1, 2, 7} {
		checkAll(t, l, m, size)
	}
	checkPage(t, l, m, 6, 1, 2)
}

func testVisibility(t *testing.T, l sessionlog.Log) {
	m := &model{}
	for i := 1; i <= 5; i++ {
		appendOK(t, l, m, msg(i))
	}
	checkAll(t, l, m, 10)

	h := appendOK(t, l, m, compaction(2, 3)) // seq 6
	if h.SurfaceRevision != 1 {
		t.Fatalf("SurfaceRevision after one compaction = %d, want 1", h.SurfaceRevision)
	}
	checkAll(t, l, m, 10)
	if m.visible(2) || m.visible(3) || !m.visible(4) {
		t.Fatal("model disagrees with the suite's own expectations")
	}

	// Overlapping and adjacent ranges merge; a compaction can be hidden.
	appendOK(t, l, m, compaction(3, 4)) // seq 7
	appendOK(t, l, m, msg(8))
	appendOK(t, l, m, compaction(6, 6)) // seq 9 hides the first compaction
	checkHead(t, l, m)
	checkAll(t, l, m, 3)

	// In one call, a compaction may hide a record appended before it in the
	// same call.
	h = appendOK(t, l, m, msg(10), compaction(10, 10), msg(12))
	if h.SurfaceRevision != 4 {
		t.Fatalf("SurfaceRevision after four compactions = %d, want 4", h.SurfaceRevision)
	}
	// A range that is already hidden still counts as a surface change.
	h = appendOK(t, l, m, compaction(2, 2))
	if h.SurfaceRevision != 5 {
		t.Fatalf("SurfaceRevision = %d, want 5", h.SurfaceRevision)
	}
	appendOK(t, l, m, msg(14))
	if h := appendOK(t, l, m, msg(15)); h.SurfaceRevision != 5 {
		t.Fatalf("a plain append changed SurfaceRevision to %d", h.SurfaceRevision)
	}
	checkAll(t, l, m, 4)
	checkPage(t, l, m, 8, 1, 10)
}

func testInvalidRecords(t *testing.T, l sessionlog.Log) {
	m := &model{}
	appendOK(t, l, m, msg(1), msg(2), msg(3))
	for _, c := range []struct {
		name string
		recs []sessionlog.Record
	}{
		{"empty type", []sessionlog.Record{{Body: []byte(`{}`)}}},
		{"type not UTF-8", []sessionlog.Record{{Type: "bad\xff"}}},
		{"body not JSON", []sessionlog.Record{{Type: "message", Body: []byte(`{bad`)}}},
		{"body empty", []sessionlog.Record{{Type: "message", Body: []byte{}}}},
		{"body two values", []sessionlog.Record{{Type: "message", Body: []byte(`{} {}`)}}},
		{"hide from zero", []sessionlog.Record{compaction(0, 2)}},
		{"hide reversed", []sessionlog.Record{compaction(3, 2)}},
		{"hide itself", []sessionlog.Record{compaction(2, 4)}},
		{"hide the future", []sessionlog.Record{compaction(1, 9)}},
		{"hide a later record of the same call", []sessionlog.Record{compaction(1, 5), msg(5)}},
		{"one bad record rejects the call", []sessionlog.Record{msg(4), msg(5), {Type: "message", Body: []byte(`nope`)}}},
	} {
		h, err := l.Append(context.Background(), c.recs...)
		if err == nil {
			t.Errorf("%s: Append succeeded with head %+v, want an error", c.name, h)
			continue
		}
		if !errors.Is(err, sessionlog.ErrInvalidRecord) {
			t.Errorf("%s: error %v does not wrap ErrInvalidRecord", c.name, err)
		}
		checkHead(t, l, m)
	}
	appendOK(t, l, m, msg(4), compaction(1, 4))
	checkAll(t, l, m, 10)
}

// sources are message sources that must come back byte-for-byte.
var sources = [][]byte{
	nil,
	[]byte(`{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a-skill","description":"x"}]}`),
	[]byte(`{ "spaced" : [ 1 , 2 ] }`),
	[]byte("{\n  \"pretty\": true\n}\n"),
	[]byte("  [1,2]\t"),
	[]byte(`{not json`),
	[]byte(`{"entries": [null]`),
	{},
	[]byte("\xff\xfe not UTF-8 \xc3"),
	[]byte(`"just a string"`),
	[]byte(`null`),
	[]byte("line1\r\nline2"),
	[]byte("\x00\x01\x1f controls \x7f"),
	[]byte(`<available_skills>&amp; "quoted" \ backslash</available_skills>`),
	[]byte("\u2028 separators \u2029 and é"),
	[]byte(`{"a":1}{"b":2}`),
	[]byte(`{"a":"\u0041\n"}`),
	[]byte("\n"),
}

func testSourceVerbatim(t *testing.T, l sessionlog.Log) {
	m := &model{}
	var batch []sessionlog.Record
	for i, s := range sources {
		r := sessionlog.Record{Type: "message", Source: s, Body: []byte(fmt.Sprintf(`{"i":%d}`, i))}
		appendOK(t, l, m, r)
		batch = append(batch, r)
	}
	appendOK(t, l, m, batch...)
	checkAll(t, l, m, 5)
}

func testBodyVerbatim(t *testing.T, l sessionlog.Log) {
	m := &model{}
	for _, b := range [][]byte{
		nil,
		[]byte(`{"role":"user","content":"hi"}`),
		[]byte("{\n \"a\": [1, 2]\n}"),
		[]byte(" 42 "),
		[]byte(`"str"`),
		[]byte(`null`),
		[]byte(`[]`),
		[]byte(`"é <tag> & \u00e9"`),
		[]byte("\t{\"tabbed\":true}\r\n"),
		[]byte(`{"a":"\ud83d\ude00","b":1e400}`),
	} {
		appendOK(t, l, m, sessionlog.Record{Type: "message", Source: []byte(`{}`), Body: b})
	}
	checkAll(t, l, m, 3)
}

// testNeverModifies: the log leaves the slices it is handed and the ones
// it returns as they are (Log lets it keep and share them, so it must not
// write into them), and reading twice returns the same bytes.
func testNeverModifies(t *testing.T, l sessionlog.Log) {
	m := &model{}
	src := []byte(`{"kind":"test"}`)
	body := []byte(`{"content":"original"}`)
	appendOK(t, l, m, sessionlog.Record{Type: "message", Source: src, Body: body})
	appendOK(t, l, m, msg(2))
	p := checkPage(t, l, m, 0, 0, 2)
	checkPage(t, l, m, 0, 0, 2)
	if string(src) != `{"kind":"test"}` || string(body) != `{"content":"original"}` {
		t.Errorf("the log changed the record it was handed: source %s, body %s", src, body)
	}
	if string(p.Events[1].Source) != `{"kind":"test"}` || string(p.Events[1].Body) != `{"content":"original"}` {
		t.Errorf("a later read changed an event read before: source %s, body %s", p.Events[1].Source, p.Events[1].Body)
	}
}

func testContextCancelled(t *testing.T, l sessionlog.Log) {
	m := &model{}
	appendOK(t, l, m, msg(1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Append(ctx, msg(2)); !errors.Is(err, context.Canceled) {
		t.Errorf("Append with a cancelled context: error %v, want context.Canceled", err)
	}
	if _, err := l.ReadBackward(ctx, 0, 0, 10); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadBackward with a cancelled context: error %v, want context.Canceled", err)
	}
	if _, err := l.Head(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Head with a cancelled context: error %v, want context.Canceled", err)
	}
	checkHead(t, l, m)
	checkAll(t, l, m, 10)
}

func testBadMax(t *testing.T, l sessionlog.Log) {
	m := &model{}
	appendOK(t, l, m, msg(1))
	for _, limit := range []int{0, -1} {
		if _, err := l.ReadBackward(context.Background(), 0, 0, limit); err == nil {
			t.Errorf("ReadBackward with max %d succeeded, want an error", limit)
		}
	}
}

func testConcurrent(t *testing.T, l sessionlog.Log) {
	const writers, perWriter = 4, 12
	var wg sync.WaitGroup
	errs := make(chan error, writers*perWriter+writers)
	stop := make(chan struct{})
	// Readers check that every page they see is dense and consistent.
	var readers sync.WaitGroup
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			readConcurrently(l, stop, errs)
		}()
	}
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			appendConcurrently(l, w, perWriter, errs)
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkConcurrentAppends(t, l, writers, perWriter)
}

// readConcurrently reads the newest page until stop, checking each.
func readConcurrently(l sessionlog.Log, stop <-chan struct{}, errs chan<- error) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		p, err := l.ReadBackward(context.Background(), 0, 0, 5)
		if err != nil {
			errs <- fmt.Errorf("concurrent ReadBackward: %w", err)
			return
		}
		for i, e := range p.Events {
			if e.Seq != p.Head.Seq-uint64(i) {
				errs <- fmt.Errorf("concurrent page with head %d has seqs %v", p.Head.Seq, seqs(p.Events))
				return
			}
		}
	}
}

// appendConcurrently makes writer w's n appends: one record each, two at
// odd steps.
func appendConcurrently(l sessionlog.Log, w, n int, errs chan<- error) {
	var last uint64
	for i := range n {
		// Odd steps append two records that must stay adjacent.
		recs := []sessionlog.Record{{Type: "message", Body: []byte(fmt.Sprintf(`{"w":%d,"i":%d,"part":0}`, w, i))}}
		if i%2 == 1 {
			recs = append(recs, sessionlog.Record{Type: "message", Body: []byte(fmt.Sprintf(`{"w":%d,"i":%d,"part":1}`, w, i))})
		}
		h, err := l.Append(context.Background(), recs...)
		if err != nil {
			errs <- fmt.Errorf("concurrent Append: %w", err)
			return
		}
		if h.Seq <= last {
			errs <- fmt.Errorf("writer %d: head went from %d to %d", w, last, h.Seq)
		}
		last = h.Seq
	}
}

// checkConcurrentAppends checks that every writer's records are in the
// log, in its order, the two of one Append adjacent.
func checkConcurrentAppends(t *testing.T, l sessionlog.Log, writers, perWriter int) {
	ctx := context.Background()
	perWriterRecords := perWriter + perWriter/2
	total := uint64(writers * perWriterRecords)
	h, err := l.Head(ctx)
	if err != nil || h.Seq != total {
		t.Fatalf("Head after concurrent appends = %+v, %v; want seq %d", h, err, total)
	}
	p, err := l.ReadBackward(ctx, 0, 0, int(total)+1)
	if err != nil {
		t.Fatalf("ReadBackward: %v", err)
	}
	if len(p.Events) != int(total) || p.More {
		t.Fatalf("read %d events (More=%v), want %d", len(p.Events), p.More, total)
	}
	seen := make(map[string]uint64)
	for _, e := range p.Events {
		seen[string(e.Body)] = e.Seq
	}
	for w := range writers {
		prev := uint64(0)
		for i := range perWriter {
			first, ok := seen[fmt.Sprintf(`{"w":%d,"i":%d,"part":0}`, w, i)]
			if !ok {
				t.Fatalf("writer %d record %d is missing", w, i)
			}
			if first <= prev {
				t.Errorf("writer %d record %d at seq %d, not after %d", w, i, first, prev)
			}
			prev = first
			if i%2 == 1 {
				second := seen[fmt.Sprintf(`{"w":%d,"i":%d,"part":1}`, w, i)]
				if second != first+1 {
					t.Errorf("writer %d step %d: records of one Append at seqs %d and %d, want adjacent", w, i, first, second)
				}
				prev = second
			}
		}
	}
}

func testClosed(t *testing.T, l sessionlog.Log) {
	m := &model{}
	appendOK(t, l, m, msg(1))
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	ctx := context.Background()
	if _, err := l.Append(ctx, msg(2)); !errors.Is(err, sessionlog.ErrClosed) {
		t.Errorf("Append after Close: error %v, want ErrClosed", err)
	}
	if _, err := l.AppendIf(ctx, 1, msg(2)); !errors.Is(err, sessionlog.ErrClosed) {
		t.Errorf("AppendIf after Close: error %v, want ErrClosed", err)
	}
	if _, err := l.ReadBackward(ctx, 0, 0, 1); !errors.Is(err, sessionlog.ErrClosed) {
		t.Errorf("ReadBackward after Close: error %v, want ErrClosed", err)
	}
	if _, err := l.Head(ctx); !errors.Is(err, sessionlog.ErrClosed) {
		t.Errorf("Head after Close: error %v, want ErrClosed", err)
	}
	_ = l.Close() // a second Close must not panic
}

// testTypeSeeker checks a log that implements sessionlog.TypeSeeker: every
// answer it gives (ok) names the newest event of the type as of the head it
// reports. Logs that do not implement it pass.
func testTypeSeeker(t *testing.T, l sessionlog.Log) {
	seeker, ok := l.(sessionlog.TypeSeeker)
	if !ok {
		t.Skip("the log does not implement sessionlog.TypeSeeker")
	}
	ctx := context.Background()
	m := &model{}
	check := func() {
		t.Helper()
		for _, typ := range []string{"message", "compaction", "rare", "absent"} {
			seq, head, ok, err := seeker.NewestOfType(ctx, typ)
			if err != nil {
				t.Fatalf("NewestOfType(%q): %v", typ, err)
			}
			if want := m.head(); head != want {
				t.Fatalf("NewestOfType(%q) reports head %+v, want %+v", typ, head, want)
			}
			var want uint64
			for i, r := range m.recs {
				if r.Type == typ {
					want = uint64(i + 1)
				}
			}
			if ok && seq != want {
				t.Fatalf("NewestOfType(%q) = %d, want %d", typ, seq, want)
			}
		}
	}
	check()
	appendOK(t, l, m, msg(1), sessionlog.Record{Type: "rare", Body: []byte(`{}`)}, msg(2))
	check()
	appendOK(t, l, m, compaction(1, 2))
	check()
	for i := 0; i < 300; i++ {
		appendOK(t, l, m, msg(i))
	}
	check()
	appendOK(t, l, m, sessionlog.Record{Type: "rare"})
	check()
}
