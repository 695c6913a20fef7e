package skills_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// invalidating is a provider that announces its own changes.
type invalidating interface {
	skills.Provider
	skills.Invalidator
}

// declaring is a provider that declares its availability.
type declaring struct {
	invalidating
	a skills.Availability
}

func (d declaring) Availability() skills.Availability { return d.a }

// The states a table step puts the remote fake in before the snapshot.
const (
	listOK         = "ok"
	listFails      = "fails"
	listIncomplete = "incomplete"
)

// availabilityStep sets the remote provider's state (and, when remote is
// not nil, its skills), takes a snapshot for session (s1 by default), and
// checks it.
type availabilityStep struct {
	session string
	state   string
	remote  []string
	// What the snapshot must say: its names, whether it is complete, a
	// text its one degraded line contains ("" for none), and whether its
	// token is the previous step's.
	names      []string
	complete   bool
	degraded   string
	sameToken  bool
	incomplete bool // Incomplete names the remote provider
}

// TestAvailability: a strict provider's failure holds back the whole
// snapshot; a best-effort provider's leaves it complete, standing in its
// last-good listing for the same session and working directory or leaving
// it out, says so in Degraded, and republishes nothing while it flaps.
func TestAvailability(t *testing.T) {
	tests := []struct {
		name   string
		attach func(*skilltest.Provider) (skills.Provider, *skills.ProviderOptions)
		steps  []availabilityStep
	}{
		{
			name:   "strict fails before its first listing",
			attach: strictly,
			steps: []availabilityStep{
				{state: listFails, names: []string{"local"}, incomplete: true},
				{state: listOK, names: []string{"local", "remote-a"}, complete: true},
			},
		},
		{
			name:   "strict fails after a good listing",
			attach: strictly,
			steps: []availabilityStep{
				{state: listOK, names: []string{"local", "remote-a"}, complete: true},
				{state: listFails, names: []string{"local"}, incomplete: true},
				{state: listIncomplete, names: []string{"local", "remote-a"}, incomplete: true},
			},
		},
		{
			name:   "best-effort fails before its first listing: left out",
			attach: bestEffortly,
			steps: []availabilityStep{
				{state: listFails, names: []string{"local"}, complete: true,
					degraded: `best-effort provider remote in scope "global": server unreachable; left out until it lists`},
				{state: listIncomplete, names: []string{"local"}, complete: true, sameToken: true,
					degraded: `best-effort provider remote in scope "global": reported an incomplete observation; left out until it lists`},
			},
		},
		{
			name:   "best-effort fails after a good listing: last-good kept",
			attach: bestEffortly,
			steps: []availabilityStep{
				{state: listOK, names: []string{"local", "remote-a"}, complete: true},
				{state: listFails, remote: []string{"remote-b"}, names: []string{"local", "remote-a"}, complete: true, sameToken: true,
					degraded: `best-effort provider remote in scope "global": server unreachable; its last-good listing of 1 skills kept`},
				{state: listIncomplete, names: []string{"local", "remote-a"}, complete: true, sameToken: true,
					degraded: "reported an incomplete observation; its last-good listing of 1 skills kept"},
			},
		},
		{
			name:   "best-effort recovers: its skills listed by one change",
			attach: bestEffortly,
			steps: []availabilityStep{
				{state: listFails, names: []string{"local"}, complete: true, degraded: "left out"},
				{state: listOK, names: []string{"local", "remote-a"}, complete: true},
				{state: listFails, remote: []string{"remote-a", "remote-b"}, names: []string{"local", "remote-a"}, complete: true, sameToken: true, degraded: "kept"},
				{state: listOK, names: []string{"local", "remote-a", "remote-b"}, complete: true},
			},
		},
		{
			name:   "best-effort flaps without change: one token",
			attach: bestEffortly,
			steps: []availabilityStep{
				{state: listOK, names: []string{"local", "remote-a"}, complete: true},
				{state: listFails, names: []string{"local", "remote-a"}, complete: true, sameToken: true, degraded: "kept"},
				{state: listOK, names: []string{"local", "remote-a"}, complete: true, sameToken: true},
				{state: listIncomplete, names: []string{"local", "remote-a"}, complete: true, sameToken: true, degraded: "kept"},
				{state: listOK, names: []string{"local", "remote-a"}, complete: true, sameToken: true},
			},
		},
		{
			name:   "best-effort last-good is per session",
			attach: bestEffortly,
			steps: []availabilityStep{
				{session: "s1", state: listOK, names: []string{"local", "remote-a"}, complete: true},
				{session: "s2", state: listFails, names: []string{"local"}, complete: true, degraded: "left out"},
				{session: "s1", state: listFails, names: []string{"local", "remote-a"}, complete: true, degraded: "kept"},
			},
		},
		{
			name:   "default: a provider that declares nothing is strict",
			attach: undeclared,
			steps: []availabilityStep{
				{state: listFails, names: []string{"local"}, incomplete: true},
			},
		},
		{
			name:   "default: a provider that declares itself best-effort is",
			attach: declared(skills.BestEffort),
			steps: []availabilityStep{
				{state: listOK, names: []string{"local", "remote-a"}, complete: true},
				{state: listFails, names: []string{"local", "remote-a"}, complete: true, sameToken: true, degraded: "kept"},
			},
		},
		{
			name:   "default: a provider that declares itself strict is",
			attach: declared(skills.Strict),
			steps: []availabilityStep{
				{state: listFails, names: []string{"local"}, incomplete: true},
			},
		},
		{
			name: "an explicit Strict overrides a best-effort declaration",
			attach: func(p *skilltest.Provider) (skills.Provider, *skills.ProviderOptions) {
				return declaring{p.As(skilltest.Invalidator).(invalidating), skills.BestEffort}, &skills.ProviderOptions{Label: "remote", Availability: skills.Strict}
			},
			steps: []availabilityStep{
				{state: listFails, names: []string{"local"}, incomplete: true},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := skilltest.NewRegistry(t)
			if err := r.Register("global", rt("local", "A local skill.")); err != nil {
				t.Fatal(err)
			}
			fake := newFake(true, sum("remote-a", "A remote skill.", "remote"))
			prov, opts := tc.attach(fake)
			r.AddProvider("global", prov, opts)
			prevToken := ""
			for i, st := range tc.steps {
				setState(fake, st)
				q := globalQ
				if st.session != "" {
					q.SessionID = st.session
				}
				snap := mustSnapshot(t, r, q)
				checkStep(t, i+1, st, snap, prevToken)
				prevToken = snap.Token
			}
		})
	}
}

func strictly(p *skilltest.Provider) (skills.Provider, *skills.ProviderOptions) {
	return p.As(skilltest.Invalidator), &skills.ProviderOptions{Label: "remote", Availability: skills.Strict}
}

func bestEffortly(p *skilltest.Provider) (skills.Provider, *skills.ProviderOptions) {
	return p.As(skilltest.Invalidator), &skills.ProviderOptions{Label: "remote", Availability: skills.BestEffort}
}

// undeclared attaches the provider with the default availability, which
// it declares nothing about.
func undeclared(p *skilltest.Provider) (skills.Provider, *skills.ProviderOptions) {
	return p.As(skilltest.Invalidator), &skills.ProviderOptions{Label: "remote"}
}

// declared attaches the provider with the default availability, declaring
// a.
func declared(a skills.Availability) func(*skilltest.Provider) (skills.Provider, *skills.ProviderOptions) {
	return func(p *skilltest.Provider) (skills.Provider, *skills.ProviderOptions) {
		return declaring{p.As(skilltest.Invalidator).(invalidating), a}, &skills.ProviderOptions{Label: "remote"}
	}
}

func setState(p *skilltest.Provider, st availabilityStep) {
	if st.remote != nil {
		ss := make([]skilltest.Skill, len(st.remote))
		for i, n := range st.remote {
			ss[i] = skilltest.Skill{Summary: sum(n, "A remote skill.", "remote")}
		}
		p.SetSkills(ss...)
	}
	var err error
	if st.state == listFails {
		err = errors.New("server unreachable")
	}
	p.SetListError(err)
	p.SetComplete(st.state != listIncomplete)
}

func checkStep(t *testing.T, n int, st availabilityStep, snap skills.Snapshot, prevToken string) {
	t.Helper()
	if got := names(snap.Skills); strings.Join(got, ",") != strings.Join(st.names, ",") {
		t.Fatalf("step %d: skills %v, want %v", n, got, st.names)
	}
	if snap.Complete != st.complete || (snap.Token != "") != st.complete {
		t.Fatalf("step %d: complete %v with token %q, want complete %v", n, snap.Complete, snap.Token, st.complete)
	}
	if st.incomplete != (len(snap.Incomplete) == 1) {
		t.Errorf("step %d: Incomplete %q, want a line: %v", n, snap.Incomplete, st.incomplete)
	}
	switch {
	case st.degraded == "" && snap.Degraded != nil:
		t.Errorf("step %d: Degraded %q, want none", n, snap.Degraded)
	case st.degraded != "" && (len(snap.Degraded) != 1 || !strings.Contains(snap.Degraded[0], st.degraded)):
		t.Errorf("step %d: Degraded %q, want one line containing %q", n, snap.Degraded, st.degraded)
	}
	if st.complete && n > 1 && (snap.Token == prevToken) != st.sameToken {
		t.Errorf("step %d: token %q after %q: same %v, want %v", n, snap.Token, prevToken, snap.Token == prevToken, st.sameToken)
	}
}

func names(ss []skill.Summary) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Name
	}
	return out
}

// TestDegradedSnapshotIsNotCached: a snapshot that stood in for a failed
// best-effort provider is not cached, so the next one lists the provider
// again; once it lists, the snapshot is cached as usual.
func TestDegradedSnapshotIsNotCached(t *testing.T) {
	r := skilltest.NewRegistry(t)
	p := newFake(true, sum("remote-a", "A remote skill.", "remote"))
	r.AddProvider("global", p.As(skilltest.Invalidator), &skills.ProviderOptions{Availability: skills.BestEffort})
	p.SetListError(errors.New("server unreachable"))
	for i := range 3 {
		if snap := mustSnapshot(t, r, globalQ); !snap.Complete || len(snap.Degraded) != 1 {
			t.Fatalf("snapshot %d: complete %v, degraded %q", i+1, snap.Complete, snap.Degraded)
		}
		if _, ok := r.CachedToken(globalQ); ok {
			t.Fatalf("snapshot %d: a degraded snapshot was cached", i+1)
		}
	}
	if n := p.Lists(); n != 3 {
		t.Errorf("%d listings over three degraded snapshots, want 3", n)
	}
	p.SetListError(nil)
	snap := mustSnapshot(t, r, globalQ)
	if tok, ok := r.CachedToken(globalQ); !ok || tok != snap.Token {
		t.Errorf("the recovered snapshot was not cached: %q, %v", tok, ok)
	}
}

// TestLastGoodListingsAreBounded: a best-effort provider remembers the
// listings of at most skills.LastGoodEntries (session, working directory)
// pairs, the least recently listed forgotten first, and none of a session
// that ended.
func TestLastGoodListingsAreBounded(t *testing.T) {
	r := skilltest.NewRegistry(t)
	p := newFake(true, sum("remote-a", "A remote skill.", "remote"))
	r.AddProvider("global", p, &skills.ProviderOptions{Availability: skills.BestEffort})
	query := func(i int) skills.Query {
		return skills.Query{SessionID: fmt.Sprint("s", i), Cwd: "/w", Chain: []string{"global"}}
	}
	for i := range skills.LastGoodEntries + 1 {
		mustSnapshot(t, r, query(i))
	}
	p.SetListError(errors.New("server unreachable"))
	if snap := mustSnapshot(t, r, query(0)); len(snap.Skills) != 0 || !strings.Contains(strings.Join(snap.Degraded, ""), "left out") {
		t.Errorf("the least recently listed session kept %v (%q), want it forgotten", names(snap.Skills), snap.Degraded)
	}
	last := query(skills.LastGoodEntries)
	if snap := mustSnapshot(t, r, last); len(snap.Skills) != 1 {
		t.Errorf("the most recently listed session lists %v, want its last-good listing", names(snap.Skills))
	}
	r.EndSession(last.SessionID)
	if snap := mustSnapshot(t, r, last); len(snap.Skills) != 0 {
		t.Errorf("an ended session's last-good listing stayed: %v", names(snap.Skills))
	}
}

// TestLastGoodSkillLoadsFromItsProvider: a skill listed from a failed
// provider's last-good listing is loaded from that provider, whose error is
// returned; a name the (complete) snapshot does not list is not found, and
// the failed provider is not asked for it.
func TestLastGoodSkillLoadsFromItsProvider(t *testing.T) {
	r := skilltest.NewRegistry(t)
	p := newFake(true, sum("remote-a", "A remote skill.", "remote"))
	r.AddProvider("global", p, &skills.ProviderOptions{Availability: skills.BestEffort})
	mustSnapshot(t, r, globalQ)
	p.SetListError(errors.New("server unreachable"))
	p.Put(skilltest.Skill{Summary: sum("remote-a", "A remote skill.", "remote"), LoadErr: errors.New("server unreachable")})
	_, found, err := r.Get(t.Context(), globalQ, "remote-a")
	var le *skills.LoadError
	if found || !errors.As(err, &le) || le.Err.Error() != "server unreachable" {
		t.Errorf("Get(remote-a) = %v, %v; want the provider's load error", found, err)
	}
	if _, found, err := r.Get(t.Context(), globalQ, "never-listed"); found || err != nil {
		t.Errorf("Get(never-listed) = %v, %v; want not found", found, err)
	}
	if got := p.Loads(); strings.Join(got, ",") != "remote-a" {
		t.Errorf("loads %v, want remote-a alone", got)
	}
}

// TestUnknownAvailabilityPanics: an Availability outside the documented
// constants is a programming error.
func TestUnknownAvailabilityPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("AddProvider accepted Availability(7)")
		}
	}()
	skilltest.NewRegistry(t).AddProvider("global", newFake(true), &skills.ProviderOptions{Availability: 7})
}
