package plugin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

func TestParseConfigInvocationOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw      string
		wantArgs bool
		wantForm string
		wantErr  string
	}{
		{raw: `{"userInvocation": true}`},
		{raw: `{"userInvocation": true, "invocationArguments": true}`, wantArgs: true},
		{raw: `{"userInvocation": true, "invocationArguments": false}`},
		{raw: `{"invocationArguments": false}`},
		{raw: `{"userInvocation": true, "invocationForm": "slash"}`},
		{raw: `{"invocationForm": "slash"}`},
		{raw: `{"userInvocation": true, "invocationForm": "dollar"}`, wantForm: "dollar"},
		{raw: `{"userInvocation": true, "invocationForm": "both", "invocationArguments": true}`, wantArgs: true, wantForm: "both"},
		{raw: `{"invocationArguments": true}`, wantErr: `invocationArguments needs userInvocation: true (arguments are what the user writes after /name)`},
		{raw: `{"userInvocation": false, "invocationArguments": true}`, wantErr: `invocationArguments needs userInvocation: true (arguments are what the user writes after /name)`},
		{raw: `{"userInvocation": true, "invocationArguments": "yes"}`, wantErr: `invocationArguments must be true or false, got "yes"`},
		{raw: `{"userInvocation": true, "invocationArguments": null}`, wantErr: `invocationArguments must be true or false, got null`},
		{raw: `{"invocationForm": "dollar"}`, wantErr: `invocationForm needs userInvocation: true (the form is how the user invokes a skill)`},
		{raw: `{"userInvocation": true, "invocationForm": "Dollar"}`, wantErr: `invocationForm must be "slash", "dollar" or "both", got "Dollar"`},
		{raw: `{"userInvocation": true, "invocationForm": 1}`, wantErr: `invocationForm must be "slash", "dollar" or "both", got 1`},
		{raw: `{"userInvocation": true, "invocationForm": null}`, wantErr: `invocationForm must be "slash", "dollar" or "both", got null`},
	}
	for _, tc := range tests {
		cfg, err := ParseConfig(tc.raw)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("ParseConfig(%s) error = %v, want %q", tc.raw, err, tc.wantErr)
			}
			continue
		}
		if err != nil || cfg.InvocationArguments != tc.wantArgs || cfg.InvocationForm != tc.wantForm {
			t.Errorf("ParseConfig(%s) = arguments %v form %q, %v; want %v %q", tc.raw, cfg.InvocationArguments, cfg.InvocationForm, err, tc.wantArgs, tc.wantForm)
		}
		// The Go form round-trips.
		if again, err := ParseConfig(cfg.JSON()); err != nil || again != cfg {
			t.Errorf("ParseConfig(%s) = %+v, %v; want %+v", cfg.JSON(), again, err, cfg)
		}
	}
}

func TestParseConfigUserInvocation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw     string
		want    bool
		wantErr string
	}{
		{raw: "", want: false},
		{raw: `{"userInvocation": false}`, want: false},
		{raw: `{"userInvocation": true}`, want: true},
		{raw: `{"userInvocation": true, "catalogDescriptionMaxLength": 40}`, want: true},
		{raw: `{"userInvocation": "true"}`, wantErr: `userInvocation must be true or false, got "true"`},
		{raw: `{"userInvocation": 1}`, wantErr: `userInvocation must be true or false, got 1`},
		{raw: `{"userInvocation": null}`, wantErr: `userInvocation must be true or false, got null`},
		{raw: `{"userInvocation": [true]}`, wantErr: `userInvocation must be true or false, got [true]`},
		{raw: `{"userInvokation": true}`, wantErr: `unknown plugin option "userInvokation" (known options: catalogBudget, catalogDescriptionMaxLength, invocationArguments, invocationForm, reattachBudget, reattachSkillMaxLength, relevantSkills, resourceTool, searchTool, userInvocation)`},
	}
	for _, tc := range tests {
		cfg, err := ParseConfig(tc.raw)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("ParseConfig(%s) error = %v, want %q", tc.raw, err, tc.wantErr)
			}
			continue
		}
		if err != nil || cfg.UserInvocation != tc.want {
			t.Errorf("ParseConfig(%s) = %v, %v; want %v", tc.raw, cfg.UserInvocation, err, tc.want)
		}
	}
}

// recordingHost records the GetSkill requests the plugin makes, and answers
// as a host does: the content of a skill the request may not use is empty.
type recordingHost struct {
	*memHost
	loads []contract.SkillRequest
}

func (h *recordingHost) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	h.loads = append(h.loads, req)
	got, err := h.memHost.GetSkill(ctx, req)
	pol := got.Skill.Invocation
	if got.Found && !pol.ModelInvocable && !(req.UserInvocation && pol.UserInvocable) {
		got.Skill.Content, got.Skill.ResourceBase = "", nil
	}
	return got, err
}

func invocationMount() mount {
	m := testMount()
	m.cfg.UserInvocation = true
	return m
}

// typed is a direct user message.
func typed(id, text string) contract.Message {
	m := userMsg(id, text)
	m.UserInput = true
	return m
}

func definition(name string, pol skill.InvocationPolicy, body string) skill.Definition {
	return skill.Definition{
		Summary:      skill.Summary{Name: name, Description: "About " + name + ".", Provider: "runtime", Invocation: pol},
		ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: "/skills/" + name},
		Content:      body,
	}
}

func rendered(t *testing.T, d skill.Definition) string {
	t.Helper()
	s, err := render.SkillContent(d.ToolValue(), false)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestUserInvocationRules(t *testing.T) {
	both := skill.DefaultPolicy()
	userOnly := skill.InvocationPolicy{UserInvocable: true}
	modelOnly := skill.InvocationPolicy{ModelInvocable: true}
	defs := []skill.Definition{
		definition("alpha", both, "Do alpha."),
		definition("beta", both, "Do beta."),
		definition("deploy", userOnly, "Deploy with care."),
		definition("lint", modelOnly, "Lint it."),
	}
	listing := func(pol map[string]skill.InvocationPolicy) []skill.Summary {
		var out []skill.Summary
		for _, d := range defs {
			s := d.Summary
			if p, ok := pol[s.Name]; ok {
				s.Invocation = p
			}
			out = append(out, s)
		}
		return out
	}

	tests := []struct {
		name       string
		off        bool                              // the mount leaves user invocation off
		listed     map[string]skill.InvocationPolicy // listing policy differing from the loaded one
		loaded     map[string]skill.InvocationPolicy // loaded policy differing from defs
		unlisted   []string                          // skills the snapshot does not list
		incomplete bool
		identity   string // "" means the mount's own
		downstream contract.Decision
		wantSkills []string // injected, in order
		wantLoads  []string // GetSkill names, in order
		wantErr    string
		outcome    contract.Outcome
	}{
		{
			name:       "option off: a /name is ordinary text",
			off:        true,
			downstream: enter(typed("u1", "/alpha")),
			outcome:    contract.OutcomeInitial,
		},
		{
			name:       "a /name in a direct user message injects the skill",
			downstream: enter(typed("u1", "please /alpha now")),
			wantSkills: []string{"alpha"},
			wantLoads:  []string{"alpha"},
			outcome:    contract.OutcomeInitial,
		},
		{
			name:       "a user message not marked as direct input is not scanned",
			downstream: enter(userMsg("u1", "/alpha")),
			outcome:    contract.OutcomeInitial,
		},
		{
			name:       "assistant and tool text is not scanned, even when marked",
			downstream: enter(contract.Message{ID: "a1", Role: contract.RoleAssistant, UserInput: true, Content: []contract.ContentBlock{{Type: "text", Text: "/alpha"}}}, contract.Message{ID: "t1", Role: contract.RoleTool, UserInput: true, Content: []contract.ContentBlock{{Type: "text", Text: "/beta"}}}),
			outcome:    contract.OutcomeInitial,
		},
		{
			name:       "unknown and invalid names are text; unknown ones are not even loaded",
			downstream: enter(typed("u1", "/gone /Alpha /alpha. /usr/bin //beta")),
			outcome:    contract.OutcomeInitial,
		},
		{
			name:       "a skill whose loaded definition is not user-invocable is text",
			downstream: enter(typed("u1", "/lint")),
			wantLoads:  []string{"lint"},
			outcome:    contract.OutcomeInitial,
		},
		{
			name:       "the loaded policy decides, not the listing: listed user-invocable, loaded not",
			loaded:     map[string]skill.InvocationPolicy{"alpha": modelOnly},
			downstream: enter(typed("u1", "/alpha")),
			wantLoads:  []string{"alpha"},
			outcome:    contract.OutcomeInitial,
		},
		{
			name:       "the loaded policy decides, not the listing: listed not user-invocable, loaded is",
			listed:     map[string]skill.InvocationPolicy{"alpha": modelOnly},
			downstream: enter(typed("u1", "/alpha")),
			wantSkills: []string{"alpha"},
			wantLoads:  []string{"alpha"},
			outcome:    contract.OutcomeInitial,
		},
		{
			name:       "a skill the model may not invoke reaches it only this way",
			downstream: enter(typed("u1", "/deploy")),
			wantSkills: []string{"deploy"},
			wantLoads:  []string{"deploy"},
			outcome:    contract.OutcomeInitial,
		},
		{
			name:       "the same skill twice in a step is injected once; several in order of first appearance",
			downstream: enter(typed("u1", "/beta /alpha /beta"), typed("u2", "/alpha\n/deploy")),
			wantSkills: []string{"beta", "alpha", "deploy"},
			wantLoads:  []string{"beta", "alpha", "deploy"},
			outcome:    contract.OutcomeInitial,
		},
		{
			name:       "a downstream reject passes through untouched",
			downstream: contract.Decision{Reject: &contract.Reject{Reason: "no"}},
			outcome:    contract.OutcomeRejectPassthrough,
		},
		{
			name:       "a provider error fails the step",
			downstream: enter(typed("u1", "/alpha /boom")),
			wantLoads:  []string{"alpha", "boom"},
			wantErr:    `load skill "boom" invoked by the user: disk on fire`,
		},
		{
			name:       "an incomplete snapshot proves nothing absent: unlisted names are loaded",
			incomplete: true,
			unlisted:   []string{"beta"},
			downstream: enter(typed("u1", "/beta /gone")),
			wantSkills: []string{"beta"},
			wantLoads:  []string{"beta", "gone"},
			outcome:    contract.OutcomeIncomplete,
		},
		{
			name:       "the mount's tool hidden from the agent (restricted or shadowed): nothing is loaded",
			identity:   "tooldef-shadow",
			downstream: enter(typed("u1", "/deploy /alpha")),
			outcome:    contract.OutcomeUnchanged,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := newMemHost(listing(tc.listed)...)
			mem.skills = slices.DeleteFunc(mem.skills, func(s skill.Summary) bool { return slices.Contains(tc.unlisted, s.Name) })
			mem.complete = !tc.incomplete
			for _, d := range defs {
				if p, ok := tc.loaded[d.Name]; ok {
					d.Invocation = p
				}
				mem.defs[d.Name] = d
			}
			h := &recordingHost{memHost: mem}
			if tc.wantErr != "" {
				// One skill of the snapshot whose provider fails to load it.
				mem.skills = append(mem.skills, summary("boom", "Fails."))
				h2 := &failingLoads{recordingHost: h, fail: map[string]string{"boom": "disk on fire"}}
				m := invocationMount()
				_, err := newEngine().preStep(context.Background(), h2, m, step(mem, tc.downstream))
				var ie *invocationError
				if !errors.As(err, &ie) || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want an *InvocationError %q", err, tc.wantErr)
				}
				checkLoads(t, h.loads, tc.wantLoads)
				return
			}
			m := invocationMount()
			if tc.off {
				m = testMount()
			}
			req := step(mem, tc.downstream)
			if tc.identity != "" {
				req.SkillToolIdentity = tc.identity
			}
			resp, err := newEngine().preStep(context.Background(), h, m, req)
			if err != nil {
				t.Fatalf("PreStep: %v", err)
			}
			if resp.Outcome != tc.outcome {
				t.Errorf("outcome = %v, want %v", resp.Outcome, tc.outcome)
			}
			checkLoads(t, h.loads, tc.wantLoads)
			final, err := req.Downstream.Apply(resp.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if req.Downstream.Reject != nil {
				if len(resp.Edits) != 0 {
					t.Errorf("edits to a rejected step: %+v", resp.Edits)
				}
				return
			}
			// Injected messages come after every other message, in order.
			var injected []string
			var firstInjected = -1
			for i, msg := range final.Messages {
				if !strings.Contains(string(msg.Source), "skill-invocation") {
					if firstInjected >= 0 {
						t.Errorf("message %d (%q) follows an injected skill", i, msg.ID)
					}
					continue
				}
				if firstInjected < 0 {
					firstInjected = i
				}
				_, loads, ok := events.ParseLoads(msg.Source)
				if !ok || len(loads) != 1 || loads[0].Digest == "" {
					t.Fatalf("injected %q: source %s is not an invocation record with a digest", msg.ID, msg.Source)
				}
				name := loads[0].Name
				injected = append(injected, name)
				if msg.Role != contract.RoleUser || msg.UserInput {
					t.Errorf("injected %s: role %q, user input %v; want a user-role message not marked as user input", name, msg.Role, msg.UserInput)
				}
				if want := rendered(t, mem.defs[name]); msg.Text() != want {
					t.Errorf("injected %s: text (-want +got):\n%s", name, cmp.Diff(want, msg.Text()))
				}
				if want := fmt.Sprintf("skill-invocation-s1-%d-%s", mem.head().Seq, name); msg.ID != want {
					t.Errorf("injected %s: id %q, want %q", name, msg.ID, want)
				}
			}
			if !slices.Equal(injected, tc.wantSkills) {
				t.Errorf("injected %q, want %q", injected, tc.wantSkills)
			}
		})
	}
}

func checkLoads(t *testing.T, got []contract.SkillRequest, want []string) {
	t.Helper()
	var names []string
	for _, r := range got {
		names = append(names, r.Name)
		if !r.UserInvocation {
			t.Errorf("load of %q is not marked as a user invocation", r.Name)
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("loads %q, want %q", names, want)
	}
}

// failingLoads answers the loads it names with a provider error.
type failingLoads struct {
	*recordingHost
	fail map[string]string
}

func (h *failingLoads) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	if msg, ok := h.fail[req.Name]; ok {
		h.loads = append(h.loads, req)
		return contract.SkillLookup{Error: msg}, nil
	}
	return h.recordingHost.GetSkill(ctx, req)
}

func TestUserInvocationAfterCatalog(t *testing.T) {
	mem := newMemHost(summary("alpha", "Does alpha."))
	mem.defs["alpha"] = definition("alpha", skill.DefaultPolicy(), "Do alpha.")
	e := newEngine()
	req := step(mem, enter(typed("u1", "/alpha")))
	resp := mustPreStep(t, e, mem, invocationMount(), req)
	final := mem.apply(t, req, resp)
	if got := []string{final[0].ID, final[1].ID, final[2].ID}; len(final) != 3 || !strings.HasPrefix(got[1], "skill-catalog-") || got[2] != "skill-invocation-s1-0-alpha" {
		t.Fatalf("final messages %q, want the user's, the catalog, the skill", got)
	}
	if want := render.WithUserInvocationNote(render.InitialCatalog([]digest.Entry{{Name: "alpha", Description: "Does alpha."}})); final[1].Text() != want {
		t.Errorf("catalog (-want +got):\n%s", cmp.Diff(want, final[1].Text()))
	}
	// A later step of the same turn (the user's message is in the log now,
	// not proposed) injects nothing again.
	mem.appendSource(nil) // the model's reply
	resp = mustPreStep(t, e, mem, invocationMount(), step(mem, enter()))
	if resp.Outcome != contract.OutcomeUnchanged || len(resp.Edits) != 0 {
		t.Errorf("later step: %v with %d edits, want unchanged with none", resp.Outcome, len(resp.Edits))
	}
	// The injected message is foreign to the catalog rules.
	if resp.Outcome != contract.OutcomeUnchanged {
		t.Errorf("the injected message hid the catalog")
	}
}

func TestUserInvocationBound(t *testing.T) {
	var skills []skill.Summary
	var text []string
	mem := newMemHost()
	for i := range maxInvocationsPerStep + 4 {
		name := fmt.Sprintf("s%02d", i)
		skills = append(skills, summary(name, "S."))
		mem.defs[name] = definition(name, skill.DefaultPolicy(), "Body.")
		text = append(text, "/"+name)
	}
	mem.skills = skills
	h := &recordingHost{memHost: mem}
	resp, err := newEngine().preStep(context.Background(), h, invocationMount(), step(mem, enter(typed("u1", strings.Join(text, " ")))))
	if err != nil {
		t.Fatal(err)
	}
	if len(h.loads) != maxInvocationsPerStep || len(resp.Edits) != maxInvocationsPerStep+1 {
		t.Errorf("%d loads and %d edits, want %d loads and a catalog and %d skills", len(h.loads), len(resp.Edits), maxInvocationsPerStep, maxInvocationsPerStep)
	}
}

// TestInjectedMessageGolden pins the whole message a user invocation adds
// for a skill the model may not invoke: the text is exactly what the
// `skill` tool returns for it.
func TestInjectedMessageGolden(t *testing.T) {
	mem := newMemHost()
	def := definition("deploy-prod", skill.InvocationPolicy{UserInvocable: true}, "# Deploy\n\nRun `make deploy` & watch <the dashboard>.")
	def.Provider = "agentskills"
	def.ResourceBase.Path = "/home/dev/.agents/skills/deploy-prod"
	mem.skills = []skill.Summary{def.Summary}
	mem.defs[def.Name] = def
	h := &recordingHost{memHost: mem}
	req := step(mem, enter(typed("u1", "Ship it: /deploy-prod")))
	resp, err := newEngine().preStep(context.Background(), h, invocationMount(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Outcome != contract.OutcomeUnchanged || len(resp.Edits) != 1 || resp.Edits[0].Op != contract.EditAppend {
		t.Fatalf("outcome %v, edits %+v; want unchanged (no model-invocable skills) and one append", resp.Outcome, resp.Edits)
	}
	msg := resp.Edits[0].Message
	golden, err := os.ReadFile(filepath.Join("..", "render", "testdata", "user_invocation_message.golden"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		`<skill_content name="deploy-prod">`,
		"<skill_resources>",
		"Resource base directory: /home/dev/.agents/skills/deploy-prod",
		"Resolve only the relative paths that these instructions explicitly reference against this directory. Load referenced scripts, references, and assets on demand, only when the task needs them.",
		"</skill_resources>",
		"<skill_instructions>",
		"# Deploy",
		"",
		"Run `make deploy` & watch <the dashboard>.",
		"</skill_instructions>",
		"</skill_content>",
	}, "\n")
	if diff := cmp.Diff(want, string(golden)); diff != "" {
		t.Errorf("golden file differs from the literal template (-want +golden):\n%s", diff)
	}
	if diff := cmp.Diff(string(golden), msg.Text()); diff != "" {
		t.Errorf("injected text (-golden +got):\n%s", diff)
	}
	wantSource := `{"kind":"skill-invocation","name":"deploy-prod","digest":"` + events.ContentDigest(def.Content) + `"}`
	if got, want := string(msg.Source), wantSource; got != want {
		t.Errorf("source %s, want %s", got, want)
	}
	if msg.Role != contract.RoleUser || msg.ID != "skill-invocation-s1-0-deploy-prod" {
		t.Errorf("role %q, id %q", msg.Role, msg.ID)
	}
}

// TestInjectionWithResourceTool: with the resourceTool option, a `/name`
// injection of a skill the model may invoke is exactly the `skill` tool's
// answer for it, the skill_resource guidance included; a skill only the
// user may invoke gets the block without that guidance, since
// skill_resource refuses to read its files.
func TestInjectionWithResourceTool(t *testing.T) {
	mem := newMemHost()
	both := definition("pdf-forms", skill.InvocationPolicy{ModelInvocable: true, UserInvocable: true}, "# Forms\n\nRun `scripts/fill.py`.")
	both.Provider = "agentskills"
	both.ResourceBase.Path = "/home/dev/.agents/skills/pdf-forms"
	userOnly := definition("deploy-prod", skill.InvocationPolicy{UserInvocable: true}, "# Deploy\n\nRun `make deploy` & watch <the dashboard>.")
	userOnly.Provider = "agentskills"
	userOnly.ResourceBase.Path = "/home/dev/.agents/skills/deploy-prod"
	mem.skills = []skill.Summary{userOnly.Summary, both.Summary}
	mem.defs[both.Name], mem.defs[userOnly.Name] = both, userOnly
	h := &recordingHost{memHost: mem}
	m := invocationMount()
	m.cfg.ResourceTool = true
	e := newEngine()

	req := step(mem, enter(typed("u1", "/pdf-forms then /deploy-prod")))
	resp, err := e.preStep(context.Background(), h, m, req)
	if err != nil {
		t.Fatal(err)
	}
	injected := map[string]string{}
	for _, ed := range resp.Edits {
		for _, name := range []string{"pdf-forms", "deploy-prod"} {
			if kind, loads, ok := events.ParseLoads(ed.Message.Source); ok && kind == "skill-invocation" && loads[0].Name == name {
				injected[name] = ed.Message.Text()
			}
		}
	}
	tool, err := e.executeSkillTool(context.Background(), h, m, contract.ToolCall{SessionID: "s1", Cwd: "/w", AgentScope: "global", Arguments: []byte(`{"name":"pdf-forms"}`)})
	if err != nil || tool.IsError {
		t.Fatalf("skill tool: %q, %v", tool.Text, err)
	}
	if diff := cmp.Diff(tool.Text, injected["pdf-forms"]); diff != "" {
		t.Errorf("injection of a model-invocable skill differs from the skill tool's answer (-tool +injected):\n%s", diff)
	}
	for name, golden := range map[string]string{"pdf-forms": "user_invocation_message_resource_tool.golden", "deploy-prod": "user_invocation_message.golden"} {
		want, err := os.ReadFile(filepath.Join("..", "render", "testdata", golden))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), injected[name]); diff != "" {
			t.Errorf("injection of %s (-%s +got):\n%s", name, golden, diff)
		}
	}
	// The rule the texts follow: skill_resource reads nothing of a skill
	// the model may not invoke.
	rh := &resHost{memHost: mem, files: map[string]string{"deploy-prod/notes.md": "x", "pdf-forms/scripts/fill.py": "x"}}
	if res := readCall(t, rh, `{"name":"deploy-prod","path":"notes.md"}`); res.Text != string(render.NotModelInvocable("deploy-prod")) || len(rh.asked) != 0 {
		t.Errorf("skill_resource of a user-only skill: %q after %d reads, want the not-model-invocable refusal and no read", res.Text, len(rh.asked))
	}
	if res := readCall(t, rh, `{"name":"pdf-forms","path":"scripts/fill.py"}`); res.IsError {
		t.Errorf("skill_resource of a model-invocable skill: %q", res.Text)
	}
}
