package plugin

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// remoteSummary is a remote skill as the host lists it: under name (its
// plain name, or its qualified name after a collision), served at path by
// the server labelled origin.
func remoteSummary(name, desc, origin, path string) skill.Summary {
	s := summary(name, desc)
	s.Provider, s.Origin, s.QualifiedName = origin, origin, skill.QualifiedName(origin, path)
	return s
}

// TestRemoteSkillsInTheCatalog: a remote skill's entry carries its origin
// in the record and the digest, its line names the server, and a catalog
// listing one ends with the sentence saying what that means; a skill that
// moves between origins is a change, and a catalog of local skills only is
// what it always was.
func TestRemoteSkillsInTheCatalog(t *testing.T) {
	local := summary("alpha", "Local & fine.")
	refunds := remoteSummary("refunds", "Process refunds <per policy>.", "docs", "refunds")
	qualified := remoteSummary("docs:acme/audit", "Audit a ledger.", "docs", "acme/audit")
	entries := []digest.Entry{
		{Name: "alpha", Description: "Local & fine."},
		{Name: "docs:acme/audit", Description: "Audit a ledger.", Origin: "docs"},
		{Name: "refunds", Description: "Process refunds <per policy>.", Origin: "docs"},
	}
	for _, deltas := range []bool{false, true} {
		h := newMemHost(local, refunds, qualified)
		h.deltas = deltas
		e := newEngine()
		m := testMount()
		m.cfg.UserInvocation = true

		req := step(h, enter())
		final := h.apply(t, req, mustPreStep(t, e, h, m, req))
		if len(final) != 1 {
			t.Fatalf("deltas %v: %d messages, want the initial catalog", deltas, len(final))
		}
		want := render.WithUserInvocationNote(render.WithRemoteSkillsNote(render.InitialCatalog(entries), render.RemoteOrigins{MCPServers: true}))
		if got := final[0].Text(); got != want {
			t.Errorf("deltas %v: initial catalog (-want +got):\n%s", deltas, cmp.Diff(want, got))
		}
		if pub := published(final); len(pub) != 1 || !slices.Equal(pub[0].Entries, entries) || pub[0].Digest != digest.Of(entries) {
			t.Errorf("deltas %v: published %+v, want %v", deltas, pub, entries)
		}

		req = step(h, enter())
		if resp := mustPreStep(t, e, h, m, req); resp.Outcome != contract.OutcomeUnchanged {
			t.Errorf("deltas %v: second step %s, want unchanged", deltas, resp.Outcome)
		}

		// The same name and description served by this host now: another
		// catalog, of local skills only, without the sentence.
		moved := summary("refunds", refunds.Description)
		h.skills, h.token = []skill.Summary{local, moved}, "tok-2"
		req = step(h, enter())
		resp := mustPreStep(t, e, h, m, req)
		final = h.apply(t, req, resp)
		localEntries := []digest.Entry{entries[0], {Name: "refunds", Description: "Process refunds <per policy>."}}
		want = render.WithUserInvocationNote(render.ReplacementCatalog(localEntries))
		if resp.Outcome != contract.OutcomeReplacement || len(final) != 1 || final[0].Text() != want {
			t.Fatalf("deltas %v: after the move %s, %d messages:\n%s\nwant:\n%s", deltas, resp.Outcome, len(final), final[0].Text(), want)
		}
		if strings.Contains(final[0].Text(), "MCP server") {
			t.Errorf("deltas %v: a catalog of local skills names an MCP server", deltas)
		}
	}
}

// TestRemoteSkillsUnderABudget: fitting a catalog keeps every entry's
// origin, in the text, the record and the digest.
func TestRemoteSkillsUnderABudget(t *testing.T) {
	skills := []skill.Summary{
		summary("alpha", strings.Repeat("Alpha does a lot of things. ", 4)),
		remoteSummary("beta", strings.Repeat("Beta is remote & long. ", 4), "docs", "team/beta"),
		remoteSummary("gamma", "Short.", "other", "gamma"),
	}
	h := newMemHost(skills...)
	e := newEngine()
	req := step(h, enter())
	final := h.apply(t, req, mustPreStep(t, e, h, budgetMount(160), req))
	pub := published(final)
	if len(pub) != 1 {
		t.Fatalf("%d catalogs published", len(pub))
	}
	var entries []digest.Entry
	for _, s := range skills {
		entries = append(entries, digest.Entry{Name: s.Name, Description: render.NormalizeDescription(s.Description, render.DefaultDescriptionMaxLength), Origin: s.Origin})
	}
	fit, err := render.FitCatalog(entries, 160)
	if err != nil || fit.NumShortened == 0 {
		t.Fatalf("the budget does not shorten anything (%v); the test needs it to", err)
	}
	if diff := cmp.Diff(fit.Entries, pub[0].Entries); diff != "" {
		t.Errorf("published entries (-want +got):\n%s", diff)
	}
	if want := render.WithRemoteSkillsNote(render.InitialCatalog(fit.Entries), render.RemoteOrigins{MCPServers: true}); final[0].Text() != want {
		t.Errorf("budgeted catalog (-want +got):\n%s", cmp.Diff(want, final[0].Text()))
	}
	if pub[0].Digest != digest.Of(fit.Entries) {
		t.Error("the record's digest is not the fitted entries'")
	}
	if again := mustPreStep(t, e, h, budgetMount(160), step(h, enter())); again.Outcome != contract.OutcomeUnchanged {
		t.Errorf("second budgeted step %s, want unchanged", again.Outcome)
	}
}

// TestRemoteSkillLoadedByQualifiedName: the `skill` tool takes a qualified
// name, and a remote skill's content names its server.
func TestRemoteSkillLoadedByQualifiedName(t *testing.T) {
	sum := remoteSummary("docs:acme/refunds", "Refunds.", "docs", "acme/refunds")
	h := newMemHost(sum)
	def := skill.Definition{Summary: sum, ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: "skill://acme/refunds/"}, Content: "Refund it."}
	h.defs[sum.Name] = def
	resp, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(`{"name":"docs:acme/refunds"}`)})
	if err != nil {
		t.Fatal(err)
	}
	want, err := render.SkillContent(def.ToolValue(), false)
	if err != nil {
		t.Fatal(err)
	}
	if resp.IsError || resp.Text != want || !strings.Contains(want, `mcp_server="docs"`) {
		t.Errorf("result %q (error %v), want %q", resp.Text, resp.IsError, want)
	}
	if resp.Value == nil || resp.Value.Origin != "docs" || resp.Value.Name != "docs:acme/refunds" {
		t.Errorf("value %+v, want the remote skill with its origin", resp.Value)
	}
	for _, bad := range []string{"docs:", "docs:acme/", "Docs:acme/refunds", "docs:acme//refunds"} {
		resp, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(`{"name":"` + bad + `"}`)})
		if err != nil || resp.Text != string(render.InvalidName(bad)) {
			t.Errorf("name %q: %q, %v; want %q", bad, resp.Text, err, string(render.InvalidName(bad)))
		}
	}
}

// TestCatalogRecordsWithOriginsRead: a record whose entries carry origins
// decides like the view it came from after a restart.
func TestCatalogRecordsWithOriginsRead(t *testing.T) {
	skills := []skill.Summary{summary("alpha", "A."), remoteSummary("beta", "B.", "docs", "beta")}
	h := newMemHost(skills...)
	h.appendSource(events.EncodeCatalog([]digest.Entry{{Name: "alpha", Description: "A."}, {Name: "beta", Description: "B.", Origin: "docs"}}, false))
	if resp := mustPreStep(t, newEngine(), h, testMount(), step(h, enter())); resp.Outcome != contract.OutcomeUnchanged {
		t.Errorf("resumed with the same remote catalog: %s, want unchanged", resp.Outcome)
	}
	h.events = nil
	h.appendSource(events.EncodeCatalog([]digest.Entry{{Name: "alpha", Description: "A."}, {Name: "beta", Description: "B."}}, false))
	if resp := mustPreStep(t, newEngine(), h, testMount(), step(h, enter())); resp.Outcome != contract.OutcomeReplacement {
		t.Errorf("resumed with beta recorded as local: %s, want replacement", resp.Outcome)
	}
}
