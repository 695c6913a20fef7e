package plugin

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/internal/modeltext"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// websiteSummary is a website's skill as the host lists it: remoteSummary's
// skill, of a site rather than an MCP server.
func websiteSummary(name, desc, origin, path string) skill.Summary {
	s := remoteSummary(name, desc, origin, path)
	s.OriginKind = skill.OriginWebsite
	return s
}

// recordedKind is the kind a catalog records for a listed skill, written
// out for the tests: a website's origin is recorded as one, anything else
// as an MCP server's, or no origin at all.
func recordedKind(s skill.Summary) digest.OriginKind {
	if s.Origin != "" && s.OriginKind == skill.OriginWebsite {
		return digest.OriginWebsite
	}
	return digest.OriginMCPServer
}

// TestWebsiteSkillsInTheCatalog: a website's skill is named as one on its
// line, its record entry and digest carry the kind, and the catalog ends
// with the sentence of the kinds it lists: a website's alone, or the mixed
// one beside an MCP server's. The same skill from an MCP server of the same
// label is another catalog.
func TestWebsiteSkillsInTheCatalog(t *testing.T) {
	local := summary("alpha", "Local & fine.")
	web := websiteSummary("wrangler", "Deploy <Workers>.", "docs", "wrangler")
	mcp := remoteSummary("refunds", "Process refunds.", "billing", "refunds")
	for _, deltas := range []bool{false, true} {
		h := newMemHost(local, web)
		h.deltas = deltas
		e := newEngine()
		m := testMount()

		req := step(h, enter())
		final := h.apply(t, req, mustPreStep(t, e, h, m, req))
		entries := []digest.Entry{
			{Name: "alpha", Description: "Local & fine."},
			{Name: "wrangler", Description: "Deploy <Workers>.", Origin: "docs", OriginKind: digest.OriginWebsite},
		}
		want := render.WithRemoteSkillsNote(render.InitialCatalog(entries), render.RemoteOrigins{Websites: true})
		if len(final) != 1 || final[0].Text() != want {
			t.Fatalf("deltas %v: initial catalog (-want +got):\n%s", deltas, cmp.Diff(want, final[len(final)-1].Text()))
		}
		if !strings.Contains(want, "-`wrangler` (website `docs`): Deploy &lt;Workers&gt;.\n") || !strings.Contains(want, render.WebsiteSkillsNote) || strings.Contains(want, "MCP server") {
			t.Fatalf("deltas %v: the website's catalog:\n%s", deltas, want)
		}
		if err := modeltext.Catalog(final[0].Text(), []modeltext.Entry{{Name: "alpha"}, {Name: "wrangler", Origin: modeltext.Website("docs")}}); err != nil {
			t.Error(err)
		}
		if pub := published(final); len(pub) != 1 || !slices.Equal(pub[0].Entries, entries) || pub[0].Digest != digest.Of(entries) {
			t.Errorf("deltas %v: published %+v, want %v", deltas, pub, entries)
		}
		req = step(h, enter())
		if resp := mustPreStep(t, e, h, m, req); resp.Outcome != contract.OutcomeUnchanged {
			t.Errorf("deltas %v: second step %s, want unchanged", deltas, resp.Outcome)
		}

		// An MCP server's skill joins: the mixed sentence.
		h.skills, h.token = []skill.Summary{local, mcp, web}, "tok-2"
		req = step(h, enter())
		final = h.apply(t, req, mustPreStep(t, e, h, m, req))
		mixed := []digest.Entry{entries[0], {Name: "refunds", Description: "Process refunds.", Origin: "billing"}, entries[1]}
		want = render.WithRemoteSkillsNote(render.ReplacementCatalog(mixed), render.RemoteOrigins{MCPServers: true, Websites: true})
		if len(final) != 1 || final[0].Text() != want || !strings.Contains(want, render.MixedRemoteSkillsNote) {
			t.Fatalf("deltas %v: mixed catalog (-want +got):\n%s", deltas, cmp.Diff(want, final[len(final)-1].Text()))
		}

		// The website's skill now comes from an MCP server of the same
		// label: another catalog, with the MCP servers' sentence.
		moved := web
		moved.OriginKind = skill.OriginMCPServer
		h.skills, h.token = []skill.Summary{local, mcp, moved}, "tok-3"
		req = step(h, enter())
		resp := mustPreStep(t, e, h, m, req)
		final = h.apply(t, req, resp)
		servers := []digest.Entry{mixed[0], mixed[1], {Name: "wrangler", Description: "Deploy <Workers>.", Origin: "docs"}}
		want = render.WithRemoteSkillsNote(render.ReplacementCatalog(servers), render.RemoteOrigins{MCPServers: true})
		if resp.Outcome != contract.OutcomeReplacement || len(final) != 1 || final[0].Text() != want {
			t.Fatalf("deltas %v: after the kind changed %s (-want +got):\n%s", deltas, resp.Outcome, cmp.Diff(want, final[len(final)-1].Text()))
		}
		if pub := published(final); pub[0].Digest == digest.Of(mixed) || pub[0].Digest != digest.Of(servers) {
			t.Errorf("deltas %v: a change of kind kept the digest", deltas)
		}
	}
}

// TestWebsiteSkillsUnderABudget: fitting a catalog keeps each entry's kind,
// and measures a website's line by its own mark; a budget that leaves every
// website's skill out ends the catalog with the MCP servers' sentence.
func TestWebsiteSkillsUnderABudget(t *testing.T) {
	skills := []skill.Summary{
		summary("alpha", strings.Repeat("Alpha does a lot of things. ", 4)),
		websiteSummary("beta", strings.Repeat("Beta is a site's & long. ", 4), "docs", "beta"),
		remoteSummary("gamma", "Short.", "other", "gamma"),
		websiteSummary("zeta", "Last.", "web", "zeta"),
	}
	var entries []digest.Entry
	for _, s := range skills {
		entries = append(entries, digest.Entry{Name: s.Name, Description: render.NormalizeDescription(s.Description, render.DefaultDescriptionMaxLength), Origin: s.Origin, OriginKind: recordedKind(s)})
	}
	for _, budget := range []int{200, 100} {
		h := newMemHost(skills...)
		e := newEngine()
		req := step(h, enter())
		final := h.apply(t, req, mustPreStep(t, e, h, budgetMount(budget), req))
		pub := published(final)
		if len(pub) != 1 {
			t.Fatalf("budget %d: %d catalogs published", budget, len(pub))
		}
		fit, err := render.FitCatalog(entries, budget)
		if err != nil || fit.NumShortened == 0 {
			t.Fatalf("budget %d: the budget does not shorten anything (%v); the test needs it to", budget, err)
		}
		if diff := cmp.Diff(fit.Entries, pub[0].Entries); diff != "" {
			t.Errorf("budget %d: published entries (-want +got):\n%s", budget, diff)
		}
		lines := make([][]byte, len(fit.Entries))
		for i, e := range fit.Entries {
			lines[i] = render.AppendEntryLine(nil, e)
		}
		want := render.AssembleCatalogSeq(slices.Values(lines), false, fit.Omitted, render.CatalogNotes{Remote: render.RemoteOriginsOf(fit.Entries)})
		if final[0].Text() != want {
			t.Errorf("budget %d: budgeted catalog (-want +got):\n%s", budget, cmp.Diff(want, final[0].Text()))
		}
		if pub[0].Digest != digest.OfOmitting(fit.Entries, fit.Omitted) {
			t.Errorf("budget %d: the record's digest is not the fitted entries'", budget)
		}
		if again := mustPreStep(t, e, h, budgetMount(budget), step(h, enter())); again.Outcome != contract.OutcomeUnchanged {
			t.Errorf("budget %d: second budgeted step %s, want unchanged", budget, again.Outcome)
		}
	}
}

// TestWebsiteSkillLoaded: a website's skill loads as one, by its
// definition's kind or, when the definition carries no origin, by its
// listing's, and its value says so.
func TestWebsiteSkillLoaded(t *testing.T) {
	sum := websiteSummary("docs:acme/wrangler", "Deploy.", "docs", "acme/wrangler")
	for _, listingOnly := range []bool{false, true} {
		h := newMemHost(sum)
		def := skill.Definition{Summary: sum, ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: "skill://wrangler/"}, Content: "Run <wrangler> & deploy."}
		if listingOnly {
			def.Origin, def.OriginKind, def.QualifiedName = "", skill.OriginMCPServer, ""
		}
		h.defs[sum.Name] = def
		resp, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(`{"name":"docs:acme/wrangler"}`)})
		if err != nil {
			t.Fatal(err)
		}
		want := def.ToolValue()
		want.Origin, want.OriginKind = "docs", skill.OriginWebsite
		wantText, err := render.SkillContent(want, false)
		if err != nil {
			t.Fatal(err)
		}
		if resp.IsError || resp.Text != wantText {
			t.Errorf("listing only %v: result %q (error %v), want %q", listingOnly, resp.Text, resp.IsError, wantText)
		}
		if shown, err := modeltext.RemoteSkillContent(resp.Text, "docs:acme/wrangler", modeltext.Website("docs")); err != nil || shown != "Run &lt;wrangler&gt; &amp; deploy." {
			t.Errorf("listing only %v: %q, %v", listingOnly, shown, err)
		}
		if resp.Value == nil || !cmp.Equal(*resp.Value, want) {
			t.Errorf("listing only %v: value %+v, want %+v", listingOnly, resp.Value, want)
		}
	}
}

// TestOriginsOfUnknownKinds: a summary whose origin is of a kind the plugin
// does not know is left out of the catalog, as one whose label is not a
// label; a definition of such a kind is refused, not shown as another.
func TestOriginsOfUnknownKinds(t *testing.T) {
	odd := remoteSummary("odd", "Of an unknown kind.", "docs", "odd")
	odd.OriginKind = skill.OriginKind(7)
	h := newMemHost(summary("alpha", "A."), odd)
	req := step(h, enter())
	final := h.apply(t, req, mustPreStep(t, newEngine(), h, testMount(), req))
	if pub := published(final); len(pub) != 1 || !slices.Equal(pub[0].Entries, []digest.Entry{{Name: "alpha", Description: "A."}}) {
		t.Errorf("published %+v, want alpha alone", pub)
	}

	web := websiteSummary("web", "A site's.", "docs", "web")
	h = newMemHost(web)
	def := skill.Definition{Summary: web, Content: "x"}
	def.OriginKind = skill.OriginKind(7)
	h.defs["web"] = def
	resp, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(`{"name":"web"}`)})
	want := string(render.ProviderFailedUntrusted(render.CheckOriginKind("web", "docs", skill.OriginKind(7)).Error()))
	if err != nil || !resp.IsError || resp.Text != want {
		t.Errorf("a definition of an unknown kind: %q, %v; want %q", resp.Text, err, want)
	}
}

// TestCatalogRecordsWithKindsRead: after a restart, a record whose entries
// carry a website's kind decides like the view it came from; a record of
// the same entries from an MCP server is another catalog.
func TestCatalogRecordsWithKindsRead(t *testing.T) {
	skills := []skill.Summary{summary("alpha", "A."), websiteSummary("beta", "B.", "docs", "beta")}
	h := newMemHost(skills...)
	h.appendSource(events.EncodeCatalog([]digest.Entry{{Name: "alpha", Description: "A."}, {Name: "beta", Description: "B.", Origin: "docs", OriginKind: digest.OriginWebsite}}, false))
	if resp := mustPreStep(t, newEngine(), h, testMount(), step(h, enter())); resp.Outcome != contract.OutcomeUnchanged {
		t.Errorf("resumed with the same website catalog: %s, want unchanged", resp.Outcome)
	}
	h.events = nil
	h.appendSource(events.EncodeCatalog([]digest.Entry{{Name: "alpha", Description: "A."}, {Name: "beta", Description: "B.", Origin: "docs"}}, false))
	req := step(h, enter())
	resp := mustPreStep(t, newEngine(), h, testMount(), req)
	if resp.Outcome != contract.OutcomeReplacement {
		t.Fatalf("resumed with beta recorded as an MCP server's: %s, want replacement", resp.Outcome)
	}
	if final := h.apply(t, req, resp); len(final) != 1 || !strings.Contains(final[0].Text(), "-`beta` (website `docs`): B.\n") || !strings.Contains(final[0].Text(), render.WebsiteSkillsNote) {
		t.Errorf("the replacement: %+v", final)
	}
}

// TestWebsiteResourcePage: a website's skill's file is shown as a website's
// page, by the listing's kind or, for a read the snapshot cannot place, by
// the loaded definition's.
func TestWebsiteResourcePage(t *testing.T) {
	for _, incomplete := range []bool{false, true} {
		web := websiteSummary("wrangler", "Deploy.", "docs", "wrangler")
		h := newResHost(web)
		h.defs["wrangler"] = skill.Definition{Summary: web, ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: "skill://wrangler/"}, Content: "x"}
		h.files["wrangler/a.md"] = "a <b> & c"
		h.complete = !incomplete
		res := readCall(t, h, `{"name":"wrangler","path":"a.md"}`)
		if res.IsError || res.Resource == nil {
			t.Fatalf("incomplete %v: %q", incomplete, res.Text)
		}
		if want := render.ResourcePageFrom(*res.Resource, "docs", skill.OriginWebsite); res.Text != want {
			t.Errorf("incomplete %v: page %q, want %q", incomplete, res.Text, want)
		}
		if shown, err := modeltext.RemoteResourcePage(res.Text, "wrangler", modeltext.Website("docs")); err != nil || shown != "a &lt;b&gt; &amp; c" {
			t.Errorf("incomplete %v: %q, %v", incomplete, shown, err)
		}
	}
}

// TestWebsiteSkillInvokedByTheUser: a user's /name of a website's skill
// adds its block naming the site, also when only its listing says where it
// comes from.
func TestWebsiteSkillInvokedByTheUser(t *testing.T) {
	for _, listingOnly := range []bool{false, true} {
		h, m := hostileWorld("Deploy <now> & then.")
		web := websiteSummary("refunds", "Refunds.", "docs", "refunds")
		h.skills[0] = web
		def := h.defs["refunds"]
		def.Summary = web
		if listingOnly {
			def.Origin, def.OriginKind, def.QualifiedName = "", skill.OriginMCPServer, ""
		}
		h.defs["refunds"] = def
		shown, err := modeltext.RemoteSkillContent(invoked(t, newEngine(), h, m, "refunds"), "refunds", modeltext.Website("docs"))
		if err != nil || shown != "Deploy &lt;now&gt; &amp; then." {
			t.Errorf("listing only %v: /refunds message: %q, %v", listingOnly, shown, err)
		}
	}
}
