package main

import (
	"fmt"
	"strings"
)

// report returns the results as a Markdown table, with a line on how the
// numbers are made.
func report(results []result) string {
	var b strings.Builder
	turns := conversation()
	var at []string
	for i, t := range turns {
		if t.change != nil {
			at = append(at, fmt.Sprint(i+1))
		}
	}
	fmt.Fprintf(&b, "%d model calls (%d turns: the model loads a skill, then answers); the skills on disk change before turns %s.\n"+
		"Prefix share: the part of a request's prompt (tools, system prompt, messages) that repeats the previous request's byte for byte.\n"+
		"Tokens: bytes/4. Cached: for Anthropic, the repeated prefix up to the last of the previous request's breakpoints within it; "+
		"for OpenAI, the whole repeated prefix; no minimum length applied.\n\n", 2*len(turns), len(turns), strings.Join(at, ", "))
	b.WriteString("| how the model gets its skills | API | prefix share, median | minimum | lowest at a change | " +
		"requests that extend the previous | input tokens | at the full rate | at the cached rate |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d of %d | %s | %s | %s |\n",
			r.name, r.api.name, percent(r.Median()), percent(r.Min()), percent(atChanges(r.Shares, turns)),
			len(r.Shares)-r.Broken, len(r.Shares),
			thousands(r.InputTokens()), thousands(r.FullTokens()),
			thousands(r.CachedTokens())+" ("+percent(r.CachedTokens()/r.InputTokens())+")")
	}
	return b.String()
}

// atChanges returns the lowest share among the first requests of the turns
// that follow a change of skills.
func atChanges(shares []float64, turns []turn) float64 {
	lowest := 1.0
	for i, t := range turns {
		if t.change != nil && i > 0 && 2*i-1 < len(shares) {
			lowest = min(lowest, shares[2*i-1])
		}
	}
	return lowest
}

func percent(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// thousands formats a token estimate to the token, with thousands
// separators.
func thousands(tokens float64) string {
	s := fmt.Sprintf("%.0f", tokens)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
