package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
)

func termsOf(text string) []string {
	var out []string
	newAnalyzer().terms(text, func(t string) { out = append(out, t) })
	return out
}

func TestAnalyzer(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Deploying the apps", []string{"deploy", "app"}},
		{"A/B testing, I/O bound", []string{"ab", "test", "io", "bound"}},
		{"and/or a/bc", []string{"bc"}},                                           // "and", "or" and "a" are stop words; "a/bc" is no abbreviation
		{"Standard_D4s_v5 in East-US", []string{"standard", "d4s", "v5", "east"}}, // "us" is a stop word
		{"Émigrés’ CAFÉ", []string{"émigré", "café"}},
		{"how do I use this with you", nil},
		{"x/", []string{"x"}},
	} {
		if diff := cmp.Diff(tc.want, termsOf(tc.in)); diff != "" {
			t.Errorf("terms(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func summary(name, description string) skill.Summary {
	return skill.Summary{Name: name, Description: description, Invocation: skill.DefaultPolicy()}
}

func names(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Name)
	}
	return out
}

var library = []skill.Summary{
	summary("pdf-forms", "Fill PDF forms and read their fields. DO NOT USE FOR: Word documents or spreadsheets."),
	summary("docx", "Create and edit Word documents, with tracked changes and comments."),
	summary("xlsx", "Build spreadsheets with formulas and charts."),
	summary("copy-editing", "When the user wants to improve existing marketing copy. Also use when the user mentions 'edit this copy' or 'tighten this up'."),
	summary("copywriting", "Write new marketing copy for pages and emails: headlines, calls to action."),
	summary("deploy-preview", "Deploy a preview of a branch and post its link. USE FOR: preview deploy, staging link."),
	summary("ab-testing", "Plan an A/B test: hypotheses, sample sizes and when to stop."),
	{Name: "release-notes", Description: "Summarize what changed.", Keywords: "changelog, release", WhenToUse: "Before tagging a version."},
	{Name: "grpc-services", Description: "Design service interfaces.", SearchText: "Use protobuf and gRPC streaming for internal APIs."},
}

func TestSearchRanks(t *testing.T) {
	ix := Build(library)
	for _, tc := range []struct {
		query string
		want  []string // the first hits, in order
	}{
		{"fill in this PDF form", []string{"pdf-forms"}},
		{"edit my Word documents", []string{"docx"}},                         // pdf-forms says not to use it for them
		{"please edit this copy for our homepage", []string{"copy-editing"}}, // a trigger phrase it quotes
		{"deploying a preview", []string{"deploy-preview"}},                  // stems meet
		{"set up an A/B test", []string{"ab-testing"}},
		{"write the changelog", []string{"release-notes"}},                 // keywords
		{"what to do before tagging a version", []string{"release-notes"}}, // when_to_use
		{"streaming protobuf", []string{"grpc-services"}},                  // the start of the instructions
	} {
		got := names(ix.Search(ParseQuery(tc.query), 5))
		if len(got) < len(tc.want) || !slices.Equal(got[:len(tc.want)], tc.want) {
			t.Errorf("Search(%q) = %q, want it to start with %q", tc.query, got, tc.want)
		}
	}
}

func TestSearchEdges(t *testing.T) {
	ix := Build(library)
	if hits := ix.Search(ParseQuery("how do I use this"), 5); hits != nil {
		t.Errorf("a query of stop words found %q", names(hits))
	}
	if hits := ix.Search(ParseQuery("zebra quokka"), 5); hits != nil {
		t.Errorf("a query of unknown words found %q", names(hits))
	}
	if hits := ix.Search(ParseQuery("pdf"), 0); hits != nil {
		t.Errorf("limit 0 found %q", names(hits))
	}
	if hits := Empty().Search(ParseQuery("pdf"), 5); hits != nil {
		t.Errorf("an empty index found %q", names(hits))
	}
	hits := ix.Search(ParseQuery("documents spreadsheets charts word"), 2)
	if len(hits) != 2 || hits[0].Score < hits[1].Score {
		t.Fatalf("hits %+v: want 2, best first", hits)
	}
	for _, h := range hits {
		if h.Score <= 0 || h.Relevance <= 0 || h.Relevance > 2 {
			t.Errorf("hit %s: score %v, relevance %v", h.Name, h.Score, h.Relevance)
		}
	}
}

func TestSearchTiesByName(t *testing.T) {
	ix := Build([]skill.Summary{summary("b-twin", "Convert units."), summary("a-twin", "Convert units."), summary("c-twin", "Convert units.")})
	got := ix.Search(ParseQuery("convert units"), 3)
	if diff := cmp.Diff([]string{"a-twin", "b-twin", "c-twin"}, names(got)); diff != "" {
		t.Errorf("tied hits (-want +got):\n%s", diff)
	}
}

func TestQuotedMaterialCountsLess(t *testing.T) {
	ix := Build([]skill.Summary{
		summary("copy-editing", "Edit and tighten copy."),
		summary("project-tools", "Manage project tasks, plans and budgets for teams."),
	})
	q := "Edit this copy: 'Our project management tool helps teams plan tasks and budgets.'"
	if got := names(ix.Search(ParseQuery(q), 2)); len(got) == 0 || got[0] != "copy-editing" {
		t.Errorf("Search(%q) = %q, want copy-editing first", q, got)
	}
}

func TestQueryWeights(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  map[string]float64
	}{
		{"Deploy the preview", map[string]float64{"deploy": 1, "preview": 1}},
		// The first sentence is the ask; what follows is context.
		{"Deploy the preview. Our audience is developers!", map[string]float64{"deploy": 1, "preview": 1, "audienc": contextWeight, "develop": contextWeight}},
		{"Deploy it\nwith Docker", map[string]float64{"deploy": 1, "docker": contextWeight}},
		// A word of the ask counts whole wherever else it appears.
		{"What is our preview? Deploy the preview.", map[string]float64{"preview": 1, "deploy": contextWeight}},
		// A first sentence of stop words only is no ask.
		{"How do I? Deploy the preview. Then rest.", map[string]float64{"deploy": 1, "preview": 1, "rest": contextWeight}},
		// Not an end of sentence: a decimal point, a domain.
		{"Ship 2.1 of example.com now", map[string]float64{"ship": 1, "2": 1, "1": 1, "exampl": 1, "com": 1, "now": 1}},
		// Quoted material counts less than either; a full stop inside a
		// quotation ends no sentence.
		{"Edit this copy: 'Our project management tool is great.' Thanks. Be brief", map[string]float64{"edit": 1, "copi": 1, "project": quotedWeight, "manag": quotedWeight, "tool": quotedWeight, "great": quotedWeight, "thank": 1, "brief": contextWeight}},
	} {
		got := map[string]float64{}
		for _, term := range ParseQuery(tc.query).terms {
			got[term.term] = term.weight
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseQuery(%q) weights (-want +got):\n%s", tc.query, diff)
		}
	}
}

func TestContextCountsLess(t *testing.T) {
	ix := Build([]skill.Summary{
		summary("copywriting", "Write marketing copy for any page: homepage, landing or pricing page."),
		summary("hr-onboarding", "Automate employee onboarding for HR teams and HR directors."),
		summary("a", "Unrelated thing one."), summary("b", "Another unrelated skill."), summary("c", "Yet another."),
	})
	// The second sentence says what the product does: it matches more of
	// the other skill, but the ask is for copy.
	q := "Write homepage copy for our product. It automates employee onboarding."
	if got := names(ix.Search(ParseQuery(q), 2)); len(got) == 0 || got[0] != "copywriting" {
		t.Errorf("Search(%q) = %q, want copywriting first", q, got)
	}
}

func TestHitShowsTheNormalizedDescription(t *testing.T) {
	long := strings.Repeat("word ", 300)
	ix := Build([]skill.Summary{{Name: "a", Description: "Line one\n\tline  two " + long, Origin: "docs", OriginKind: skill.OriginWebsite}})
	h := ix.Search(ParseQuery("line"), 1)[0]
	if !strings.HasPrefix(h.Description, "Line one line two word") || len([]rune(h.Description)) != MaxDescriptionLength || !strings.HasSuffix(h.Description, "...") {
		t.Errorf("description %q (%d characters)", h.Description[:40], len([]rune(h.Description)))
	}
	if h.Origin != "docs" || h.OriginKind != skill.OriginWebsite {
		t.Errorf("origin %q of kind %v", h.Origin, h.OriginKind)
	}
}

// TestUpdatesEqualABuild: whatever updates an index went through, it
// finds what an index built at once from the same skills finds, with the
// same scores.
func TestUpdatesEqualABuild(t *testing.T) {
	pool := syntheticSkills(3, 300)
	w := newSyntheticWords(9, 20000)
	queries := make([]Query, 20)
	for i := range queries {
		queries[i] = ParseQuery(w.text(6))
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	current := map[string]skill.Summary{}
	ix := Empty()
	for round := range 60 {
		var upserts []skill.Summary
		var removed []string
		for range 1 + rnd.IntN(20) {
			s := pool[rnd.IntN(len(pool))]
			switch rnd.IntN(3) {
			case 0:
				removed = append(removed, s.Name)
				delete(current, s.Name)
			case 1:
				s.Description += fmt.Sprintf(" round %d", round)
				fallthrough
			default:
				upserts = append(upserts, s)
				current[s.Name] = s
			}
		}
		// An upsert and a removal of one name: the later one wins.
		upserts = slices.DeleteFunc(upserts, func(s skill.Summary) bool { _, ok := current[s.Name]; return !ok })
		upserts = lastOfEach(upserts)
		if round%7 == 0 {
			ix = Sync(ix, sortedValues(current))
		} else {
			ix = Update(ix, upserts, removed)
		}
		if ix.Len() != len(current) {
			t.Fatalf("round %d: index holds %d skills, want %d", round, ix.Len(), len(current))
		}
		if len(ix.segs) > maxSegments {
			t.Fatalf("round %d: %d segments", round, len(ix.segs))
		}
		fresh := Build(sortedValues(current))
		for _, q := range queries {
			if diff := cmp.Diff(fresh.Search(q, 10), ix.Search(q, 10)); diff != "" {
				t.Fatalf("round %d: an updated index differs from a fresh build (-fresh +updated):\n%s", round, diff)
			}
		}
	}
}

func lastOfEach(list []skill.Summary) []skill.Summary {
	seen := map[string]int{}
	var out []skill.Summary
	for _, s := range list {
		if i, ok := seen[s.Name]; ok {
			out[i] = s
			continue
		}
		seen[s.Name] = len(out)
		out = append(out, s)
	}
	return out
}

func sortedValues(m map[string]skill.Summary) []skill.Summary {
	out := make([]skill.Summary, 0, len(m))
	for _, s := range m {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func TestSyncAnalyzesOnlyWhatChanged(t *testing.T) {
	skills := syntheticSkills(4, 50)
	ix := Build(skills)
	if again := Sync(ix, skills); again != ix {
		t.Error("a sync with the same skills built a new index")
	}
	changed := slices.Clone(skills)
	changed[10].Description = "A new description."
	next := Sync(ix, changed)
	if len(next.segs) != 2 || len(next.segs[1].docs) != 1 || next.segs[1].docs[0].hit.Name != skills[10].Name {
		t.Errorf("a sync with one changed skill made %d segments, the last of %d documents", len(next.segs), len(next.segs[len(next.segs)-1].docs))
	}
	// The same description under another policy or provider is the same
	// document: those fields are not indexed.
	other := slices.Clone(skills)
	other[3].Provider, other[3].ArgumentHint = "elsewhere", "[x]"
	if Sync(ix, other) != ix {
		t.Error("a change of fields the index does not hold built a new index")
	}
	if next := Sync(ix, skills[:40]); next.Len() != 40 || len(next.segs) != 1 {
		t.Errorf("a sync that removed 10 of 50 holds %d skills in %d segments", next.Len(), len(next.segs))
	}
}

func TestBytesFollowTheHeap(t *testing.T) {
	skills := syntheticSkills(5, 2000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ix := Build(skills)
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := int(after.HeapAlloc) - int(before.HeapAlloc)
	if ix.Bytes() < heap/2 || ix.Bytes() > 2*heap {
		t.Errorf("Bytes %d, heap held %d: want within a factor of two", ix.Bytes(), heap)
	}
	runtime.KeepAlive(ix)
	runtime.KeepAlive(skills)
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"", "A/B test 'quoted material here please'", "x/y/z", "\xff\xfe", strings.Repeat("deploy ", 1000)} {
		f.Add(s)
	}
	ix := Build(library)
	f.Fuzz(func(t *testing.T, text string) {
		q := ParseQuery(text)
		for _, term := range q.terms {
			if term.term == "" || term.weight <= 0 || term.weight > 1 {
				t.Fatalf("term %+v", term)
			}
		}
		hits := ix.Search(q, 3)
		if len(hits) > 3 {
			t.Fatalf("%d hits", len(hits))
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score {
				t.Fatalf("hits out of order: %+v", hits)
			}
		}
	})
}

// TestCoordination: a skill's score is scaled by the share of the query's
// distinct terms it holds; quoted terms do not count.
func TestCoordination(t *testing.T) {
	ix := Build([]skill.Summary{summary("a", "Alpha things."), summary("b", "Other stuff.")})
	one := ix.Search(ParseQuery("alpha"), 1)[0].Score
	three := ix.Search(ParseQuery("alpha zeta omega"), 1)[0].Score
	if want := one * math.Pow(2.0/4, coordination); math.Abs(three-want) > 1e-4*want {
		t.Errorf("one of three terms scores %v, want %v (%v for one of one)", three, want, one)
	}
	quoted := ix.Search(ParseQuery("alpha: 'zeta omega sigma tau upsilon'"), 1)[0].Score
	if math.Abs(quoted-one) > 1e-4*one {
		t.Errorf("with quoted terms the score is %v, want %v", quoted, one)
	}
}

// TestPruningKeepsTheBest checks that a pruned search finds exactly what
// scoring every document finds, scores included, on indexes built in
// pieces (segments with replaced skills) and queries of every length,
// some quoting, some holding a skill's trigger phrase.
func TestPruningKeepsTheBest(t *testing.T) {
	pool := syntheticSkills(5, 600)
	rnd := rand.New(rand.NewPCG(3, 4))
	ix := Build(pool[:400])
	for i := range 5 {
		changed := slices.Clone(pool[400+40*i : 440+40*i])
		for range 10 {
			s := pool[rnd.IntN(400)]
			s.Description += " revised"
			changed = append(changed, s)
		}
		ix = Update(ix, changed, []string{pool[rnd.IntN(400)].Name})
	}
	if len(ix.segs) < 2 || ix.dead[0] == 0 {
		t.Fatalf("want an index of segments with replaced skills, have %d segments", len(ix.segs))
	}
	w := newSyntheticWords(5, 20000) // the skills' own vocabulary
	pruned := 0
	for i := range 400 {
		text := w.text(1 + rnd.IntN(16))
		switch i % 4 {
		case 1:
			text += ` "` + w.text(3) + `"`
		case 2: // a trigger phrase of some skill
			d := pool[rnd.IntN(len(pool))].Description
			text = d[strings.Index(d, "'")+1:] + " " + text
		}
		q := ParseQuery(text)
		limit := 1 + rnd.IntN(20)
		want := ix.search(q, limit, false)
		got := ix.search(q, limit, true)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("query %q, limit %d: pruning changed the hits (-every document +pruned):\n%s", text, limit, diff)
		}
		sc := new(scratch)
		sc.reset(ix.total)
		factor := sc.coordinationFactors(q)
		ix.score(q, sc, factor, limit, true)
		if sc.pruning {
			pruned++
		}
	}
	if pruned < 100 {
		t.Errorf("%d of 400 searches pruned: the test does not exercise pruning", pruned)
	}
}

// TestPruningWaitsForWhatIsLeft checks pruning on libraries built so that
// the best skill holds no rare word of the query, only several common ones
// in its name: a search that stopped scoring new skills once the rare
// word's skills led, before the common words' bounds allowed it, would
// miss it.
func TestPruningWaitsForWhatIsLeft(t *testing.T) {
	for fillers := range 40 {
		lib := []skill.Summary{
			summary("alpha", "Handles zeta files."),
			summary("beta-gamma-delta", "Beta gamma delta work: beta, gamma and delta."),
		}
		for i := range fillers {
			lib = append(lib, summary(fmt.Sprintf("filler-%02d", i), "Some beta, some gamma, some delta and more words besides."))
		}
		ix := Build(lib)
		for _, query := range []string{"zeta delta gamma beta", "delta zeta gamma", "zeta delta"} { // not in the name's order: no phrase bonus
			q := ParseQuery(query)
			for limit := 1; limit <= 3; limit++ {
				if diff := cmp.Diff(ix.search(q, limit, false), ix.search(q, limit, true)); diff != "" {
					t.Fatalf("%d fillers, query %q, limit %d: pruning changed the hits (-every document +pruned):\n%s", fillers, query, limit, diff)
				}
			}
		}
	}
}
