package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/cachereport/measure"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// TestReport runs the report and checks what its tables must keep showing,
// in each scenario: every share is in [0, 1]; every row bills each
// estimated token once, at one rate, and its parts add up to the whole,
// each byte in a part the breakdown names; no request of this project's
// adapters breaks the previous one's prefix, and each alternative breaks
// it once per change of skills; under each cache rule, this project's
// minimum share, and its lowest at a change, are well above both
// alternatives', and it reads a larger share of its input from the cache;
// the tables have a line per row. Each of this project's adapters
// (modelapi, eino, genkit) has a row, and a row is held to this project's
// invariants exactly when its name says it is this project's. Then the
// bill (checkBills), the long conversation (checkLong) and the
// relevant-skills message (checkRelevant).
func TestReport(t *testing.T) {
	results, err := run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	table := report(results)
	for _, sc := range scenarios() {
		var rs []result
		for _, r := range results {
			if r.sc.name == sc.name {
				rs = append(rs, r)
			}
		}
		t.Run(sc.name, func(t *testing.T) {
			checkRows(t, sc, rs)
			checkCache(t, sc, rs)
			checkBills(t, sc, rs)
			checkRelevant(t, sc, rs)
			if sc.overBudget {
				checkLong(t, sc, rs)
			}
			checkTables(t, table, sc, rs)
		})
	}
}

// checkTables checks that the report's section of a scenario has a line
// for each row in the cache table and in the bill table, and a column for
// each row on Anthropic's API in the breakdown.
func checkTables(t *testing.T, table string, sc *scenario, rs []result) {
	_, section, ok := strings.Cut(table, "### The "+sc.name+" conversation\n")
	if !ok {
		t.Fatalf("no section for the %s conversation:\n%s", sc.name, table)
	}
	section, _, _ = strings.Cut(section, "### ")
	for _, r := range rs {
		if n := strings.Count(section, "| "+r.name+" | "+r.api.name+" | "); n != 2 {
			t.Errorf("%d lines for %s, %s, want one in each table:\n%s", n, r.name, r.api.name, section)
		}
	}
	if n, want := strings.Count(section, "\n| "), 2*(len(rs)+1)+2; n < want {
		t.Errorf("the tables have %d lines, want at least %d (two heads and a line per row in two tables, the breakdown):\n%s", n, want, section)
	}
	head := section[strings.Index(section, "| part |"):]
	head, _, _ = strings.Cut(head, "\n")
	for _, r := range rs {
		if r.api.name == anthropicMessages().name && !strings.Contains(head, " "+r.name+" |") {
			t.Errorf("the breakdown has no column for %s: %s", r.name, head)
		}
	}
}

// checkRows checks each row's measure on its own.
func checkRows(t *testing.T, sc *scenario, rs []result) {
	for _, adapter := range []string{"hostsdk/modelapi", "hostsdk/eino", "hostsdk/genkit"} {
		if !slices.ContainsFunc(rs, func(r result) bool { return r.ours && strings.Contains(r.name, adapter) }) {
			t.Errorf("no row for %s", adapter)
		}
	}
	for _, r := range rs {
		if strings.HasPrefix(r.name, "skillcatalog, ") != r.ours {
			t.Errorf("%s, %s: ours is %v", r.name, r.api.name, r.ours)
		}
		if len(r.Shares) != sc.requests()-1 {
			t.Errorf("%s, %s: %d shares, want %d", r.name, r.api.name, len(r.Shares), sc.requests()-1)
		}
		for i, s := range r.Shares {
			if s < 0 || s > 1 {
				t.Errorf("%s, %s: request %d's share %v", r.name, r.api.name, i+2, s)
			}
		}
		c := r.Counts
		if c.Cached < 0 || c.Written < 0 || c.Uncached() < 0 || c.UncachedTokens()+c.CachedTokens()+c.WrittenTokens() != c.InputTokens() ||
			c.InputTokens() != float64(c.Bytes)/4 || (r.api.rule == measure.Automatic && c.Written != 0) {
			t.Errorf("%s, %s: %+v; tokens %v = %v + %v + %v", r.name, r.api.name, c, c.InputTokens(), c.CachedTokens(), c.WrittenTokens(), c.UncachedTokens())
		}
		var sum measure.Counts
		for p, pc := range r.Parts {
			sum = measure.Counts{Bytes: sum.Bytes + pc.Bytes, Cached: sum.Cached + pc.Cached, Written: sum.Written + pc.Written}
			if p == partOther && pc.Bytes != 0 {
				t.Errorf("%s, %s: %d bytes of text no part knows", r.name, r.api.name, pc.Bytes)
			}
		}
		if sum != c {
			t.Errorf("%s, %s: the parts add up to %+v, the whole is %+v", r.name, r.api.name, sum, c)
		}
		if r.outputSchemas != 0 {
			t.Errorf("%s, %s: %d requests carry an output schema of the plugin's tools", r.name, r.api.name, r.outputSchemas)
		}
		switch {
		case r.ours && r.Broken != 0:
			t.Errorf("%s, %s: %d requests do not extend the previous one", r.name, r.api.name, r.Broken)
		case !r.ours && r.Broken != sc.changes():
			t.Errorf("%s, %s: %d requests do not extend the previous one, want one per change (%d)", r.name, r.api.name, r.Broken, sc.changes())
		}
	}
}

// checkCache compares each of this project's rows with each alternative
// under the same cache rule.
func checkCache(t *testing.T, sc *scenario, rs []result) {
	for _, o := range rs {
		if !o.ours {
			continue
		}
		for _, a := range rs {
			if a.ours || a.api.rule != o.api.rule {
				continue
			}
			if o.Min() < a.Min()+0.4 || atChanges(o.Shares, sc) < atChanges(a.Shares, sc)+0.4 {
				t.Errorf("%s, %s: minimum share %.3f, %.3f at a change, not well above %s's %.3f and %.3f", o.name, o.api.name,
					o.Min(), atChanges(o.Shares, sc), a.name, a.Min(), atChanges(a.Shares, sc))
			}
			if o.CachedTokens()/o.InputTokens() <= a.CachedTokens()/a.InputTokens() {
				t.Errorf("%s, %s: reads %.3f of its input from the cache, %s %.3f", o.name, o.api.name,
					o.CachedTokens()/o.InputTokens(), a.name, a.CachedTokens()/a.InputTokens())
			}
		}
	}
}

// checkBills checks that each API's bill is its published prices applied
// to the row's counts, and that this project's rows cost less than both
// alternatives on the same API: every row that mounts the skill tool
// alone, as the alternatives offer it; in the long conversation, also the
// plugin as hostsdk.Open mounts it, with the skill_resource tool and
// `/name` (in the short one, the report says why it does not).
func checkBills(t *testing.T, sc *scenario, rs []result) {
	for _, r := range rs {
		want := measure.AnthropicPrices()
		if r.api.rule == measure.Automatic {
			want = measure.OpenAIPrices()
		}
		if r.api.prices != want || r.bill() != r.Bill(want) {
			t.Errorf("%s, %s: prices %+v, want %+v", r.name, r.api.name, r.api.prices, want)
		}
		if r.bill() <= 0 || r.bill() >= r.InputTokens() {
			t.Errorf("%s, %s: bill %v of %v input tokens", r.name, r.api.name, r.bill(), r.InputTokens())
		}
	}
	apis := map[string]int{}
	for _, o := range rs {
		if !o.ours || (strings.HasSuffix(o.name, asOpenMounts) && !sc.overBudget) {
			continue
		}
		for _, a := range rs {
			if a.ours || a.api.name != o.api.name {
				continue
			}
			apis[a.api.name]++
			if o.bill() >= a.bill() {
				t.Errorf("%s, %s: bill %.0f, not below %s's %.0f", o.name, o.api.name, o.bill(), a.name, a.bill())
			}
		}
	}
	for _, api := range []modelAPI{anthropicMessages(), chatCompletions(), responsesAPI()} {
		if apis[api.name] == 0 {
			t.Errorf("no bill of this project's compared with an alternative's on %s", api.name)
		}
	}
}

// checkLong checks that the long conversation is one: past 100,000 tokens
// at its end, with rare changes of skills.
func checkLong(t *testing.T, sc *scenario, rs []result) {
	if sc.changes() == 0 || len(sc.turns) < 16*sc.changes() {
		t.Errorf("%d changes in %d turns: not rare", sc.changes(), len(sc.turns))
	}
	for _, r := range rs {
		if last := measure.Tokens(r.LastBytes); last <= 100_000 {
			t.Errorf("%s, %s: the last request has %.0f tokens, want more than 100,000", r.name, r.api.name, last)
		}
	}
}

// checkRelevant checks where the relevant-skills message appears: in the
// long conversation, whose catalog is over its budget, this project's rows
// with relevantSkills "auto" get one at each turn the model loads a skill
// in, and it names that skill; nowhere else (not in the short
// conversation, whose catalog is within its budget; not with "off"; not in
// the alternatives) is there one.
func checkRelevant(t *testing.T, sc *scenario, rs []result) {
	first := sc.firstRequests()
	for _, r := range rs {
		on := r.ours && sc.overBudget && r.mount.RelevantSkills != contract.RelevantOff
		if got := r.Parts[partRelevant].Bytes > 0; got != on {
			t.Errorf("%s, %s: relevant-skills messages %v, want %v", r.name, r.api.name, got, on)
		}
		for i, tu := range sc.turns {
			named := r.suggested[first[i]]
			switch {
			case on && tu.load != "" && !slices.Contains(named, tu.load):
				t.Errorf("%s, %s: turn %d loads %s; the relevant-skills message names %v", r.name, r.api.name, i+1, tu.load, named)
			case !on && len(named) > 0:
				t.Errorf("%s, %s: turn %d has a relevant-skills message naming %v", r.name, r.api.name, i+1, named)
			}
		}
		for i, named := range r.suggested {
			if len(named) > 0 && !slices.Contains(first, i) {
				t.Errorf("%s, %s: request %d, not at a user's turn, adds a relevant-skills message naming %v", r.name, r.api.name, i+1, named)
			}
		}
	}
}
