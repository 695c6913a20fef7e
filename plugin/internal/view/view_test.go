package view

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// viewContent is what a view publishes and checks, with where its blocks
// end: block boundaries depend on names alone, so a view built on its
// predecessor ends its blocks where a fresh build does.
type viewContent struct {
	Blocks                  []int // listed skills (a fitted view's: entries) per block
	Entries                 []viewEntry
	Listed                  []listedSkill
	Lines, Records, Encoded []byte
	Digest                  digest.Digest
	NumEntries, Remote      int
	Websites                int
	Omitted                 int
	Diagnostics             []string
	Base                    *viewContent
}

func contentOf(v *View) viewContent {
	var c viewContent
	if v == nil {
		return c
	}
	// Sized first: tests compare thousands of views.
	entries, listed := 0, 0
	for _, b := range v.blocks {
		entries, listed = entries+len(b.entries), listed+len(b.listed)
	}
	c.Blocks, c.Entries = make([]int, 0, len(v.blocks)), make([]viewEntry, 0, entries)
	if v.base == nil {
		c.Listed = make([]listedSkill, 0, listed)
	}
	for _, b := range v.blocks {
		if v.base == nil {
			c.Blocks = append(c.Blocks, len(b.listed))
			c.Listed = append(c.Listed, b.listed...)
		} else {
			c.Blocks = append(c.Blocks, len(b.entries))
		}
		c.Entries = append(c.Entries, b.entries...)
	}
	c.Lines, c.Records, c.Encoded = joined(v, blockLines), joined(v, blockRecords), joined(v, blockEncoded)
	c.Digest, c.NumEntries, c.Remote, c.Websites, c.Omitted, c.Diagnostics = v.digest, v.numEntries, v.remote, v.websites, v.omitted, v.diagnostics
	if v.base != nil {
		base := contentOf(v.base)
		c.Base = &base
	}
	return c
}

// joined returns one part of every block of v, back to back.
func joined(v *View, part func(*block) []byte) []byte {
	n := 0
	for p := range v.pieces(part) {
		n += len(p)
	}
	out := make([]byte, 0, n)
	for p := range v.pieces(part) {
		out = append(out, p...)
	}
	return out
}

// viewOptions compare views by content.
var viewOptions = []cmp.Option{cmp.AllowUnexported(listedSkill{}, viewEntry{}), cmp.Transformer("content", contentOf), cmpopts.EquateEmpty()}

// sameContent is viewOptions' comparison without reflection, for tests
// that compare many views.
func sameContent(a, b *View) bool {
	x, y := contentOf(a), contentOf(b)
	return sameViewContent(&x, &y)
}

func sameViewContent(x, y *viewContent) bool {
	if x == nil || y == nil {
		return x == y
	}
	return slices.Equal(x.Blocks, y.Blocks) && slices.Equal(x.Entries, y.Entries) && slices.Equal(x.Listed, y.Listed) &&
		bytes.Equal(x.Lines, y.Lines) && bytes.Equal(x.Records, y.Records) && bytes.Equal(x.Encoded, y.Encoded) &&
		x.Digest == y.Digest && x.NumEntries == y.NumEntries && x.Remote == y.Remote && x.Websites == y.Websites && x.Omitted == y.Omitted &&
		slices.Equal(x.Diagnostics, y.Diagnostics) && sameViewContent(x.Base, y.Base)
}

// sameView compares everything a view publishes and checks.
func sameView(t *testing.T, got, want *View) {
	t.Helper()
	if !sameContent(got, want) {
		t.Errorf("view built on the previous one differs from a fresh build (-fresh +incremental):\n%s", cmp.Diff(want, got, viewOptions...))
	}
}

// TestBuildViewReusesOnlyWhatDidNotChange: a view built on the previous
// view of the same place is exactly the view built from nothing, whatever
// changed in between.
func TestBuildViewReusesOnlyWhatDidNotChange(t *testing.T) {
	t.Parallel()
	base := []skill.Summary{summary("alpha", "A  one."), summary("beta", "B."), summary("delta", "D."), summary("gamma", "G <g>.")}
	userOnly := summary("omega", "O.")
	userOnly.Invocation.ModelInvocable = false
	tests := []struct {
		name   string
		change func([]skill.Summary) []skill.Summary
	}{
		{"nothing", func(s []skill.Summary) []skill.Summary { return s }},
		{"description", func(s []skill.Summary) []skill.Summary { s[1].Description = "B, now longer."; return s }},
		{"whitespace only", func(s []skill.Summary) []skill.Summary { s[0].Description = "A one."; return s }},
		{"added first", func(s []skill.Summary) []skill.Summary {
			return append([]skill.Summary{summary("aardvark", "AA.")}, s...)
		}},
		{"added last", func(s []skill.Summary) []skill.Summary { return append(s, summary("zeta", "Z.")) }},
		{"removed", func(s []skill.Summary) []skill.Summary { return slices.Delete(s, 1, 2) }},
		{"renamed, same description", func(s []skill.Summary) []skill.Summary { s[2].Name = "epsilon"; return s }},
		{"policy flipped", func(s []skill.Summary) []skill.Summary { s[3].Invocation.ModelInvocable = false; return s }},
		{"user-only added", func(s []skill.Summary) []skill.Summary { return append(s, userOnly) }},
		{"invalid name", func(s []skill.Summary) []skill.Summary { return append(s, summary("Bad Name", "X.")) }},
		{"duplicate name", func(s []skill.Summary) []skill.Summary { return slices.Insert(s, 1, summary("alpha", "Second alpha.")) }},
		{"unsorted", func(s []skill.Summary) []skill.Summary { s[0], s[3] = s[3], s[0]; return s }},
		{"everything removed", func([]skill.Summary) []skill.Summary { return nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, maxLen := range []int{5, 500} {
				prev := Build(slices.Clone(base), maxLen, nil)
				next := tt.change(slices.Clone(base))
				sameView(t, Build(next, maxLen, prev), Build(next, maxLen, nil))
			}
		})
	}
}

// FuzzBuildViewReuse: for any two listings, building the second on the
// view of the first gives the view of the second.
func FuzzBuildViewReuse(f *testing.F) {
	f.Add([]byte("alpha=A;beta=B"), []byte("alpha=A;beta=B2;gamma=G"), uint8(40))
	f.Add([]byte("a=x;a=y;B=z"), []byte("a=y;b=z"), uint8(3))
	f.Add([]byte("alpha=~A;beta=^B;gamma=G"), []byte("alpha=^A;beta=^B;gamma=~G"), uint8(40))
	f.Fuzz(func(t *testing.T, first, second []byte, maxLen uint8) {
		capLen := int(maxLen%64) + 3
		prev := Build(parseListing(first), capLen, nil)
		next := parseListing(second)
		got, want := Build(next, capLen, prev), Build(next, capLen, nil)
		if !cmp.Equal(got, want, viewOptions...) {
			t.Fatalf("incremental view of %q after %q differs from a fresh one", second, first)
		}
	})
}

// TestBuildViewChain builds each view on the one before through many
// changes, and each writes anew only the blocks that changed; every view is
// still the fresh build of its listing.
func TestBuildViewChain(t *testing.T) {
	t.Parallel()
	var skills []skill.Summary
	for i := 0; i < 200; i++ {
		skills = append(skills, summary(fmt.Sprintf("skill-%03d", i), fmt.Sprintf("Skill %d.", i)))
	}
	prev := Build(skills, 40, nil)
	for round := 0; round < 30; round++ {
		next := slices.Clone(skills)
		for k := 0; k < 5; k++ {
			i := (round*37 + k*53) % len(next)
			next[i].Description = fmt.Sprintf("Changed in round %d: <%d>.", round, k)
		}
		if round%10 == 3 {
			next = slices.Delete(next, round%len(next), round%len(next)+1)
		}
		got, want := Build(next, 40, prev), Build(next, 40, nil)
		if !sameContent(got, want) {
			t.Fatalf("round %d: the view built on the previous one differs from a fresh build:\n%s", round, cmp.Diff(want, got, viewOptions...))
		}
		fresh := 0
		for _, b := range got.blocks {
			if len(b.listed) > maxBlockLen {
				t.Fatalf("round %d: a block of %d skills", round, len(b.listed))
			}
			if !slices.Contains(prev.blocks, b) {
				fresh++
			}
		}
		// Each change writes its block anew; a removal may join two.
		if fresh > 12 {
			t.Errorf("round %d: %d of %d blocks written anew for at most 6 changes", round, fresh, len(got.blocks))
		}
		skills, prev = next, got
	}
}

// sortedUnique sorts a listing by name and keeps the first of each name,
// as a host's snapshot is.
func sortedUnique(s []skill.Summary) []skill.Summary {
	s = slices.Clone(s)
	slices.SortStableFunc(s, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) })
	return slices.CompactFunc(s, func(a, b skill.Summary) bool { return a.Name == b.Name })
}

// FuzzApplyDelta: a delta between two snapshots, applied to the view of
// the first, gives the view of the second.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("alpha=A;beta=B;gamma=G"), []byte("alpha=A;beta=B2;delta=D"), uint8(40))
	f.Add([]byte("a=x;Bad=y;c=z"), []byte("a=x;c=z;d="), uint8(3))
	f.Add([]byte("a=~x;b=^y;c=z"), []byte("a=^x;b=^y;c=~z"), uint8(3))
	f.Fuzz(func(t *testing.T, first, second []byte, maxLen uint8) {
		capLen := int(maxLen%64) + 3
		base, cur := sortedUnique(parseListing(first)), sortedUnique(parseListing(second))
		upserts, removed := snapshotDelta(base, cur)
		got, err := ApplyDelta(Build(base, capLen, nil), upserts, removed, capLen)
		if err != nil {
			t.Fatal(err)
		}
		if want := Build(cur, capLen, nil); !sameContent(got, want) {
			t.Fatalf("delta %v -%v applied to %q differs from the view of %q:\n%s", upserts, removed, first, second, cmp.Diff(want, got, viewOptions...))
		}
	})
}

func TestApplyDeltaRejectsUnsortedInput(t *testing.T) {
	t.Parallel()
	prev := Build([]skill.Summary{summary("a", "A.")}, 50, nil)
	if _, err := ApplyDelta(prev, []skill.Summary{summary("c", "C."), summary("b", "B.")}, nil, 50); err == nil {
		t.Error("unsorted skills accepted")
	}
	if _, err := ApplyDelta(prev, nil, []string{"a", "a"}, 50); err == nil {
		t.Error("repeated removed names accepted")
	}
}

// parseListing reads a fuzzer's listing: name=description pairs separated
// by semicolons; names of length 2 mod 3 are not model-invocable; a
// description starting with "~" is an MCP server's skill, one starting with
// "^" a website's, both labelled srv.
func parseListing(b []byte) []skill.Summary {
	var out []skill.Summary
	name, desc, inDesc := "", "", false
	flush := func() {
		s := summary(name, desc)
		switch {
		case strings.HasPrefix(desc, "~"):
			s = remoteSummary(name, desc, "srv", name)
		case strings.HasPrefix(desc, "^"):
			s = websiteSummary(name, desc, "srv", name)
		}
		if len(name)%3 == 2 {
			s.Invocation.ModelInvocable = false
		}
		out = append(out, s)
		name, desc, inDesc = "", "", false
	}
	for _, c := range string(b) {
		switch {
		case c == ';':
			flush()
		case c == '=' && !inDesc:
			inDesc = true
		case inDesc:
			desc += string(c)
		default:
			name += string(c)
		}
	}
	flush()
	return out
}

// TestViewChainRandomEdits builds a chain of views over a listing of over a
// hundred skills, a dozen blocks and more, through random edits of every
// kind, by Build and by ApplyDelta alike: each is the fresh build of its
// listing.
func TestViewChainRandomEdits(t *testing.T) {
	t.Parallel()
	const listed, rounds = 120, 80
	rng := rand.New(rand.NewPCG(1, 2))
	var skills []skill.Summary
	for i := 0; i < listed; i++ {
		skills = append(skills, summary(fmt.Sprintf("skill-%04d", i*3), fmt.Sprintf("Skill %d.", i)))
	}
	skills = sortedUnique(skills)
	prevFull, prevDelta := Build(skills, 40, nil), Build(skills, 40, nil)
	if len(prevFull.blocks) < 12 {
		t.Fatalf("%d skills in %d blocks", len(skills), len(prevFull.blocks))
	}
	for round := 0; round < rounds; round++ {
		next := slices.Clone(skills)
		for k := rng.IntN(4); k >= 0; k-- {
			switch i := rng.IntN(len(next) + 1); rng.IntN(5) {
			case 0:
				next = append(next, summary(fmt.Sprintf("skill-%04d", rng.IntN(3*listed+30)), "Added."))
			case 1:
				if i < len(next) {
					next = slices.Delete(next, i, i+1)
				}
			case 2:
				if i < len(next) {
					next[i].Invocation.ModelInvocable = !next[i].Invocation.ModelInvocable
				}
			case 3:
				if i < len(next) {
					next[i] = remoteSummary(next[i].Name, "Remote.", "srv", next[i].Name)
					if rng.IntN(2) == 0 {
						next[i].OriginKind = skill.OriginWebsite // the same skill, from a website
					}
				}
			default:
				if i < len(next) {
					next[i].Description = fmt.Sprintf("Changed in round %d.", round)
				}
			}
		}
		next = sortedUnique(next)
		want := Build(next, 40, nil)
		gotFull := Build(next, 40, prevFull)
		upserts, removed := snapshotDelta(skills, next)
		gotDelta, err := ApplyDelta(prevDelta, upserts, removed, 40)
		if err != nil {
			t.Fatal(err)
		}
		wantContent, fullContent, deltaContent := contentOf(want), contentOf(gotFull), contentOf(gotDelta)
		if !sameViewContent(&fullContent, &wantContent) || !sameViewContent(&deltaContent, &wantContent) {
			t.Fatalf("round %d: a view built on the previous one differs from a fresh build:\n%s%s", round,
				cmp.Diff(want, gotFull, viewOptions...), cmp.Diff(want, gotDelta, viewOptions...))
		}
		for _, budget := range []int{render.MinCatalogBudget, 3000, 9000} {
			if got, want := Fit(gotDelta, budget), Fit(want, budget); !sameContent(got, want) {
				t.Fatalf("round %d: budget %d: the fitted view differs from a fresh one:\n%s", round, budget, cmp.Diff(want, got, viewOptions...))
			}
		}
		for _, v := range []*View{gotFull, gotDelta, Fit(gotDelta, 3000)} {
			if lookupAll(v, next) != "" {
				t.Fatalf("round %d: %s", round, lookupAll(v, next))
			}
		}
		skills, prevFull, prevDelta = next, gotFull, gotDelta
	}
}

// lookupAll says which skill of a sorted listing v does not find as listed.
func lookupAll(v *View, skills []skill.Summary) string {
	for _, s := range skills {
		l, ok := v.find(s.Name)
		if !ok || l.modelInvocable != s.Invocation.ModelInvocable {
			return fmt.Sprintf("lookup(%q) = %+v, %v", s.Name, l, ok)
		}
		if _, ok := v.find(s.Name + "-missing"); ok {
			return fmt.Sprintf("lookup(%q) finds a skill not listed", s.Name+"-missing")
		}
	}
	return ""
}

// TestOriginKindConversions: a listed skill's kind is recorded as the
// catalog's kind of the same name, and read back as it was; the host's own
// skills record none.
func TestOriginKindConversions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		origin string
		kind   skill.OriginKind
		want   digest.OriginKind
	}{
		{"", skill.OriginMCPServer, digest.OriginMCPServer},
		{"", skill.OriginWebsite, digest.OriginMCPServer},
		{"docs", skill.OriginMCPServer, digest.OriginMCPServer},
		{"docs", skill.OriginWebsite, digest.OriginWebsite},
	} {
		s := skill.Summary{Name: "a", Origin: tt.origin, OriginKind: tt.kind}
		if got := entryKind(s); got != tt.want {
			t.Errorf("entryKind(%q, %v) = %d, want %d", tt.origin, tt.kind, got, tt.want)
		}
		if back := skillKind(entryKind(s)); tt.origin != "" && back != tt.kind {
			t.Errorf("skillKind(entryKind(%q, %v)) = %v", tt.origin, tt.kind, back)
		}
	}
}

// TestViewBytesAccounting: a view is accounted at its struct, its list of
// blocks and every block: the block's struct, its two tables, its bytes and
// its names; a fitted view at its own blocks, shared ones included, plus the
// view it was fitted from.
func TestViewBytesAccounting(t *testing.T) {
	t.Parallel()
	var skills []skill.Summary
	for _, n := range []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"} {
		skills = append(skills, summary(n, strings.Repeat("A long description of "+n+". ", 8)))
	}
	hidden := summary("omega", "O.")
	hidden.Invocation.ModelInvocable = false
	skills = append(skills, hidden)
	entrySize, listedSize := int(unsafe.Sizeof(viewEntry{})), int(unsafe.Sizeof(listedSkill{}))
	own := func(v *View) (n, names int) {
		n = viewOverhead + cap(v.blocks)*pointerSize
		for _, b := range v.blocks {
			n += blockOverhead + cap(b.listed)*listedSize + cap(b.entries)*entrySize + cap(b.lines) + cap(b.records) + cap(b.encoded)
			for _, l := range b.listed {
				names += len(l.name)
			}
		}
		return n + names, names
	}
	base := Build(skills, 500, nil)
	want, names := own(base)
	if names != len("alphabetagammadeltaepsilonzetaetathetaomega") {
		t.Fatalf("listed names hold %d bytes", names)
	}
	if got := base.Bytes(); got != want {
		t.Errorf("view accounted at %d bytes, want %d", got, want)
	}
	fitted := Fit(base, render.MinCatalogBudget)
	if fitted.base != base {
		t.Fatal("the view was not fitted")
	}
	if got, want := fitted.Bytes(), first(own(fitted))+base.Bytes(); got != want {
		t.Errorf("fitted view accounted at %d bytes, want %d", got, want)
	}
	if fitted.Unfitted() != base || base.Unfitted() != base {
		t.Error("unfitted does not return the view a view was fitted from")
	}
}

func first(a, _ int) int { return a }

// TestApplyDeltaGrowsTheListing: a delta that adds more skills than the
// previous snapshot listed is the view of the whole new snapshot.
func TestApplyDeltaGrowsTheListing(t *testing.T) {
	t.Parallel()
	prev := Build([]skill.Summary{summary("beta", "B.")}, 50, nil)
	upserts := []skill.Summary{summary("alpha", "A."), summary("beta", "B2."), summary("delta", "D."), summary("gamma", "G.")}
	got, err := ApplyDelta(prev, upserts, nil, 50)
	if err != nil {
		t.Fatal(err)
	}
	sameView(t, got, Build(upserts, 50, nil))
	if _, err := ApplyDelta(prev, []skill.Summary{summary("alpha", "A."), summary("alpha", "A2.")}, nil, 50); err == nil {
		t.Error("repeated upserts accepted")
	}
	if _, err := ApplyDelta(prev, nil, []string{"b", "a"}, 50); err == nil {
		t.Error("unsorted removed names accepted")
	}
}

// TestCatalogEntriesOfLongDescriptions: the entries a view publishes are
// read back from their encoding whatever the lengths, multi-byte length
// prefixes included.
func TestCatalogEntriesOfLongDescriptions(t *testing.T) {
	t.Parallel()
	var skills []skill.Summary
	var want []digest.Entry
	for i, n := range []int{1, 127, 128, 129, 255, 256, 300, 16384} {
		d := strings.Repeat("d", n)
		name := fmt.Sprintf("skill-%d", i)
		skills = append(skills, summary(name, d))
		want = append(want, digest.Entry{Name: name, Description: d})
	}
	r := remoteSummary("zz-remote", strings.Repeat("r", 128), "srv", "zz-remote")
	w := websiteSummary("zz-web", strings.Repeat("w", 200), strings.Repeat("s", 64), "zz-web")
	skills = append(skills, r, w)
	want = append(want, digest.Entry{Name: "zz-remote", Description: strings.Repeat("r", 128), Origin: "srv"},
		digest.Entry{Name: "zz-web", Description: strings.Repeat("w", 200), Origin: strings.Repeat("s", 64), OriginKind: digest.OriginWebsite})
	v := Build(skills, 20000, nil)
	if diff := cmp.Diff(want, v.catalogEntries()); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

// TestViewSharesUnchangedEntries: a view built on the previous one of its
// place shares every block whose skills did not change and writes anew only
// the block of the one that did.
func TestViewSharesUnchangedEntries(t *testing.T) {
	t.Parallel()
	var skills []skill.Summary
	for i := range 200 {
		skills = append(skills, summary(fmt.Sprintf("skill-%03d", i), fmt.Sprintf("Skill %d.", i)))
	}
	skills = append(skills, remoteSummary("skill-remote", "Remote.", "docs", "skill-remote"))
	prev := Build(skills, 500, nil)
	// Blocks hold meanBlockLen skills on average: a change costs about
	// that many entries, and the list of blocks a pointer per that many.
	if n := len(prev.blocks); n < len(skills)/(2*meanBlockLen) || n > 2*len(skills)/meanBlockLen {
		t.Fatalf("%d skills in %d blocks, want about %d", len(skills), n, len(skills)/meanBlockLen)
	}
	for _, b := range prev.blocks {
		if len(b.listed) == 0 || len(b.listed) > maxBlockLen {
			t.Fatalf("a block of %d skills, want 1 to %d", len(b.listed), maxBlockLen)
		}
	}
	fresh := func(next *View) (blocks []*block) {
		for _, b := range next.blocks {
			if !slices.Contains(prev.blocks, b) {
				blocks = append(blocks, b)
			}
		}
		return blocks
	}
	same := Build(slices.Clone(skills), 500, prev)
	if n := len(fresh(same)); n != 0 || len(same.blocks) != len(prev.blocks) {
		t.Errorf("an unchanged snapshot wrote %d of %d blocks anew", n, len(same.blocks))
	}
	changed := slices.Clone(skills)
	changed[107].Description = "Changed."
	next := Build(changed, 500, prev)
	sameView(t, next, Build(changed, 500, nil))
	written := fresh(next)
	if len(written) != 1 || len(next.blocks) != len(prev.blocks) {
		t.Fatalf("one changed skill wrote %d of %d blocks anew", len(written), len(next.blocks))
	}
	line := render.AppendEntryLine(nil, digest.Entry{Name: "skill-107", Description: "Changed."})
	if !bytes.Contains(written[0].lines, line) {
		t.Errorf("the block written anew holds %q, not the changed entry's line", written[0].lines)
	}
}

// TestApplyDeltaAfterTheLastEntry: listed skills that are not in the
// catalog and sort after every entry survive a delta.
func TestApplyDeltaAfterTheLastEntry(t *testing.T) {
	t.Parallel()
	userOnly := func(name string) skill.Summary {
		s := summary(name, "User only.")
		s.Invocation.ModelInvocable = false
		return s
	}
	base := []skill.Summary{summary("alpha", "A."), summary("beta", "B."), userOnly("yankee"), userOnly("zulu")}
	prev := Build(base, 50, nil)
	got, err := ApplyDelta(prev, []skill.Summary{summary("beta", "B2."), summary("gamma", "G.")}, []string{"alpha"}, 50)
	if err != nil {
		t.Fatal(err)
	}
	sameView(t, got, Build([]skill.Summary{summary("beta", "B2."), summary("gamma", "G."), userOnly("yankee"), userOnly("zulu")}, 50, nil))
	got, err = ApplyDelta(prev, nil, []string{"zulu"}, 50)
	if err != nil {
		t.Fatal(err)
	}
	sameView(t, got, Build(base[:3], 50, nil))
	// Several removed at once.
	got, err = ApplyDelta(prev, nil, []string{"alpha", "yankee", "zulu"}, 50)
	if err != nil {
		t.Fatal(err)
	}
	sameView(t, got, Build(base[1:2], 50, nil))
}

// TestRemoteOrigins: a view says which kinds of remote source its catalog
// lists, for the sentence the catalog ends with: built from nothing, built
// on another view, after a delta, and fitted to a budget that leaves some
// skills out.
func TestRemoteOrigins(t *testing.T) {
	t.Parallel()
	local, mcp, web := summary("alpha", "A."), remoteSummary("beta", "B.", "srv", "beta"), websiteSummary("gamma", "G.", "docs", "gamma")
	hidden := remoteSummary("delta", "D.", "srv", "delta")
	hidden.Invocation.ModelInvocable = false // listed, not in the catalog
	tests := []struct {
		name   string
		skills []skill.Summary
		want   render.RemoteOrigins
	}{
		{"local only", []skill.Summary{local}, render.RemoteOrigins{}},
		{"an MCP server's", []skill.Summary{local, mcp}, render.RemoteOrigins{MCPServers: true}},
		{"a website's", []skill.Summary{local, web}, render.RemoteOrigins{Websites: true}},
		{"both", []skill.Summary{local, mcp, web}, render.RemoteOrigins{MCPServers: true, Websites: true}},
		{"a remote skill not in the catalog", []skill.Summary{local, hidden}, render.RemoteOrigins{}},
	}
	all := []skill.Summary{local, mcp, hidden, web} // by name
	everything := Build(all, 50, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Build(tc.skills, 50, nil).RemoteOrigins(); got != tc.want {
				t.Errorf("built: %+v, want %+v", got, tc.want)
			}
			if got := Build(tc.skills, 50, everything).RemoteOrigins(); got != tc.want {
				t.Errorf("built on a view listing every kind: %+v, want %+v", got, tc.want)
			}
			upserts, removed := snapshotDelta(all, sortedUnique(tc.skills))
			v, err := ApplyDelta(everything, upserts, removed, 50)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.RemoteOrigins(); got != tc.want {
				t.Errorf("after a delta: %+v, want %+v", got, tc.want)
			}
		})
	}
	// A budget that leaves the last skill, the website's, out leaves the
	// MCP server's.
	budget, _ := fitFor(t, everything, func(f render.Fit) bool { return f.Omitted == 1 })
	if got, want := Fit(everything, budget).RemoteOrigins(), (render.RemoteOrigins{MCPServers: true}); got != want {
		t.Errorf("fitted to %d bytes: %+v, want %+v", budget, got, want)
	}
}

// TestFitSharesWhatItKeeps: fitting a view writes anew only the blocks that
// hold a shortened entry and shares every other block with the view it
// fits, with no empty block between them.
func TestFitSharesWhatItKeeps(t *testing.T) {
	t.Parallel()
	var skills []skill.Summary
	for i := range 200 {
		skills = append(skills, summary(fmt.Sprintf("skill-%03d", i), "Short."))
	}
	skills[107].Description = strings.Repeat("A long description. ", 20)
	base := Build(skills, 500, nil)
	whole, err := render.FitCatalog(base.catalogEntries(), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	// A budget a little short of the whole catalog shortens the long
	// description only.
	fitted := Fit(base, whole.Size-100)
	if fit, _ := render.FitCatalog(base.catalogEntries(), whole.Size-100); fit.NumShortened != 1 || fit.Omitted != 0 {
		t.Fatalf("the budget shortens %d descriptions and leaves %d skills out, want 1 and none", fit.NumShortened, fit.Omitted)
	}
	shared, written := 0, 0
	for _, b := range fitted.blocks {
		switch {
		case len(b.entries) == 0:
			t.Fatal("the fitted view holds an empty block")
		case slices.Contains(base.blocks, b):
			shared++
		default:
			written++
		}
	}
	if written != 1 || shared != len(base.blocks)-1 {
		t.Errorf("fitting one long description wrote %d blocks anew and shared %d of %d", written, shared, len(base.blocks))
	}
}
