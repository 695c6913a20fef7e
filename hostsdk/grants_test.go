package hostsdk_test

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// grantTools are the tools a runtime offers beside the plugin's.
var grantTools = []string{"Read", "Write", "WebFetch", "Bash", "mcp__gh__issue", "skill"}

// grantsHost is a host with the plugin in process, mounted with user
// invocation, in the grant mode given, with a skill that withholds tools
// ("release"), one that asks for nothing ("plain"), and an untrusted
// remote one that asks to withhold tools ("remote").
func grantsHost(t *testing.T, mode hostsdk.ToolGrants) *hostsdk.Host {
	t.Helper()
	ctx := context.Background()
	reg := skilltest.NewRegistry(t)
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: reg, Sessions: sessionlog.NewMemoryStore(),
		Logger: slog.New(slog.DiscardHandler), ToolGrants: mode})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	p, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MountJSON(ctx, tools.GlobalScope, `{"userInvocation": true}`); err != nil {
		t.Fatal(err)
	}
	d := &skill.Directives{AllowedTools: []string{"Read", "mcp__gh__*"}, DisallowedTools: []string{"WebFetch", "Bash(rm *)"}}
	for _, rs := range []skills.RuntimeSkill{
		{Name: "release", Description: "Cuts a release.", Content: "Release it.", Directives: d},
		{Name: "plain", Description: "Plain.", Content: "Do it."},
	} {
		if err := reg.Register(tools.GlobalScope, rs); err != nil {
			t.Fatal(err)
		}
	}
	remote := skilltest.New(&skilltest.Options{Label: "docs"})
	sum := skill.Summary{Name: "remote", Description: "Remote.", Invocation: skill.DefaultPolicy(), Origin: "docs", QualifiedName: "docs:remote"}
	claims := &skill.Directives{DisallowedTools: []string{"Read"}, Trusted: true}
	remote.SetSkills(skilltest.Skill{Summary: sum, Loaded: &skill.Definition{Summary: sum, Content: "Remote.", Directives: claims}})
	reg.AddProvider(tools.GlobalScope, remote, &skills.ProviderOptions{Label: "docs"})
	return host
}

func userSays(text string) hostsdk.Decision {
	return hostsdk.Decision{Messages: []hostsdk.Message{{ID: text, Role: hostsdk.RoleUser, UserInput: true,
		Content: []hostsdk.ContentBlock{{Type: "text", Text: text}}}}}
}

func loadSkill(t *testing.T, sess *hostsdk.Session, name string) hostsdk.ToolResult {
	t.Helper()
	res, err := sess.CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: []byte(`{"name":"` + name + `"}`)})
	if err != nil || res.IsError {
		t.Fatalf("load %s: %v %q", name, err, res.Text)
	}
	return res
}

// TestToolGrantsLifetime: with ToolGrantsEnforce, a loaded skill's
// disallowed tools are withheld and refused naming it, until the user
// speaks again, another skill is loaded, or a compaction; a sub-agent
// inherits them; an untrusted skill withholds nothing.
func TestToolGrantsLifetime(t *testing.T) {
	ctx := context.Background()
	host := grantsHost(t, hostsdk.ToolGrantsEnforce)
	sess := host.Session("s1", nil)
	if _, err := sess.Step(ctx, userSays("hello"), nil); err != nil {
		t.Fatal(err)
	}
	if got := sess.OfferedTools(grantTools); !slices.Equal(got, grantTools) {
		t.Fatalf("before any skill: %q", got)
	}
	res := loadSkill(t, sess, "release")
	if !res.Directives.Acted().Has(skill.DirectiveDisallowedTools) || res.Directives.Acted().Has(skill.DirectiveAllowedTools) {
		t.Errorf("acted on %v", res.Directives.Acted())
	}
	if strings.Contains(res.Text, "not be used") || !strings.Contains(res.Text, "usable without approval") {
		t.Errorf("the text states what the host does not act on, and only that:\n%s", res.Text)
	}
	withheld := []string{"Read", "Write", "mcp__gh__issue", "skill"}
	if got := sess.OfferedTools(grantTools); !slices.Equal(got, withheld) {
		t.Errorf("while release is active: %q, want %q", got, withheld)
	}
	for _, tool := range []string{"WebFetch", "Bash"} {
		if refusal, ok := sess.CheckToolCall(tool); ok || refusal != render.GrantRefusal(tool, "release", false) {
			t.Errorf("call of %s: %q, %v", tool, refusal, ok)
		}
	}
	if _, ok := sess.CheckToolCall("Write"); !ok || sess.ActiveSkill() != "release" {
		t.Errorf("Write refused, or active %q", sess.ActiveSkill())
	}
	sub := host.Session("s1-fork", nil)
	sub.InheritGrants(sess)
	if _, ok := sub.CheckToolCall("WebFetch"); ok {
		t.Error("a sub-agent started while release is active may call WebFetch")
	}
	// The sub-agent's first user message is its task: its turn starts,
	// under the inherited grants; its next one ends them.
	if _, err := sub.Step(ctx, userSays("the task"), nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := sub.CheckToolCall("WebFetch"); ok {
		t.Error("the sub-agent's task ended the grants it inherited")
	}
	if _, err := sub.Step(ctx, userSays("a follow-up"), nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := sub.CheckToolCall("WebFetch"); !ok {
		t.Error("the sub-agent's next user message kept the inherited grants")
	}
	// A step without a user's own message is the same turn.
	if _, err := sess.Step(ctx, hostsdk.Decision{Messages: []hostsdk.Message{{ID: "a1", Role: hostsdk.RoleAssistant,
		Content: []hostsdk.ContentBlock{{Type: "text", Text: "working"}}}}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := sess.CheckToolCall("WebFetch"); ok {
		t.Error("the grants ended within the turn")
	}
	if _, err := sess.Step(ctx, userSays("next"), nil); err != nil {
		t.Fatal(err)
	}
	if got := sess.OfferedTools(grantTools); !slices.Equal(got, grantTools) {
		t.Errorf("after the turn: %q", got)
	}
	loadSkill(t, sess, "release")
	loadSkill(t, sess, "plain")
	if _, ok := sess.CheckToolCall("WebFetch"); !ok || sess.ActiveSkill() != "" {
		t.Error("another skill loaded kept release's grants")
	}
	loadSkill(t, sess, "release")
	if _, err := sess.RecordCompaction(ctx, hostsdk.Compaction{Hide: sessionlog.Range{From: 1, To: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := sess.CheckToolCall("WebFetch"); !ok {
		t.Error("a compaction kept the grants")
	}
	loadSkill(t, sess, "remote")
	if _, ok := sess.CheckToolCall("Read"); !ok {
		t.Error("an untrusted skill withheld a tool")
	}
}

// TestToolGrantsUserInvocation: a skill the user invokes by name is
// active from the step that invokes it.
func TestToolGrantsUserInvocation(t *testing.T) {
	host := grantsHost(t, hostsdk.ToolGrantsEnforce)
	sess := host.Session("s1", nil)
	if _, err := sess.Step(context.Background(), userSays("/release now"), nil); err != nil {
		t.Fatal(err)
	}
	if refusal, ok := sess.CheckToolCall("WebFetch"); ok || !strings.Contains(refusal, `"release"`) {
		t.Errorf("after /release: %q, %v", refusal, ok)
	}
}

// TestToolGrantsStrict: with ToolGrantsStrict, only the allowed tools and
// the plugin's own are offered, and allowed-tools counts as acted on.
func TestToolGrantsStrict(t *testing.T) {
	host := grantsHost(t, hostsdk.ToolGrantsStrict)
	sess := host.Session("s1", nil)
	res := loadSkill(t, sess, "release")
	if res.Directives.Unhonoured() != 0 || strings.Contains(res.Text, "<skill_directives") {
		t.Errorf("unhonoured %v:\n%s", res.Directives.Unhonoured(), res.Text)
	}
	if got, want := sess.OfferedTools(grantTools), []string{"Read", "mcp__gh__issue", "skill"}; !slices.Equal(got, want) {
		t.Errorf("strict: %q, want %q", got, want)
	}
	if refusal, _ := sess.CheckToolCall("Write"); refusal != render.GrantRefusal("Write", "release", true) {
		t.Errorf("Write: %q", refusal)
	}
}

// TestToolGrantsOff: by default nothing is withheld, and the skill's text
// says that its disallowed tools are not withheld.
func TestToolGrantsOff(t *testing.T) {
	host := grantsHost(t, hostsdk.ToolGrantsOff)
	sess := host.Session("s1", nil)
	res := loadSkill(t, sess, "release")
	if !strings.Contains(res.Text, "this host does not withhold them") {
		t.Errorf("no notice:\n%s", res.Text)
	}
	if got := sess.OfferedTools(grantTools); !slices.Equal(got, grantTools) {
		t.Errorf("off: %q", got)
	}
}

func TestToolPatternMatches(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"Read", "Read", true}, {"Read", "read", false}, {"Read", "ReadFile", false},
		{"Bash(git add *)", "Bash", true}, {"Bash(git add *)", "Bash(git add *)", false}, {"(x)", "", false},
		{"mcp__gh__*", "mcp__gh__issue", true}, {"mcp__gh__*", "mcp__gl__issue", false}, {"*", "anything", true},
	} {
		if got := hostsdk.ToolPatternMatches(tc.pattern, tc.name); got != tc.want {
			t.Errorf("ToolPatternMatches(%q, %q) = %v", tc.pattern, tc.name, got)
		}
	}
}
