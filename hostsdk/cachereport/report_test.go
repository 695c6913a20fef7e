package main

import (
	"slices"
	"strings"
	"testing"
)

// TestReport runs the report and checks what its table must keep showing:
// every share is in [0, 1] and every row bills each estimated token once,
// at one rate or the other; no request of this project's adapters breaks
// the previous one's prefix, and each alternative breaks it once per
// change of skills; under each cache rule, this project's minimum share,
// and its lowest at a change, are well above both alternatives', and it
// reads a larger share of its input from the cache; the table has a line
// per row. Each of this project's adapters (modelapi, eino, genkit) has a
// row, and a row is held to this project's invariants exactly when its
// name says it is this project's.
func TestReport(t *testing.T) {
	results, err := run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	turns := conversation()
	for _, adapter := range []string{"hostsdk/modelapi", "hostsdk/eino", "hostsdk/genkit"} {
		if !slices.ContainsFunc(results, func(r result) bool { return r.ours && strings.Contains(r.name, adapter) }) {
			t.Errorf("no row for %s", adapter)
		}
	}
	for _, r := range results {
		if strings.HasPrefix(r.name, "skillcatalog, ") != r.ours {
			t.Errorf("%s, %s: ours is %v", r.name, r.api.name, r.ours)
		}
		if len(r.Shares) != 2*len(turns)-1 {
			t.Errorf("%s, %s: %d shares, want %d", r.name, r.api.name, len(r.Shares), 2*len(turns)-1)
		}
		for i, s := range r.Shares {
			if s < 0 || s > 1 {
				t.Errorf("%s, %s: request %d's share %v", r.name, r.api.name, i+2, s)
			}
		}
		if r.CachedBytes < 0 || r.CachedBytes > r.Bytes || r.FullTokens()+r.CachedTokens() != r.InputTokens() || r.InputTokens() != float64(r.Bytes)/4 {
			t.Errorf("%s, %s: %d bytes, %d cached; tokens %v = %v + %v", r.name, r.api.name, r.Bytes, r.CachedBytes, r.InputTokens(), r.FullTokens(), r.CachedTokens())
		}
		switch {
		case r.ours && r.Broken != 0:
			t.Errorf("%s, %s: %d requests do not extend the previous one", r.name, r.api.name, r.Broken)
		case !r.ours && r.Broken != changes(turns):
			t.Errorf("%s, %s: %d requests do not extend the previous one, want one per change (%d)", r.name, r.api.name, r.Broken, changes(turns))
		}
	}
	for _, o := range results {
		if !o.ours {
			continue
		}
		for _, a := range results {
			if a.ours || a.api.rule != o.api.rule {
				continue
			}
			if o.Min() < a.Min()+0.4 || atChanges(o.Shares, turns) < atChanges(a.Shares, turns)+0.4 {
				t.Errorf("%s, %s: minimum share %.3f, %.3f at a change, not well above %s's %.3f and %.3f", o.name, o.api.name,
					o.Min(), atChanges(o.Shares, turns), a.name, a.Min(), atChanges(a.Shares, turns))
			}
			if o.CachedTokens()/o.InputTokens() <= a.CachedTokens()/a.InputTokens() {
				t.Errorf("%s, %s: reads %.3f of its input from the cache, %s %.3f", o.name, o.api.name,
					o.CachedTokens()/o.InputTokens(), a.name, a.CachedTokens()/a.InputTokens())
			}
		}
	}
	table := report(results)
	for _, r := range results {
		if !strings.Contains(table, "| "+r.name+" | "+r.api.name+" | ") {
			t.Errorf("the table has no line for %s, %s:\n%s", r.name, r.api.name, table)
		}
	}
	if n := strings.Count(table, "\n| "); n != len(results)+1 {
		t.Errorf("the table has %d lines, want a head and %d rows:\n%s", n, len(results), table)
	}
}
