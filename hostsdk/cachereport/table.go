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
	fmt.Fprintf(&b, "%d model calls (%d turns: load a skill, answer), %d changes of the skills on disk. "+
		"Tokens are estimated as bytes/4 of each request's prompt (tools, system prompt, messages).\n\n",
		2*len(turns), len(turns), changes(turns))
	b.WriteString("| how the model gets its skills | API (what its cache reads) | prefix share, median | minimum | " +
		"requests that extend the previous | input tokens | at the full rate | at the cached rate |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		fmt.Fprintf(&b, "| %s | %s (%s) | %s | %s | %d of %d | %s | %s | %s |\n",
			r.name, r.api.name, r.api.rule, percent(r.Median()), percent(r.Min()),
			len(r.Shares)-r.Broken, len(r.Shares),
			thousands(r.InputTokens()), thousands(r.FullTokens()),
			thousands(r.CachedTokens())+" ("+percent(r.CachedTokens()/r.InputTokens())+")")
	}
	return b.String()
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
