package events

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLoads(t *testing.T) {
	d := ContentDigest("Do alpha.")
	for _, tc := range []struct {
		name   string
		source string
		kind   string
		skills []Loaded
	}{
		{"load", string(EncodeLoad("alpha", d)), LoadKind, []Loaded{{Name: "alpha", Digest: d}}},
		{"load without digest", `{"kind":"skill-load","name":"alpha"}`, LoadKind, []Loaded{{Name: "alpha"}}},
		{"invocation of earlier versions", `{"kind":"skill-invocation","name":"alpha"}`, invocationKind, []Loaded{{Name: "alpha"}}},
		{"preload", string(EncodeSkills(PreloadKind, []Loaded{{Name: "a", Digest: d}, {Name: "b"}})), PreloadKind, []Loaded{{Name: "a", Digest: d}, {Name: "b"}}},
		{"reattach with states", string(EncodeSkills(ReattachKind, []Loaded{{Name: "a", State: StateChanged}, {Name: "b", State: StateGone}, {Name: "c", State: StateLeftOut}, {Name: "d", State: StateUnavailable}})),
			ReattachKind, []Loaded{{Name: "a", State: StateChanged}, {Name: "b", State: StateGone}, {Name: "c", State: StateLeftOut}, {Name: "d", State: StateUnavailable}}},
		{"unknown state reads as gone", `{"kind":"skill-reattach","skills":[{"name":"a","state":"later"}]}`, ReattachKind, []Loaded{{Name: "a", State: StateGone}}},
		{"empty list", `{"kind":"skill-reattach","skills":[]}`, ReattachKind, []Loaded{}},
		{"other kind", `{"kind":"skill-catalog","name":"a"}`, "", nil},
		{"not JSON", `{"kind":"skill-load",`, "", nil},
		{"name missing", `{"kind":"skill-load"}`, "", nil},
		{"name empty", `{"kind":"skill-load","name":""}`, "", nil},
		{"name not a string", `{"kind":"skill-load","name":3}`, "", nil},
		{"digest not a string", `{"kind":"skill-load","name":"a","digest":1}`, "", nil},
		{"skills missing", `{"kind":"skill-preload"}`, "", nil},
		{"skills null", `{"kind":"skill-preload","skills":null}`, "", nil},
		{"skill without name", `{"kind":"skill-preload","skills":[{"digest":"x"}]}`, "", nil},
		{"state not a string", `{"kind":"skill-reattach","skills":[{"name":"a","state":1}]}`, "", nil},
		{"too many", `{"kind":"skill-preload","skills":[` + strings.Repeat(`{"name":"a"},`, MaxLoadedPerRecord) + `{"name":"a"}]}`, "", nil},
		{"too large", `{"kind":"skill-load","name":"` + strings.Repeat("a", 65<<10) + `"}`, "", nil},
	} {
		kind, skills, ok := ParseLoads([]byte(tc.source))
		if ok != (tc.kind != "") || kind != tc.kind {
			t.Errorf("%s: ParseLoads = %q, %v; want %q", tc.name, kind, ok, tc.kind)
			continue
		}
		if diff := cmp.Diff(tc.skills, skills); ok && diff != "" {
			t.Errorf("%s: skills (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestLoadRecordsAreForeignToCatalogRules(t *testing.T) {
	for _, src := range [][]byte{EncodeLoad("a", "d"), EncodeSkills(PreloadKind, nil), EncodeSkills(ReattachKind, []Loaded{{Name: "a"}})} {
		if IsCatalogKind(src) {
			t.Errorf("%s counts as a catalog", src)
		}
	}
	if !IsAttachKind(EncodeSkills(PreloadKind, nil)) || !IsAttachKind(EncodeSkills(ReattachKind, nil)) || IsAttachKind(EncodeLoad("a", "d")) || IsAttachKind(EncodeInvocation("a", "d")) {
		t.Error("IsAttachKind: only preload and re-attachment messages are the plugin's own")
	}
}

// TestLoadScanner: hidden records of carried skills are pending, most
// recently used first, unless a visible record names them; the newest
// hidden record of a name decides.
func TestLoadScanner(t *testing.T) {
	evs := []LogEvent{ // newest first
		{Seq: 9, Visible: true, Source: EncodeLoad("visible-again", "")},
		{Seq: 8, Source: EncodeSkills(ReattachKind, []Loaded{{Name: "gone", State: StateGone}, {Name: "kept"}})},
		{Seq: 7, Source: EncodeLoad("newer", "n")},
		{Seq: 6, Source: []byte(`not a record`)},
		{Seq: 5, Source: EncodeLoad("visible-again", "")},
		{Seq: 4, Source: EncodeLoad("gone", "g")},
		{Seq: 3, Source: EncodeLoad("newer", "old")},
		{Seq: 2, Visible: true, Source: EncodeInvocation("window", "")},
		{Seq: 1, Source: EncodeSkills(PreloadKind, []Loaded{{Name: "window"}, {Name: "pre", Digest: "p"}})},
	}
	var s LoadScanner
	for _, ev := range evs {
		s.Feed(ev)
	}
	want := []Pending{
		{Loaded: Loaded{Name: "kept"}, Seq: 8},
		{Loaded: Loaded{Name: "newer", Digest: "n"}, Seq: 7},
		{Loaded: Loaded{Name: "pre", Digest: "p"}, Seq: 1, Preloaded: true},
	}
	if diff := cmp.Diff(want, s.Pending()); diff != "" {
		t.Errorf("Pending (-want +got):\n%s", diff)
	}
}

func FuzzParseLoads(f *testing.F) {
	f.Add([]byte(EncodeLoad("a", "d")))
	f.Add(EncodeSkills(ReattachKind, []Loaded{{Name: "a", State: StateChanged}}))
	f.Add([]byte(`{"kind":"skill-preload","skills":[{"name":"\u00e9"}]}`))
	f.Add(EncodeLoadVersion("a", "d", "sha256:"+strings.Repeat("e", 64)))
	f.Add([]byte(`{"kind":"skill-reattach","skills":[{"name":"a","content_digest":1},{"name":"b","content_digest":"sha256:x"}]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		kind, skills, ok := ParseLoads(src)
		if !ok {
			return
		}
		if len(skills) > MaxLoadedPerRecord {
			t.Fatalf("%d skills", len(skills))
		}
		for _, l := range skills {
			if !validLoaded(l) || (l.ContentDigest != "" && !validContentDigest([]byte(l.ContentDigest))) {
				t.Fatalf("invalid skill %+v read", l)
			}
		}
		// What is read encodes to a record that reads the same.
		var again []byte
		if kind == LoadKind || kind == invocationKind {
			again = EncodeLoadVersion(skills[0].Name, skills[0].Digest, skills[0].ContentDigest)
		} else {
			again = EncodeSkills(kind, skills)
		}
		if _, back, ok := ParseLoads(again); !ok || !cmp.Equal(back[0:min(len(back), len(skills))], skills[0:min(len(back), len(skills))]) {
			t.Fatalf("re-encoded %s reads %v, %v", again, back, ok)
		}
	})
}
