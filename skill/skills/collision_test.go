package skills_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// remoteSum is a remote skill's summary: name, served at path by the server
// labelled origin.
func remoteSum(name, desc, origin, path string) skill.Summary {
	return skill.Summary{Name: name, Description: desc, Invocation: skill.DefaultPolicy(), Provider: origin,
		Origin: origin, QualifiedName: skill.QualifiedName(origin, path)}
}

// webSum is a website's skill's summary: name, published at path by the
// site labelled origin.
func webSum(name, desc, origin, path string) skill.Summary {
	s := remoteSum(name, desc, origin, path)
	s.OriginKind = skill.OriginWebsite
	return s
}

// listed is what a test expects a snapshot to list for one skill.
type listed struct{ Name, Description, Origin string }

func listing(s skills.Snapshot) []listed {
	out := make([]listed, len(s.Skills))
	for i, sum := range s.Skills {
		out[i] = listed{sum.Name, sum.Description, sum.Origin}
	}
	return out
}

func TestRemoteNameCollisions(t *testing.T) {
	type attach struct {
		scope   string
		rank    int
		runtime *skills.RuntimeSkill
		sums    []skill.Summary
	}
	shared := newFake(true, remoteSum("refunds", "docs refunds", "docs", "refunds"))
	for _, tc := range []struct {
		desc   string
		attach []attach
		// sharedTwice attaches one remote provider to both scopes.
		sharedTwice bool
		chain       []string
		want        []listed
		wantDiag    []string
	}{
		{
			desc:   "a remote skill alone keeps its name",
			attach: []attach{{scope: "global", sums: []skill.Summary{remoteSum("refunds", "docs refunds", "docs", "acme/refunds")}}},
			want:   []listed{{"refunds", "docs refunds", "docs"}},
		},
		{
			desc: "a local skill keeps the name, the remote one is qualified, even when it would win",
			attach: []attach{
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "refunds", Description: "local refunds"}},
				{scope: "agent", rank: 10, sums: []skill.Summary{remoteSum("refunds", "docs refunds", "docs", "refunds")}},
			},
			chain: []string{"agent", "global"},
			want:  []listed{{"docs:refunds", "docs refunds", "docs"}, {"refunds", "local refunds", ""}},
			wantDiag: []string{`skill name "refunds" is shared by skills of this host, MCP server "docs": ` +
				`the remote ones are listed as "docs:refunds"`},
		},
		{
			desc: "two servers: both qualified, neither takes the name",
			attach: []attach{
				{scope: "global", sums: []skill.Summary{remoteSum("refunds", "docs refunds", "docs", "refunds")}},
				{scope: "global", sums: []skill.Summary{remoteSum("refunds", "other refunds", "other", "billing/refunds")}},
			},
			want: []listed{{"docs:refunds", "docs refunds", "docs"}, {"other:billing/refunds", "other refunds", "other"}},
			wantDiag: []string{`skill name "refunds" is shared by skills of MCP server "docs", MCP server "other": ` +
				`the remote ones are listed as "docs:refunds", "other:billing/refunds"`},
		},
		{
			desc: "two skills of one server: both qualified by their paths",
			attach: []attach{{scope: "global", sums: []skill.Summary{
				remoteSum("refunds", "billing", "docs", "acme/billing/refunds"),
				remoteSum("refunds", "support", "docs", "acme/support/refunds"),
				remoteSum("audit", "audit", "docs", "audit"),
			}}},
			want: []listed{{"audit", "audit", "docs"}, {"docs:acme/billing/refunds", "billing", "docs"}, {"docs:acme/support/refunds", "support", "docs"}},
			wantDiag: []string{`skill name "refunds" is shared by skills of MCP server "docs": ` +
				`the remote ones are listed as "docs:acme/billing/refunds", "docs:acme/support/refunds"`},
		},
		{
			desc:        "the same server's skill through two scopes is one skill",
			sharedTwice: true,
			want:        []listed{{"refunds", "docs refunds", "docs"}},
		},
		{
			desc: "local skills still shadow each other; a remote skill of another name is untouched",
			attach: []attach{
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "lint", Description: "global lint"}},
				{scope: "agent", runtime: &skills.RuntimeSkill{Name: "lint", Description: "agent lint"}},
				{scope: "global", sums: []skill.Summary{remoteSum("deploy", "remote deploy", "docs", "ops/deploy")}},
			},
			chain: []string{"agent", "global"},
			want:  []listed{{"deploy", "remote deploy", "docs"}, {"lint", "agent lint", ""}},
		},
		{
			desc: "two servers given one label: the better one is listed, with a diagnostic",
			attach: []attach{
				{scope: "global", sums: []skill.Summary{remoteSum("refunds", "first", "docs", "refunds")}},
				{scope: "global", sums: []skill.Summary{remoteSum("refunds", "second", "docs", "refunds"), sum("refunds", "local", "disk")}},
			},
			want: []listed{{"docs:refunds", "first", "docs"}, {"refunds", "local", ""}},
			wantDiag: []string{
				`skill name "refunds" is shared by skills of this host, MCP server "docs": the remote ones are listed as "docs:refunds"`,
				`skill "docs:refunds" is offered by two remote servers labelled "docs"; give each server a label of its own (the nearer, higher-ranked one is listed)`,
			},
		},
		{
			desc: "a website's skill and a server's: both qualified, each named by its kind",
			attach: []attach{
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "refunds", Description: "local refunds"}},
				{scope: "global", sums: []skill.Summary{webSum("refunds", "site refunds", "web", "refunds")}},
				{scope: "global", sums: []skill.Summary{remoteSum("refunds", "docs refunds", "docs", "refunds")}},
			},
			want: []listed{{"docs:refunds", "docs refunds", "docs"}, {"refunds", "local refunds", ""}, {"web:refunds", "site refunds", "web"}},
			wantDiag: []string{`skill name "refunds" is shared by skills of this host, website "web", MCP server "docs": ` +
				`the remote ones are listed as "web:refunds", "docs:refunds"`},
		},
		{
			desc: "two websites given one label: the better one is listed, with a diagnostic naming websites",
			attach: []attach{
				{scope: "global", sums: []skill.Summary{webSum("refunds", "first", "web", "refunds")}},
				{scope: "global", sums: []skill.Summary{webSum("refunds", "second", "web", "refunds"), sum("refunds", "local", "disk")}},
			},
			want: []listed{{"refunds", "local", ""}, {"web:refunds", "first", "web"}},
			wantDiag: []string{
				`skill name "refunds" is shared by skills of this host, website "web": the remote ones are listed as "web:refunds"`,
				`skill "web:refunds" is offered by two websites labelled "web"; give each website a label of its own (the nearer, higher-ranked one is listed)`,
			},
		},
		{
			desc: "a website and a server given one label",
			attach: []attach{
				{scope: "global", sums: []skill.Summary{webSum("refunds", "first", "docs", "refunds")}},
				{scope: "global", sums: []skill.Summary{remoteSum("refunds", "second", "docs", "refunds"), sum("refunds", "local", "disk")}},
			},
			want: []listed{{"docs:refunds", "first", "docs"}, {"refunds", "local", ""}},
			wantDiag: []string{
				`skill name "refunds" is shared by skills of this host, website "docs": the remote ones are listed as "docs:refunds"`,
				`skill "docs:refunds" is offered by two remote sources labelled "docs"; give each source a label of its own (the nearer, higher-ranked one is listed)`,
			},
		},
		{
			desc: "summaries that cannot be qualified are not offered",
			attach: []attach{{scope: "global", sums: []skill.Summary{
				{Name: "a", Description: "other label", Invocation: skill.DefaultPolicy(), Origin: "docs", QualifiedName: "evil:a"},
				{Name: "b", Description: "no qualified name", Invocation: skill.DefaultPolicy(), Origin: "docs"},
				{Name: "c", Description: "local with a qualified name", Invocation: skill.DefaultPolicy(), QualifiedName: "docs:c"},
				{Name: "docs:d", Description: "a qualified name as a name", Invocation: skill.DefaultPolicy(), Origin: "docs", QualifiedName: "docs:d"},
				{Name: "f", Description: "an unknown kind", Invocation: skill.DefaultPolicy(), Origin: "docs", OriginKind: skill.OriginKind(9), QualifiedName: "docs:f"},
				remoteSum("e", "fine", "docs", "x/e"),
			}}},
			want: []listed{{"e", "fine", "docs"}},
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := skilltest.NewRegistry(t)
			if tc.sharedTwice {
				r.AddProvider("agent", shared, nil)
				r.AddProvider("global", shared, &skills.ProviderOptions{Rank: 5})
			}
			for _, a := range tc.attach {
				switch {
				case a.runtime != nil:
					mustRegister(t, r, a.scope, *a.runtime)
				case len(a.sums) > 0:
					r.AddProvider(a.scope, newFake(true, a.sums...), &skills.ProviderOptions{Rank: a.rank})
				}
			}
			chain := tc.chain
			if chain == nil {
				chain = []string{"agent", "global"}
			}
			snap := mustSnapshot(t, r, skills.Query{SessionID: "s", Cwd: "/w", Chain: chain})
			if diff := cmp.Diff(tc.want, listing(snap)); diff != "" {
				t.Errorf("listing (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantDiag, snap.Diagnostics); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if !slices.IsSortedFunc(snap.Skills, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) }) {
				t.Error("the snapshot is not sorted by name")
			}
		})
	}
}

// TestGetResolvesPerOrigin: a qualified name loads the remote skill from its
// own provider, asked by that name; the plain name loads the local one.
func TestGetResolvesPerOrigin(t *testing.T) {
	ctx := context.Background()
	r := skilltest.NewRegistry(t)
	mustRegister(t, r, "global", skills.RuntimeSkill{Name: "refunds", Description: "local", Content: "local body"})
	remote := newFake(true, remoteSum("refunds", "remote", "docs", "acme/refunds"))
	r.AddProvider("global", remote, &skills.ProviderOptions{Rank: 10})

	def, found, err := r.Get(ctx, globalQ, "docs:acme/refunds")
	if err != nil || !found {
		t.Fatalf("Get(docs:acme/refunds) = %v, %v", found, err)
	}
	if def.Name != "docs:acme/refunds" || def.Origin != "docs" || def.QualifiedName != "docs:acme/refunds" || def.Description != "remote" {
		t.Errorf("remote definition = %+v", def.Summary)
	}
	if loads := remote.Loads(); !slices.Equal(loads, []string{"docs:acme/refunds"}) {
		t.Errorf("the remote provider was asked to load %q, want the qualified name", loads)
	}
	def, found, err = r.Get(ctx, globalQ, "refunds")
	if err != nil || !found || def.Content != "local body" || def.Origin != "" {
		t.Errorf("Get(refunds) = %+v, %v, %v; want the local skill", def, found, err)
	}
	if _, found, err := r.Get(ctx, globalQ, "other:refunds"); found || err != nil {
		t.Errorf("Get(other:refunds) = %v, %v; want not found", found, err)
	}
	if sum, found, _ := r.Lookup(ctx, globalQ, "docs:acme/refunds"); !found || sum.Origin != "docs" {
		t.Errorf("Lookup(docs:acme/refunds) = %+v, %v", sum, found)
	}
}

// TestGetKeepsTheListedKind: a website's skill loads with the kind its
// listing gave it, whatever its provider's definition says.
func TestGetKeepsTheListedKind(t *testing.T) {
	ctx := context.Background()
	r := skilltest.NewRegistry(t)
	r.AddProvider("global", newFake(true, webSum("wrangler", "deploy", "web", "wrangler")), nil)
	def, found, err := r.Get(ctx, globalQ, "wrangler")
	if err != nil || !found || def.Origin != "web" || def.OriginKind != skill.OriginWebsite {
		t.Errorf("Get(wrangler) = %+v, %v, %v; want the website's skill", def.Summary, found, err)
	}
}

// TestTokenNamesOrigin: the same name and description from another origin
// is another snapshot.
func TestTokenNamesOrigin(t *testing.T) {
	token := func(s skill.Summary) string {
		r := skilltest.NewRegistry(t)
		r.AddProvider("global", newFake(true, s), nil)
		return mustSnapshot(t, r, globalQ).Token
	}
	local := token(sum("refunds", "d", "docs"))
	docs := token(remoteSum("refunds", "d", "docs", "refunds"))
	other := token(remoteSum("refunds", "d", "other", "refunds"))
	nested := token(remoteSum("refunds", "d", "docs", "acme/refunds"))
	if local == docs || docs == other || docs == nested || local == other {
		t.Errorf("tokens do not tell origins apart: local %s, docs %s, other %s, nested %s", local, docs, other, nested)
	}
}

// TestTokenNamesOriginKind: the same skill from a website and from an MCP
// server of the same label are different snapshots, and a list of MCP
// servers' skills keeps the token it had before kinds existed (pinned).
func TestTokenNamesOriginKind(t *testing.T) {
	token := func(s skill.Summary) string {
		r := skilltest.NewRegistry(t)
		r.AddProvider("global", newFake(true, s), nil)
		return mustSnapshot(t, r, globalQ).Token
	}
	mcp := token(remoteSum("refunds", "d", "docs", "refunds"))
	web := token(webSum("refunds", "d", "docs", "refunds"))
	if mcp == web {
		t.Errorf("a website's skill and an MCP server's share the token %s", mcp)
	}
	if mcp != "55ab6101562090527fd755c908af574d" {
		t.Errorf("the token of an MCP server's skill changed: %s", mcp)
	}
}

// TestTokenNamesArgumentHint: a changed argument hint is another snapshot,
// and a list without hints keeps the token it had before hints existed
// (pinned: the token the registry gave this list before).
func TestTokenNamesArgumentHint(t *testing.T) {
	token := func(s skill.Summary) string {
		r := skilltest.NewRegistry(t)
		r.AddProvider("global", newFake(true, s), nil)
		return mustSnapshot(t, r, globalQ).Token
	}
	plain := sum("fix", "d", "disk")
	hinted, other := plain, plain
	hinted.ArgumentHint, other.ArgumentHint = "[issue]", "[issue] [priority]"
	if a, b, c := token(plain), token(hinted), token(other); a == b || b == c || a == c {
		t.Errorf("tokens do not tell hints apart: none %s, [issue] %s, two %s", a, b, c)
	}
	if got := token(plain); got != "8244cc29689179f581a4ad1dd3e17d78" {
		t.Errorf("the token of a list without hints changed: %s", got)
	}
}
