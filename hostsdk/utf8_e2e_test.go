package hostsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// TestInvalidUTF8DescriptionIsRefusedAtRegister: a runtime skill whose
// description is not UTF-8 is refused by Register, naming the field, so
// every session of the host keeps stepping through the real plugin.
func TestInvalidUTF8DescriptionIsRefusedAtRegister(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	e.register(tools.GlobalScope, "alpha", "First skill.")
	err := e.reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "broken", Description: "caf\xe9 latin-1", Content: "Body."})
	if !errors.Is(err, skill.ErrInvalidUTF8) || !strings.Contains(err.Error(), `register "broken"`) || !strings.Contains(err.Error(), "description is not valid UTF-8 (byte 3") {
		t.Errorf("Register with a non-UTF-8 description: %v, want an error naming the skill, the description and UTF-8", err)
	}
	e.mount(tools.GlobalScope)
	for _, session := range []string{"s1", "s2"} {
		res, err := e.host.Session(session, &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{}, nil)
		if err != nil {
			t.Fatalf("PreStep(%s): %v (outcome %s)", session, err, res.Outcome)
		}
		expect(t, res, hostsdk.OutcomeInitial, "alpha")
	}
}

// TestInvalidUTF8UserMessageIsTheHostsError: a proposed message that is not
// UTF-8 fails the step as the host's (*HostError naming the message), not
// the plugin's, with the plugin as a process and in process, and the next
// step of the session goes on.
func TestInvalidUTF8UserMessageIsTheHostsError(t *testing.T) {
	for name, opts := range map[string]*hostsdk.LoadOptions{
		"binary":     {Launcher: pluginproc.Binary{Path: pluginPath}},
		"in process": {InProcess: true},
	} {
		t.Run(name, func(t *testing.T) {
			host, reg, _ := modeEnv(t, opts, hostsdk.Options{})
			if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "alpha", Description: "First skill.", Content: "Do alpha."}); err != nil {
				t.Fatal(err)
			}
			msg := hostsdk.Message{ID: "u-latin1", Role: hostsdk.RoleUser, UserInput: true, Content: []hostsdk.ContentBlock{{Type: "text", Text: "ol\xe1"}}}
			step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a", Downstream: hostsdk.Decision{Messages: []hostsdk.Message{msg}}}
			res, err := runStep(context.Background(), host, step)
			var hostErr *hostsdk.HostError
			var pluginErr *hostsdk.PluginError
			if !errors.As(err, &hostErr) || errors.As(err, &pluginErr) || !errors.Is(err, skill.ErrInvalidUTF8) {
				t.Fatalf("PreStep with a non-UTF-8 message: %T %v, want a *HostError", err, err)
			}
			if !strings.Contains(err.Error(), `message "u-latin1": content block 0's text is not valid UTF-8 (byte 2`) {
				t.Errorf("error %q does not name the message, its field and UTF-8", err)
			}
			if res.Outcome != hostsdk.OutcomePluginError || len(res.Decision.Messages) != 1 || len(res.Appended) != 0 {
				t.Errorf("failed step: outcome %s with %d messages, %d appended; want the downstream decision unchanged, nothing appended", res.Outcome, len(res.Decision.Messages), len(res.Appended))
			}
			step.Downstream.Messages[0].Content[0].Text = "olá"
			res, err = runStep(context.Background(), host, step)
			if err != nil || res.Outcome != hostsdk.OutcomeInitial {
				t.Fatalf("the corrected step: %s, %v; want initial", res.Outcome, err)
			}
		})
	}
}

// TestAppendRefusesInvalidUTF8: Session.Append refuses a message
// that is not UTF-8, naming it, instead of storing its bytes turned into
// U+FFFD; nothing of the call is appended.
func TestAppendRefusesInvalidUTF8(t *testing.T) {
	host, _, store := modeEnv(t, &hostsdk.LoadOptions{InProcess: true}, hostsdk.Options{})
	good := hostsdk.Message{ID: "a1", Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{{Type: "text", Text: "fine"}}}
	bad := hostsdk.Message{ID: "t1", Role: hostsdk.RoleTool, Content: []hostsdk.ContentBlock{{Type: "text", Text: "ok"}, {Type: "text", Text: "\xff\xfe"}}}
	_, err := host.Session("s1", nil).Append(context.Background(), good, bad)
	if !errors.Is(err, skill.ErrInvalidUTF8) || !strings.Contains(err.Error(), `message "t1": content block 1's text is not valid UTF-8 (byte 0`) {
		t.Fatalf("Append: %v, want an error naming message t1's block 1", err)
	}
	log, err := store.Open(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	if head, err := log.Head(context.Background()); err != nil || head.Seq != 0 {
		t.Errorf("log head %+v, %v; want nothing appended", head, err)
	}

	// A compaction's summary is refused alike.
	if _, err := host.Session("s1", nil).Append(context.Background(), good); err != nil {
		t.Fatal(err)
	}
	_, err = host.Session("s1", nil).RecordCompaction(context.Background(), hostsdk.Compaction{Hide: sessionlog.Range{From: 1, To: 1}, Summary: &bad})
	if !errors.Is(err, skill.ErrInvalidUTF8) || !strings.Contains(err.Error(), `compaction summary: message "t1": content block 1's text is not valid UTF-8`) {
		t.Fatalf("RecordCompaction with a summary that is not UTF-8: %v", err)
	}
	if head, err := log.Head(context.Background()); err != nil || head.Seq != 1 {
		t.Errorf("log head %+v, %v; want only the valid message", head, err)
	}
}

// TestInvalidUTF8SkillFileBody: a SKILL.md whose body is not UTF-8 is
// listed (its frontmatter is fine) and its load is refused with an error
// naming the file and the byte, as `validate` calls such a file invalid;
// the session's steps go on.
func TestInvalidUTF8SkillFileBody(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	root := t.TempDir()
	dir := filepath.Join(root, "latin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "SKILL.md")
	if err := os.WriteFile(file, []byte("---\nname: latin\ndescription: Fine.\n---\nCaf\xe9.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{root}, HomeDir: filepath.Join(root, "home")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	e.reg.AddProvider(tools.GlobalScope, p, nil)
	e.mount(tools.GlobalScope)
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "latin")
	out, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"latin"}`)})
	if err != nil || !out.IsError || !strings.Contains(out.Text, "not valid UTF-8") {
		t.Fatalf("loading a skill whose body is not UTF-8: %+v, %v; want a tool error saying so", out, err)
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)
}
