package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk/cachereport/measure"
)

// report returns the results as Markdown: for each scenario, a line on
// its conversation, the cache table, the bill table and, for Anthropic's
// API, where the input and the bill go, part by part.
func report(results []result) string {
	var b strings.Builder
	b.WriteString("Prefix share: the part of a request's prompt (tools, system prompt, messages) that repeats the previous request's byte for byte.\n\n" +
		"Tokens: the text the API reads (the JSON, its strings' escapes decoded), in bytes, /4. Read from the cache: for Anthropic, the repeated prefix up to the last of the previous request's breakpoints within it; " +
		"for OpenAI, the whole repeated prefix; no minimum length applied. Written: for Anthropic, the rest up to the request's last breakpoint.\n\n" +
		"Bill: the input in tokens at the plain input rate, at the published ratios: Anthropic's cache writes 1.25×, cache reads 0.1×; OpenAI's cached input 0.1× (GPT-5 family).\n")
	for _, sc := range scenarios() {
		var rs []result
		for _, r := range results {
			if r.sc.name == sc.name {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### The %s conversation\n\n%s\n\n", sc.name, sc.describe())
		b.WriteString(cacheTable(rs))
		b.WriteString("\n")
		b.WriteString(billTable(rs))
		b.WriteString("\n")
		b.WriteString(partsTable(rs, anthropicMessages().name))
	}
	return b.String()
}

// describe says what the scenario's conversation is, in a line.
func (s *scenario) describe() string {
	loads := 0
	var at []string
	for i, t := range s.turns {
		if t.load != "" {
			loads++
		}
		if t.change != nil {
			at = append(at, fmt.Sprint(i+1))
		}
	}
	turns := fmt.Sprintf("in %d the model loads a skill, then answers, in the others it answers", loads)
	if loads == len(s.turns) {
		turns = "in each the model loads a skill, then answers"
	}
	return fmt.Sprintf("%d model calls (%d turns; %s); %d skills on disk; they change before turns %s.",
		s.requests(), len(s.turns), turns, len(s.skills), strings.Join(at, ", "))
}

// cacheTable returns what the cache makes of each row's requests.
func cacheTable(rs []result) string {
	var b strings.Builder
	b.WriteString("| how the model gets its skills | API | prefix share, median | minimum | lowest at a change | " +
		"requests that extend the previous | input tokens | read from the cache | last request |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d of %d | %s | %s (%s) | %s |\n",
			r.name, r.api.name, percent(r.Median()), percent(r.Min()), percent(atChanges(r.Shares, r.sc)),
			len(r.Shares)-r.Broken, len(r.Shares), thousands(r.InputTokens()),
			thousands(r.CachedTokens()), percent(r.CachedTokens()/r.InputTokens()), thousands(measure.Tokens(r.LastBytes)))
	}
	return b.String()
}

// billTable returns each row's bill, and how it compares with the
// cheapest alternative on the same API.
func billTable(rs []result) string {
	var b strings.Builder
	b.WriteString("| how the model gets its skills | API | read from the cache | written to the cache | at the input rate | bill | vs the cheapest alternative | " +
		"bill at older OpenAI models' 0.25× / 0.5× |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		vs, older := "—", "—"
		if alt, ok := cheapestAlternative(rs, r.api.name); ok && r.ours {
			vs = signedPercent(r.bill()/alt.bill() - 1)
		}
		if r.api.rule == measure.Automatic {
			older = thousands(r.Bill(measure.Prices{Read: 0.25, Write: 1})) + " / " + thousands(r.Bill(measure.Prices{Read: 0.5, Write: 1}))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, r.api.name,
			thousands(r.CachedTokens()), thousands(r.WrittenTokens()), thousands(r.UncachedTokens()), thousands(r.bill()), vs, older)
	}
	return b.String()
}

// bill is the row's bill at its API's published prices.
func (r result) bill() float64 { return r.Bill(r.api.prices) }

// cheapestAlternative returns the alternative with the lowest bill on an
// API.
func cheapestAlternative(rs []result, api string) (result, bool) {
	var best result
	found := false
	for _, r := range rs {
		if !r.ours && r.api.name == api && (!found || r.bill() < best.bill()) {
			best, found = r, true
		}
	}
	return best, found
}

// partsTable returns where the input and the bill of the rows on one API
// go: a line per part, a column per row, each cell the part's input
// tokens and its share of the bill.
func partsTable(rs []result, api string) string {
	var cols []result
	for _, r := range rs {
		if r.api.name == api {
			cols = append(cols, r)
		}
	}
	var parts []string
	for _, r := range cols {
		for p := range r.Parts {
			if !slices.Contains(parts, p) {
				parts = append(parts, p)
			}
		}
	}
	slices.SortFunc(parts, func(a, b string) int {
		if d := partOrder(a) - partOrder(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Where the input goes (%s): input tokens / their bill.\n\n| part |", api)
	for _, r := range cols {
		b.WriteString(" " + r.name + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(cols)) + "\n")
	for _, p := range append(parts, "all") {
		name := p
		if p == partJSON {
			name = "JSON structure (messages, blocks, members)"
		}
		fmt.Fprintf(&b, "| %s |", name)
		for _, r := range cols {
			c, ok := r.Parts[p]
			if p == "all" {
				c, ok = r.Counts, true
			}
			if !ok || c.Bytes == 0 {
				b.WriteString(" — |")
				continue
			}
			fmt.Fprintf(&b, " %s / %s |", thousands(c.InputTokens()), thousands(c.Bill(r.api.prices)))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// partOrder places a part in the breakdown: the tools, then the texts in
// the order a request holds them, the JSON last.
func partOrder(p string) int {
	order := []string{partSystem, partFixed, partEntries, partReplaceFixed, partReplaceEntries, partRelevant,
		partUser, partCalls, partWrapper, partInstructions, partAnswers, partOther, partJSON}
	if i := slices.Index(order, p); i >= 0 {
		return i + 1
	}
	return 0 // a tool's definition
}

// atChanges returns the lowest share among the first requests of the turns
// that follow a change of skills.
func atChanges(shares []float64, sc *scenario) float64 {
	lowest := 1.0
	first := sc.firstRequests()
	for i, t := range sc.turns {
		if t.change != nil && first[i] > 0 && first[i]-1 < len(shares) {
			lowest = min(lowest, shares[first[i]-1])
		}
	}
	return lowest
}

func percent(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

func signedPercent(f float64) string { return fmt.Sprintf("%+.1f%%", 100*f) }

// thousands formats a token estimate to the token, with thousands
// separators.
func thousands(tokens float64) string {
	s := fmt.Sprintf("%.0f", tokens)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}
