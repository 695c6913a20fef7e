package events

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestRelevantRoundTrip(t *testing.T) {
	for _, r := range []Relevant{
		{Names: []string{"pdf-forms", "docs:a/b"}, For: "u7"},
		{Names: []string{"<x>&"}, For: ""},
		{Names: nil, For: "u1"},
	} {
		src := EncodeRelevant(r)
		got, ok := ParseRelevant(src)
		if !ok {
			t.Fatalf("ParseRelevant(%s) not readable", src)
		}
		if diff := cmp.Diff(r, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("round trip of %s (-want +got):\n%s", src, diff)
		}
	}
	if got := string(EncodeRelevant(Relevant{Names: []string{"a<b"}, For: "u"})); got != `{"kind":"skill-relevant","names":["a<b"],"for":"u"}` {
		t.Errorf("encoding %s", got)
	}
}

func TestParseRelevantRefuses(t *testing.T) {
	for _, src := range []string{
		``, `null`, `[]`, `{"kind":"skill-catalog"}`,
		`{"kind":"skill-relevant"}`,                     // no names
		`{"kind":"skill-relevant","names":"a"}`,         // not a list
		`{"kind":"skill-relevant","names":[1]}`,         // not strings
		`{"kind":"skill-relevant","names":[],"for":3}`,  // for not a string
		`{"kind":"skill-relevant","names":[]} trailing`, // not one object
		`{"kind":"skill-relevant ","names":[]}`,         // another kind
	} {
		if r, ok := ParseRelevant([]byte(src)); ok {
			t.Errorf("ParseRelevant(%s) = %+v, readable", src, r)
		}
	}
	r, ok := ParseRelevant([]byte(`{"kind":"skill-relevant","names":["a","","b\ud800"],"extra":1}`))
	if !ok || !cmp.Equal(r.Names, []string{"a", "b\ufffd"}) {
		t.Errorf("lenient parse = %+v, %v", r, ok)
	}
}

func relevantEvent(seq uint64, visible bool, forID string, names ...string) LogEvent {
	return LogEvent{Seq: seq, Visible: visible, Source: EncodeRelevant(Relevant{Names: names, For: forID})}
}

func TestScannerRemembersRelevantSinceTheCatalog(t *testing.T) {
	catalog := EncodeCatalog(nil, false)
	sc := NewScanner(nil)
	for _, ev := range []LogEvent{
		relevantEvent(9, true, "u9", "c"),
		relevantEvent(8, false, "u8", "hidden"),
		{Seq: 7, Visible: true, Source: []byte(`{"kind":"other"}`)},
		relevantEvent(6, true, "u6", "a", "b"),
		{Seq: 5, Visible: true, Source: catalog},
		relevantEvent(4, true, "u4", "before-the-catalog"),
	} {
		if sc.Feed(ev) {
			break
		}
	}
	b := sc.Baseline()
	if !b.Found || b.Seq != 5 {
		t.Fatalf("baseline %+v", b)
	}
	if diff := cmp.Diff([]string{"c", "a", "b"}, b.Shown); diff != "" {
		t.Errorf("Shown (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"u9", "u6"}, b.Answered); diff != "" {
		t.Errorf("Answered (-want +got):\n%s", diff)
	}
}

func TestBaselineOverJoinsRelevant(t *testing.T) {
	older := Baseline{Found: true, Seq: 3, EverPublished: true, Shown: []string{"a"}, Answered: []string{"u1"}}
	newer := Baseline{Shown: []string{"b"}, Answered: []string{"u2"}}
	got := newer.Over(older)
	if diff := cmp.Diff(Baseline{Found: true, Seq: 3, EverPublished: true, Shown: []string{"b", "a"}, Answered: []string{"u2", "u1"}}, got); diff != "" {
		t.Errorf("Over (-want +got):\n%s", diff)
	}
	// A catalog in the newer range starts over.
	newer = Baseline{Found: true, Seq: 9, EverPublished: true, Shown: []string{"c"}}
	if got := newer.Over(older); !cmp.Equal(got.Shown, []string{"c"}) || got.Answered != nil {
		t.Errorf("Over across a newer catalog = %+v", got)
	}
}

func TestRelevantBounds(t *testing.T) {
	sc := NewScanner(nil)
	for i := range MaxAnswered + 10 {
		names := make([]string, 10)
		for j := range names {
			names[j] = fmt.Sprintf("s-%d-%d", i, j)
		}
		sc.Feed(relevantEvent(uint64(1000-i), true, fmt.Sprint("u", i), names...))
	}
	b := sc.Baseline()
	if len(b.Shown) != MaxShown || b.Shown[0] != "s-0-0" || len(b.Answered) != MaxAnswered || b.Answered[0] != "u0" {
		t.Errorf("%d shown (first %q), %d answered (first %q)", len(b.Shown), b.Shown[0], len(b.Answered), b.Answered[0])
	}
	joined := b.Over(b)
	if len(joined.Shown) != MaxShown || len(joined.Answered) != MaxAnswered {
		t.Errorf("Over kept %d shown and %d answered", len(joined.Shown), len(joined.Answered))
	}
}

func FuzzParseRelevant(f *testing.F) {
	f.Add([]byte(`{"kind":"skill-relevant","names":["a"],"for":"u"}`))
	f.Add([]byte(`{"kind":"skill-relevant","names":[]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		r, ok := ParseRelevant(src)
		if !ok {
			return
		}
		again, ok := ParseRelevant(EncodeRelevant(r))
		if !ok || !cmp.Equal(r, again, cmpopts.EquateEmpty()) {
			t.Fatalf("%+v re-encoded reads as %+v, %v", r, again, ok)
		}
	})
}
