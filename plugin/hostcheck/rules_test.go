package hostcheck_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
	"github.com/skillcatalog/skillcatalog/skill"
)

// The tests here hold one rule each to a host scripted for it, under a
// Checker wrapping a stub plugin whose answers the test chooses, so that
// what the checker asks and reports depends on nothing else.

// stubPlugin is the plugin side the checker wraps: every call succeeds, and
// a step is answered with edits(req) (none when edits is nil).
type stubPlugin struct {
	edits func(req contract.StepRequest) []contract.Edit
}

func (p *stubPlugin) Configure(context.Context, contract.Host, contract.ConfigureRequest) (contract.ConfigureResponse, error) {
	return contract.ConfigureResponse{MountID: "m1"}, nil
}

func (p *stubPlugin) BindTools(context.Context, string, []contract.ToolBinding) error { return nil }

func (p *stubPlugin) Unmount(context.Context, string) error { return nil }

func (p *stubPlugin) PreStep(_ context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	if p.edits == nil {
		return contract.StepResponse{}, nil
	}
	return contract.StepResponse{Edits: p.edits(req)}, nil
}

func (p *stubPlugin) ExecuteSkillTool(context.Context, contract.ToolCall) (contract.ToolResult, error) {
	return contract.ToolResult{}, nil
}

func (p *stubPlugin) EndSession(context.Context, string) error { return nil }

func (p *stubPlugin) Ping(context.Context) error { return nil }

// mounted is a Checker wrapping a stub plugin, mounted on a host.
type mounted struct {
	t       *testing.T
	checker *hostcheck.Checker
	svc     contract.Service
	mount   string
}

func mount(t *testing.T, host contract.Host, plugin *stubPlugin) *mounted {
	t.Helper()
	if plugin == nil {
		plugin = &stubPlugin{}
	}
	checker := hostcheck.New(nil)
	svc := checker.Service(plugin)
	resp, err := svc.Configure(context.Background(), host, contract.ConfigureRequest{Scope: "global"})
	if err != nil {
		t.Fatal(err)
	}
	return &mounted{t: t, checker: checker, svc: svc, mount: resp.MountID}
}

// step runs step n of session s1 with the proposed messages and returns
// the final ones: the proposal with the plugin's edits applied.
func (m *mounted) step(n int, msgs ...contract.Message) []contract.Message {
	m.t.Helper()
	req := contract.StepRequest{MountID: m.mount, SessionID: "s1", Cwd: "/work", AgentScope: "agent:a", Step: uint32(n),
		Downstream: contract.Decision{Messages: msgs}}
	out, err := m.svc.PreStep(context.Background(), req)
	if err != nil {
		m.t.Fatalf("step %d: %v", n, err)
	}
	final, err := req.Downstream.Apply(out.Edits)
	if err != nil {
		m.t.Fatalf("step %d: %v", n, err)
	}
	return final.Messages
}

// result returns the counts of one check.
func result(t *testing.T, r hostcheck.Report, check string) hostcheck.CheckResult {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == check {
			return c
		}
	}
	t.Fatalf("the report has no check %s", check)
	return hostcheck.CheckResult{}
}

// details returns the details of a check's violations, in order.
func details(r hostcheck.Report, check string) []string {
	var out []string
	for _, v := range r.Violations {
		if v.Check == check {
			out = append(out, v.Detail)
		}
	}
	return out
}

// scripted is the fake host with some callbacks replaced, recording what
// the checker asked.
type scripted struct {
	*contracttest.Host
	snapshot   func(req contract.SnapshotRequest) contract.Snapshot // nil: the fake's
	readEvents func(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error)

	gets       []string // the names GetSkill was asked for, unlisted probes left out
	reads      []string // the skill of every ReadResource
	deltaBases []string // if_none_match of every Snapshot accepting a delta
}

func (h *scripted) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	if req.AcceptDelta {
		h.deltaBases = append(h.deltaBases, req.IfNoneMatch)
	}
	if h.snapshot == nil {
		return h.Host.Snapshot(ctx, req)
	}
	return h.snapshot(req), nil
}

func (h *scripted) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	if !strings.HasPrefix(req.Name, "hostcheck-unlisted-") {
		h.gets = append(h.gets, req.Name)
	}
	return h.Host.GetSkill(ctx, req)
}

func (h *scripted) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	if h.readEvents == nil {
		return h.Host.ReadEvents(ctx, req)
	}
	return h.readEvents(ctx, req)
}

func (h *scripted) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	h.reads = append(h.reads, req.Name)
	return h.Host.ReadResource(ctx, req)
}

// fixed answers every Snapshot with one complete snapshot under token,
// not modified when asked with that token.
func fixed(token string, skills ...skill.Summary) func(contract.SnapshotRequest) contract.Snapshot {
	return func(req contract.SnapshotRequest) contract.Snapshot {
		if req.IfNoneMatch == token {
			return contract.Snapshot{NotModified: true, Token: token, Complete: true}
		}
		return contract.Snapshot{Token: token, Complete: true, Skills: skills}
	}
}

func named(names ...string) []skill.Summary {
	out := make([]skill.Summary, len(names))
	for i, n := range names {
		out[i] = skill.Summary{Name: n, Description: "Does " + n + "."}
	}
	return out
}

// TestReportKeepsTheFirstMaxViolations: a report lists at most
// MaxViolations violations, the first found; the check's failed count
// still counts every one, so it tells how many more there were.
func TestReportKeepsTheFirstMaxViolations(t *testing.T) {
	t.Parallel()
	for _, n := range []int{hostcheck.MaxViolations - 1, hostcheck.MaxViolations, hostcheck.MaxViolations + 1, hostcheck.MaxViolations + 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			m := mount(t, contracttest.NewHost(), nil)
			bindings := make([]contract.ToolBinding, n)
			for i := range bindings {
				bindings[i] = contract.ToolBinding{ToolName: fmt.Sprintf("tool-%03d", i)} // no identity: each a violation
			}
			if err := m.svc.BindTools(context.Background(), m.mount, bindings); err != nil {
				t.Fatal(err)
			}
			r := m.checker.Report()
			if got := result(t, r, hostcheck.CheckToolIdentity).Failed; got != n {
				t.Errorf("tool-identity failed %d times, want %d", got, n)
			}
			want := min(n, hostcheck.MaxViolations)
			if len(r.Violations) != want {
				t.Fatalf("%d violations listed, want %d", len(r.Violations), want)
			}
			for i, v := range r.Violations {
				if w := fmt.Sprintf("mount m1: tool %q bound with an empty identity", bindings[i].ToolName); v.Detail != w {
					t.Fatalf("violation %d: %q, want %q", i, v.Detail, w)
				}
			}
		})
	}
}

// TestMergeKeepsTheFirstMaxViolations: merged reports list at most
// MaxViolations violations, the first of them in the order the reports
// were given.
func TestMergeKeepsTheFirstMaxViolations(t *testing.T) {
	t.Parallel()
	report := func(name string, n int) hostcheck.Report {
		r := hostcheck.Report{}
		for i := range n {
			r.Violations = append(r.Violations, hostcheck.Violation{Check: hostcheck.CheckSnapshotSorted, Detail: fmt.Sprintf("%s-%d", name, i)})
		}
		return r
	}
	tests := []struct {
		sizes []int
		want  []string // the first and the last violation kept
	}{
		{[]int{hostcheck.MaxViolations - 1, 1}, []string{"r0-0", "r1-0"}},
		{[]int{hostcheck.MaxViolations, 1}, []string{"r0-0", fmt.Sprintf("r0-%d", hostcheck.MaxViolations-1)}},
		{[]int{hostcheck.MaxViolations / 2, hostcheck.MaxViolations}, []string{"r0-0", fmt.Sprintf("r1-%d", hostcheck.MaxViolations-hostcheck.MaxViolations/2-1)}},
		{[]int{hostcheck.MaxViolations + 1}, []string{"r0-0", fmt.Sprintf("r0-%d", hostcheck.MaxViolations-1)}},
	}
	for _, tt := range tests {
		var reports []hostcheck.Report
		total := 0
		for i, n := range tt.sizes {
			reports = append(reports, report(fmt.Sprint("r", i), n))
			total += n
		}
		m := hostcheck.Merge(reports...)
		if len(m.Violations) != min(total, hostcheck.MaxViolations) {
			t.Errorf("sizes %v: %d violations kept, want %d", tt.sizes, len(m.Violations), min(total, hostcheck.MaxViolations))
			continue
		}
		if first, last := m.Violations[0].Detail, m.Violations[len(m.Violations)-1].Detail; first != tt.want[0] || last != tt.want[1] {
			t.Errorf("sizes %v: kept %s to %s, want %s to %s", tt.sizes, first, last, tt.want[0], tt.want[1])
		}
	}
}

// TestUnsortedSnapshotNamesThePair: a snapshot not sorted by name in byte
// order, or listing a name twice, fails snapshot-sorted, naming the first
// two skills out of order in the order they came.
func TestUnsortedSnapshotNamesThePair(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		names []string
		want  string // "" when sorted
	}{
		{"sorted", []string{"alpha", "beta", "gamma"}, ""},
		{"byte order puts capitals first", []string{"Zeta", "alpha"}, ""},
		{"not byte order", []string{"alpha", "Zeta"}, `"alpha" listed before "Zeta"`},
		{"a name twice", []string{"alpha", "alpha", "beta"}, `"alpha" listed before "alpha"`},
		{"out of order at the start", []string{"beta", "alpha", "gamma"}, `"beta" listed before "alpha"`},
		{"out of order at the end", []string{"alpha", "gamma", "beta"}, `"gamma" listed before "beta"`},
		{"only the first pair named", []string{"delta", "beta", "alpha"}, `"delta" listed before "beta"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := &scripted{Host: contracttest.NewHost(), snapshot: fixed("tok", named(tt.names...)...)}
			m := mount(t, h, nil)
			m.step(1)
			r := m.checker.Report()
			got := details(r, hostcheck.CheckSnapshotSorted)
			switch {
			case tt.want == "" && (len(got) > 0 || result(t, r, hostcheck.CheckSnapshotSorted).Passed != 1):
				t.Errorf("%v: violations %q, want it to pass", tt.names, got)
			case tt.want != "" && !slices.Equal(got, []string{tt.want}):
				t.Errorf("%v: violations %q, want [%q]", tt.names, got, tt.want)
			}
		})
	}
}

// TestTokensHeldUpToMaxTokens: the checker holds a token to the content it
// named for as long as it remembers it: a token answered again with other
// content after MaxTokens-1 others is caught; its memory holds MaxTokens
// tokens, and the one after that starts it afresh, so a long-running host
// keeps it small.
func TestTokensHeldUpToMaxTokens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		tokens int // distinct tokens answered before the first comes back
		caught bool
	}{
		{"still held", hostcheck.MaxTokens, true},
		{"forgotten", hostcheck.MaxTokens + 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := &scripted{Host: contracttest.NewHost()}
			m := mount(t, h, nil)
			for i := range tt.tokens {
				h.snapshot = fixed(fmt.Sprintf("tok-%04d", i), named(fmt.Sprintf("skill-%04d", i))...)
				m.step(i + 1)
			}
			h.snapshot = fixed("tok-0000", named("other")...)
			m.step(tt.tokens + 1)
			r := m.checker.Report()
			got := details(r, hostcheck.CheckSnapshotContent)
			want := []string(nil)
			if tt.caught {
				want = []string{`token "tok-0000" named two different lists of skills`}
			}
			if !slices.Equal(got, want) {
				t.Errorf("after %d tokens: violations %q, want %q", tt.tokens, got, want)
			}
		})
	}
}

// TestDeltaAskedAgainstTheLeastHeldToken: at each step the checker asks
// for one delta, against the least token (in byte order) it holds other
// than the current one, so a run asks the same whatever order its memory
// lists them in.
func TestDeltaAskedAgainstTheLeastHeldToken(t *testing.T) {
	t.Parallel()
	h := &scripted{Host: contracttest.NewHost()}
	m := mount(t, h, nil)
	for i, tok := range []string{"t3", "t1", "t4", "t2"} {
		h.snapshot = fixed(tok, named("skill-"+tok)...)
		m.step(i + 1)
	}
	if want := []string{"t3", "t1", "t1"}; !slices.Equal(h.deltaBases, want) {
		t.Errorf("deltas asked against %q, want %q", h.deltaBases, want)
	}
}

// TestSkillsCheckedPerStep: at each step the checker loads the first
// MaxCheckedSkills model-invocable skills listed (each must come with its
// body) and asks for the first MaxCheckedSkills the model may not invoke
// (each without it), in listing order, and tries the resource refusals on
// the first model-invocable skill only.
func TestSkillsCheckedPerStep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		skills    string // one skill per letter, in order; a "+" after it: model-invocable
		gets      string // the skills GetSkill was asked for, in order
		loads     int    // get-skill passes
		withheld  int    // get-skill-withheld-body passes
		resources string // the skill of each ReadResource
	}{
		{"more of each than the bound", "ab+cd+ef+gh+ij+kl+", "abcdefgh", hostcheck.MaxCheckedSkills, hostcheck.MaxCheckedSkills, "bb"},
		{"fewer than the bound", "a+bc+", "abc", 2, 1, "aa"},
		{"exactly the bound", "a+b+c+d+efgh", "abcdefgh", hostcheck.MaxCheckedSkills, hostcheck.MaxCheckedSkills, "aa"},
		{"none model-invocable", "ab", "ab", 0, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := contracttest.NewHost()
			for i, r := range tt.skills {
				if r == '+' {
					continue
				}
				name := string(r)
				invocable := strings.HasPrefix(tt.skills[i+1:], "+")
				fake.SetSkill(skill.Definition{Summary: skill.Summary{Name: name, Description: "Does " + name + ".",
					Invocation: skill.InvocationPolicy{ModelInvocable: invocable, UserInvocable: true}}, Content: "Do " + name + "."})
			}
			h := &scripted{Host: fake}
			m := mount(t, h, nil)
			m.step(1)
			r := m.checker.Report()
			if r.Failed() {
				t.Fatalf("violations: %+v", r.Violations)
			}
			if got := strings.Join(h.gets, ""); got != tt.gets {
				t.Errorf("GetSkill asked for %q, want %q", got, tt.gets)
			}
			if got := result(t, r, hostcheck.CheckGetSkill).Passed; got != tt.loads {
				t.Errorf("get-skill passed %d times, want %d", got, tt.loads)
			}
			if got := result(t, r, hostcheck.CheckGetSkillWithheld).Passed; got != tt.withheld {
				t.Errorf("get-skill-withheld-body passed %d times, want %d", got, tt.withheld)
			}
			if got := strings.Join(h.reads, ""); got != tt.resources {
				t.Errorf("ReadResource asked of %q, want %q", got, tt.resources)
			}
		})
	}
}

// shifted numbers the fake's log from 0, as a host off by one would: seq
// n of the fake is n-1 here, and a request's bounds move with it.
func shifted(fake *contracttest.Host) func(context.Context, contract.EventsRequest) (contract.EventPage, error) {
	return func(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
		if req.AfterSeq != 0 {
			req.AfterSeq++
		}
		if req.BeforeSeq != 0 {
			req.BeforeSeq++
		}
		p, err := fake.ReadEvents(ctx, req)
		for i := range p.Events {
			p.Events[i].Seq--
		}
		if p.Head.Seq > 0 {
			p.Head.Seq--
		}
		return p, err
	}
}

// beforeInclusive reads before_seq as "up to and including", as a host
// off by one would: each page repeats the last event of the one before.
func beforeInclusive(fake *contracttest.Host) func(context.Context, contract.EventsRequest) (contract.EventPage, error) {
	return func(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
		if req.BeforeSeq != 0 {
			req.BeforeSeq++
		}
		return fake.ReadEvents(ctx, req)
	}
}

// TestEventPagesHeldToTheirRange: every event of a page lies strictly
// between after_seq and before_seq; one that does not fails events-pages,
// named with the range it fell outside.
func TestEventPagesHeldToTheirRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		host func(fake *contracttest.Host) func(context.Context, contract.EventsRequest) (contract.EventPage, error)
		want string // "" when the pages hold
	}{
		{"a good host", nil, ""},
		{"seqs from 0: the oldest is at after_seq 0", shifted, "event 0 outside the requested range (0, 1)"},
		{"before_seq read inclusively", beforeInclusive, "event 3 outside the requested range (0, 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := contracttest.NewHost()
			for i := range 5 {
				fake.Append("s1", text(fmt.Sprint("u", i), contract.RoleUser, "hello"))
			}
			h := &scripted{Host: fake}
			if tt.host != nil {
				h.readEvents = tt.host(fake)
			}
			m := mount(t, h, nil)
			m.step(1)
			r := m.checker.Report()
			got := details(r, hostcheck.CheckEventsPages)
			want := []string(nil)
			if tt.want != "" {
				want = []string{tt.want}
			}
			if !slices.Equal(got, want) {
				t.Errorf("violations %q, want %q", got, want)
			}
			if c := result(t, r, hostcheck.CheckEventsPages); c.Passed+c.Failed != 1 {
				t.Errorf("events-pages ran %d times, want once", c.Passed+c.Failed)
			}
		})
	}
}

// TestEventsReadUpToMaxCheckedEvents: a log of up to MaxCheckedEvents
// events is read whole, at both page sizes, and checked; a longer one is
// left unchecked, so a long session's step stays cheap.
func TestEventsReadUpToMaxCheckedEvents(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		events  int
		checked bool
	}{
		{hostcheck.MaxCheckedEvents, true},
		{hostcheck.MaxCheckedEvents + 1, false},
	} {
		t.Run(fmt.Sprint(tt.events), func(t *testing.T) {
			t.Parallel()
			fake := contracttest.NewHost()
			fake.Append("s1", make([]contract.Message, tt.events)...)
			m := mount(t, fake, nil)
			m.step(1)
			c := result(t, m.checker.Report(), hostcheck.CheckEventsPages)
			want := 0
			if tt.checked {
				want = 1
			}
			if c.Passed != want || c.Failed != 0 {
				t.Errorf("a log of %d events: events-pages passed %d, failed %d; want passed %d, failed 0", tt.events, c.Passed, c.Failed, want)
			}
		})
	}
}

// catalogSource is the source_json of a message the plugin adds.
var catalogSource = json.RawMessage(`{"catalog":1}`)

// TestSourcesHeldForEveryMessageWithASource: each message with a
// source_json that a step's answer appends or puts in place of a proposed
// one must come back from ReadEvents with it, byte for byte, once the host
// has appended the step; a removal, or a message without a source, holds
// the host to nothing.
func TestSourcesHeldForEveryMessageWithASource(t *testing.T) {
	t.Parallel()
	added := contract.Message{ID: "c1", Role: contract.RoleUser, Source: catalogSource, Content: []contract.ContentBlock{{Type: "text", Text: "catalog"}}}
	plain := text("c2", contract.RoleUser, "no source")
	keep := func(msgs []contract.Message) []contract.Message { return msgs }
	drop := func(msgs []contract.Message) []contract.Message {
		for i := range msgs {
			msgs[i].Source = nil
		}
		return msgs
	}
	tests := []struct {
		name           string
		edit           contract.Edit
		store          func([]contract.Message) []contract.Message
		passed, failed int // events-sources
	}{
		{"appended, kept", contract.Edit{Op: contract.EditAppend, Message: added}, keep, 1, 0},
		{"appended, dropped", contract.Edit{Op: contract.EditAppend, Message: added}, drop, 0, 1},
		{"replacing, kept", contract.Edit{Op: contract.EditReplace, Index: 1, Message: added}, keep, 1, 0},
		{"replacing, dropped", contract.Edit{Op: contract.EditReplace, Index: 1, Message: added}, drop, 0, 1},
		{"a removal", contract.Edit{Op: contract.EditRemove, Index: 1, Message: added}, keep, 0, 0},
		{"appended without a source", contract.Edit{Op: contract.EditAppend, Message: plain}, keep, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := contracttest.NewHost()
			m := mount(t, fake, &stubPlugin{edits: func(req contract.StepRequest) []contract.Edit {
				if req.Step == 1 {
					return []contract.Edit{tt.edit}
				}
				return nil
			}})
			fake.Append("s1", tt.store(m.step(1, text("u1", contract.RoleUser, "hello"), text("u2", contract.RoleUser, "again")))...)
			m.step(2, text("u3", contract.RoleUser, "next"))
			r := m.checker.Report()
			if c := result(t, r, hostcheck.CheckEventsSources); c.Passed != tt.passed || c.Failed != tt.failed {
				t.Errorf("events-sources passed %d, failed %d; want %d and %d (violations %+v)", c.Passed, c.Failed, tt.passed, tt.failed, r.Violations)
			}
		})
	}
}

// TestSourcesViolationCountsTheEvents: a violation of events-sources says
// how many of the step's sources are missing, among how many events
// appended after it, which seqs, and how many of those carry no source at
// all (a host that drops every source, rather than re-encoding them).
func TestSourcesViolationCountsTheEvents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		store func(msgs []contract.Message) []contract.Message
		want  string
	}{
		{"every source dropped", func(msgs []contract.Message) []contract.Message {
			for i := range msgs {
				msgs[i].Source = nil
			}
			return msgs
		}, "and 1 of those sources is on none of the 3 events appended after that step (seq 1 to 3; 3 of them with no source_json at all)"},
		{"every source re-encoded", func(msgs []contract.Message) []contract.Message {
			for i := range msgs {
				if len(msgs[i].Source) > 0 {
					msgs[i].Source = append(slices.Clone(msgs[i].Source), ' ')
				}
			}
			return msgs
		}, "and 1 of those sources is on none of the 3 events appended after that step (seq 1 to 3; 1 of them with no source_json at all)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := contracttest.NewHost()
			m := mount(t, fake, &stubPlugin{edits: func(req contract.StepRequest) []contract.Edit {
				if req.Step == 1 {
					return []contract.Edit{{Op: contract.EditAppend, Message: contract.Message{ID: "c1", Role: contract.RoleUser, Source: catalogSource}}}
				}
				return nil
			}})
			other := text("x1", contract.RoleUser, "from another plugin")
			other.Source = json.RawMessage(`{"other":1}`)
			fake.Append("s1", tt.store(m.step(1, text("u1", contract.RoleUser, "hello"), other))...)
			m.step(2)
			got := details(m.checker.Report(), hostcheck.CheckEventsSources)
			if len(got) != 1 || !strings.HasPrefix(got[0], "turn 0 step 1: the plugin's answer added 1 message(s) with a source_json (its catalog record), "+tt.want+": ") {
				t.Errorf("violations %q, want one saying %q", got, tt.want)
			}
		})
	}
}

// TestIdentityChangesOnlyAcrossABind: the identity `skill` resolves to in
// an agent scope may change from one step to the next only when the host
// bound tools in between.
func TestIdentityChangesOnlyAcrossABind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		second         string // the identity the second step carries
		binds          int    // BindTools calls between the steps
		passed, failed int
	}{
		{"unchanged", "tooldef-1", 0, 1, 0},
		{"changed without a bind", "tooldef-2", 0, 0, 1},
		{"changed after a bind", "tooldef-2", 1, 1, 0},
		{"changed after two binds", "tooldef-2", 2, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			m := mount(t, contracttest.NewHost(), nil)
			step := func(n int, identity string) {
				req := contract.StepRequest{MountID: m.mount, SessionID: "s1", AgentScope: "agent:a", Step: uint32(n), SkillToolIdentity: identity}
				if _, err := m.svc.PreStep(ctx, req); err != nil {
					t.Fatal(err)
				}
			}
			bind := func(identity string) {
				if err := m.svc.BindTools(ctx, m.mount, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: identity}}); err != nil {
					t.Fatal(err)
				}
			}
			bind("tooldef-1")
			step(1, "tooldef-1")
			for range tt.binds {
				bind(tt.second)
			}
			step(2, tt.second)
			c := result(t, m.checker.Report(), hostcheck.CheckToolIdentityStable)
			if c.Passed != tt.passed || c.Failed != tt.failed {
				t.Errorf("tool-identity-stable passed %d, failed %d; want %d and %d", c.Passed, c.Failed, tt.passed, tt.failed)
			}
		})
	}
}
