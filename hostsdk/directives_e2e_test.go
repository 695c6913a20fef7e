package hostsdk_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// directivesRun is what one run of the directives scenario saw.
type directivesRun struct {
	Tools       map[string]hostsdk.ToolResult
	Invocations []hostsdk.Invocation
	Invoked     string // the text of the message the user's /deploy-preview added
	Asked       []hostsdk.DirectiveRequest
}

// runDirectives loads the plugin as opts says and loads skills that ask
// for directives: the host's own, a remote server's it does not trust, and
// one's it opted in to trust, with a handler that acts on models and
// tools, not on forks.
func runDirectives(t *testing.T, opts *hostsdk.LoadOptions) directivesRun {
	t.Helper()
	ctx := context.Background()
	reg := skilltest.NewRegistry(t)
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: reg, Sessions: sessionlog.NewMemoryStore(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	p, err := host.Load(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MountJSON(ctx, tools.GlobalScope, `{"userInvocation": true}`); err != nil {
		t.Fatal(err)
	}
	asks := skill.Directives{Context: skill.ContextFork, Agent: "Explore", Model: "opus", AllowedTools: []string{"Bash(git add *)", "Read"}, Diagnostics: []string{"a note"}}
	own := asks
	if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "deploy-preview", Description: "Deploys a preview.", Content: "Deploy it.", Directives: &own}); err != nil {
		t.Fatal(err)
	}
	for _, server := range []struct {
		label, name string
		trust       bool
	}{{"docs", "remote-review", false}, {"team", "team-review", true}} {
		claims := asks
		claims.Trusted = true // what a server says counts for nothing
		remote := skilltest.New(&skilltest.Options{Label: server.label})
		sum := skill.Summary{Name: server.name, Description: "Reviews.", Invocation: skill.DefaultPolicy(), Origin: server.label, QualifiedName: server.label + ":" + server.name}
		remote.SetSkills(skilltest.Skill{Summary: sum, Loaded: &skill.Definition{Summary: sum, Content: "Review it.", Directives: &claims}})
		reg.AddProvider(tools.GlobalScope, remote, &skills.ProviderOptions{Label: server.label, TrustDirectives: server.trust})
	}
	var mu sync.Mutex
	r := directivesRun{Tools: map[string]hostsdk.ToolResult{}}
	host.HandleDirectives(func(_ context.Context, req hostsdk.DirectiveRequest) skill.DirectiveSet {
		mu.Lock()
		defer mu.Unlock()
		r.Asked = append(r.Asked, req)
		return skill.DirectiveModel | skill.DirectiveAllowedTools
	})
	sess := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work"})
	res, err := sess.Step(ctx, hostsdk.Decision{Messages: []hostsdk.Message{{ID: "u1", Role: hostsdk.RoleUser, UserInput: true,
		Content: []hostsdk.ContentBlock{{Type: "text", Text: "/deploy-preview please"}}}}}, nil)

	if err != nil {
		t.Fatal(err)
	}
	r.Invocations = res.Invocations
	r.Invoked = res.Decision.Messages[len(res.Decision.Messages)-1].Text()
	for _, name := range []string{"deploy-preview", "remote-review", "team-review"} {
		out, err := sess.CallTool(ctx, hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"` + name + `"}`)})
		if err != nil || out.IsError {
			t.Fatalf("skill %s: %q, %v", name, out.Text, err)
		}
		r.Tools[name] = out
	}
	return r
}

// TestDirectivesCrossTheWire drives skills that ask for directives through
// the real plugin binary over go-plugin and through the in-process plugin,
// and requires the same results from both: a skill's directives reach the
// runtime beside its text, for the `skill` tool and for a user's `/name`;
// the handler is asked only about trusted ones and what it acts on is
// marked; the text states the rest as not acted on.
func TestDirectivesCrossTheWire(t *testing.T) {
	proc := runDirectives(t, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
	inproc := runDirectives(t, &hostsdk.LoadOptions{InProcess: true})
	if diff := cmp.Diff(proc, inproc); diff != "" {
		t.Errorf("the plugin binary and the in-process plugin differ (-binary +in-process):\n%s", diff)
	}

	acted := skill.DirectiveModel | skill.DirectiveAllowedTools
	ownWant := &skill.Directives{Context: skill.ContextFork, Agent: "Explore", Model: "opus", AllowedTools: []string{"Bash(git add *)", "Read"},
		Trusted: true, Honoured: acted, Diagnostics: []string{"a note"}}
	if diff := cmp.Diff(ownWant, proc.Tools["deploy-preview"].Directives); diff != "" {
		t.Errorf("the host's own skill (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]hostsdk.Invocation{{Name: "deploy-preview", MessageID: "skill-invocation-s1-0-deploy-preview", Directives: ownWant}}, proc.Invocations); diff != "" {
		t.Errorf("the user's invocation (-want +got):\n%s", diff)
	}
	remote := proc.Tools["remote-review"].Directives
	if remote == nil || remote.Trusted || remote.Honoured != 0 || remote.Model != "opus" {
		t.Errorf("an untrusted server's skill: %+v, want its requests, untrusted, honoured by nothing", remote)
	}
	if team := proc.Tools["team-review"].Directives; team == nil || !team.Trusted || team.Honoured != acted {
		t.Errorf("a server the host opted in to trust: %+v", team)
	}

	// The handler is asked about trusted skills only: the host's own (for
	// the user's /name, then the tool) and the trusted server's.
	var asked []string
	for _, a := range proc.Asked {
		asked = append(asked, a.Name+map[bool]string{true: " (user)", false: ""}[a.UserInvocation])
	}
	if want := []string{"deploy-preview (user)", "deploy-preview", "team-review"}; !cmp.Equal(want, asked) {
		t.Errorf("handler asked about %q, want %q", asked, want)
	}

	// The text states what is not acted on: the fork for the host's own
	// skill (a notice of the fork alone), everything for the untrusted one.
	own := proc.Tools["deploy-preview"].Text
	if !strings.HasSuffix(own, "</skill_content>\n"+render.DirectivesNotice("deploy-preview", ownWant)) ||
		!strings.Contains(own, "context: fork") || strings.Contains(own, `"opus"`) {
		t.Errorf("the host's own skill's text:\n%s", own)
	}
	if proc.Invoked != own {
		t.Errorf("the /name message differs from the tool's text (-tool +message):\n%s", cmp.Diff(own, proc.Invoked))
	}
	if text := proc.Tools["remote-review"].Text; !strings.Contains(text, `"opus"; this host keeps the current model`) || !strings.Contains(text, "context: fork") {
		t.Errorf("an untrusted skill's text does not state every request as not acted on:\n%s", text)
	}
}

// TestChangedDirectivesReachTheNextLoad: a SKILL.md whose `model:` alone
// changes (its catalog entry, and so the snapshot's token, stay the same)
// loads with the new model at the next `skill` call, through the plugin
// binary: nothing between the file and the result holds the old one.
func TestChangedDirectivesReachTheNextLoad(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	write := func(model string) {
		writeSkill(t, filepath.Join(dir, "review"), "---\nname: review\ndescription: Review a change.\nmodel: "+model+"\n---\nReview it.\n")
	}
	write("sonnet")
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{dir}, Launcher: pluginproc.Binary{Path: pluginPath}})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	sess := host.Session("s1", nil)
	if _, err := sess.Step(t.Context(), hostsdk.Decision{}, nil); err != nil {
		t.Fatal(err)
	}
	load := func() string {
		t.Helper()
		res, err := sess.CallTool(t.Context(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"review"}`)})
		if err != nil || res.IsError || res.Directives == nil {
			t.Fatalf("skill review: %+v, %v", res, err)
		}
		return res.Directives.Model
	}
	if got := load(); got != "sonnet" {
		t.Fatalf("first load: model %q", got)
	}
	write("opus")
	if got := load(); got != "opus" {
		t.Errorf("after the edit: model %q, want opus", got)
	}
	res, err := sess.Step(t.Context(), hostsdk.Decision{}, nil)
	if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
		t.Errorf("the step after the edit: %v, %v; want the catalog unchanged", res.Outcome, err)
	}
}

// TestSessionDirectiveHandler: a session's own handler answers for its
// loads in place of the host's, until the session ends; other sessions
// keep the host's.
func TestSessionDirectiveHandler(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	writeSkill(t, filepath.Join(dir, "review"), "---\nname: review\ndescription: Review a change.\nmodel: opus\ncontext: fork\n---\nReview it.\n")
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{dir}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	host.HandleDirectives(func(context.Context, hostsdk.DirectiveRequest) skill.DirectiveSet { return skill.DirectiveModel })
	acted := func(s *hostsdk.Session) skill.DirectiveSet {
		t.Helper()
		res, err := s.CallTool(t.Context(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"review"}`)})
		if err != nil || res.IsError || res.Directives == nil {
			t.Fatalf("skill review: %+v, %v", res, err)
		}
		return res.Directives.Acted()
	}
	own, other := host.Session("own", nil), host.Session("other", nil)
	own.HandleDirectives(func(_ context.Context, req hostsdk.DirectiveRequest) skill.DirectiveSet {
		if req.SessionID != "own" {
			t.Errorf("the session's handler was asked about session %q", req.SessionID)
		}
		return skill.DirectiveContext
	})
	if got, want := acted(own), skill.DirectiveContext; got != want {
		t.Errorf("the session with its own handler: acted on %v, want %v", got, want)
	}
	if got, want := acted(other), skill.DirectiveModel; got != want {
		t.Errorf("another session: acted on %v, want the host's %v", got, want)
	}
	if err := own.End(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got, want := acted(own), skill.DirectiveModel; got != want {
		t.Errorf("the session after it ended: acted on %v, want the host's %v", got, want)
	}
	own.HandleDirectives(func(context.Context, hostsdk.DirectiveRequest) skill.DirectiveSet { return 0 })
	own.HandleDirectives(nil)
	if got, want := acted(own), skill.DirectiveModel; got != want {
		t.Errorf("the session's handler set to nil: acted on %v, want the host's %v", got, want)
	}
}
