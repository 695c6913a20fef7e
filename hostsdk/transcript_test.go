package hostsdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/internal/golden"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// mixedTranscript is a runtime's turn with every kind of block: the user's
// text and an image, the model's thinking, text and two tool calls, the
// tools' results (one an error, one with an image), and a document block
// written with spaces, which is kept as encoding/json writes it.
func mixedTranscript(t *testing.T) (user hostsdk.Message, reply hostsdk.Message, results hostsdk.Message, after hostsdk.Message) {
	t.Helper()
	must := func(b hostsdk.ContentBlock, err error) hostsdk.ContentBlock {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	png := []byte("\x89PNG\r\n\x1a\n-not-really-a-png")
	user = hostsdk.Message{ID: "u1", Role: hostsdk.RoleUser, UserInput: true, Content: []hostsdk.ContentBlock{
		hostsdk.TextBlock("Fill in the form in this picture <please> & thanks."),
		must(hostsdk.ImageBlock(hostsdk.Image{MediaType: "image/png", Data: png})),
	}}
	reply = hostsdk.Message{ID: "a1", Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{
		must(hostsdk.RawBlock(json.RawMessage(`{"type":"thinking","thinking":"The pdf-forms skill fits.","signature":"c2lnbmF0dXJl"}`))),
		hostsdk.TextBlock("Loading the skill."),
		must(hostsdk.ToolUseBlock("toolu_01", "skill", json.RawMessage(`{"name":"pdf-forms"}`))),
		must(hostsdk.ToolUseBlock("toolu_02", "read_file", json.RawMessage(`{"path":"forms/w9.pdf","lines":[1,40]}`))),
	}}
	results = hostsdk.Message{ID: "r1", Role: hostsdk.RoleTool, Content: []hostsdk.ContentBlock{
		must(hostsdk.ToolResultBlock("toolu_01", []hostsdk.ContentBlock{hostsdk.TextBlock("<skill_content name=\"pdf-forms\">…</skill_content>")}, false)),
		must(hostsdk.ToolResultBlock("toolu_02", []hostsdk.ContentBlock{
			hostsdk.TextBlock("no such file"),
			must(hostsdk.ImageBlock(hostsdk.Image{URL: "https://example.com/w9.png"})),
		}, true)),
	}}
	after = hostsdk.Message{ID: "a2", Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{
		must(hostsdk.RawBlock(json.RawMessage(`{ "type": "document", "source": { "type": "text", "media_type": "text/plain", "data": "W-9" }, "title": "w9" }`))),
		must(hostsdk.RawBlock(json.RawMessage(`{"type":"text","text":"Done.","citations":[{"type":"char_location","cited_text":"W-9","start_char_index":0,"end_char_index":3}]}`))),
	}}
	return user, reply, results, after
}

// TestTranscriptRoundTrips writes a mixed transcript through the host — the
// user's message and the tool results as messages proposed to a step, so
// they cross the plugin binary's gRPC boundary both ways, the model's
// replies with Session.Append — and reads it back with Transcript from each
// store: every block as it was written, and the log's bodies as the golden
// file holds them.
func TestTranscriptRoundTrips(t *testing.T) {
	stores := map[string]func(t *testing.T) sessionlog.Store{
		"memory": func(t *testing.T) sessionlog.Store { return sessionlog.NewMemoryStore() },
		"file": func(t *testing.T) sessionlog.Store {
			s, err := sessionlog.NewFileStore(t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		"postgres": func(t *testing.T) sessionlog.Store {
			s, _, _ := postgresStore(t, "transcript")
			return s
		},
	}
	for _, name := range []string{"memory", "file", "postgres"} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			store := stores[name](t)
			reg := skilltest.NewRegistry(t)
			if err := reg.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "pdf-forms", Description: "Fill in PDF forms.", Content: "Use the field names."}); err != nil {
				t.Fatal(err)
			}
			host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: reg, Sessions: store})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { host.Close() })
			p, err := host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: pluginPath}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.MountJSON(ctx, tools.GlobalScope, `{}`); err != nil {
				t.Fatal(err)
			}
			user, reply, results, after := mixedTranscript(t)
			step := func(n int, msgs ...hostsdk.Message) []hostsdk.Message {
				res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: "/", AgentScope: tools.GlobalScope}).Step(ctx, hostsdk.Decision{Messages: msgs}, &hostsdk.StepOptions{Turn: 1, Step: n})
				if err != nil {
					t.Fatal(err)
				}
				return res.Decision.Messages
			}
			var want []hostsdk.Message
			want = append(want, step(1, user)...)
			if len(want) != 2 {
				t.Fatalf("step 1 gave %d messages, want the user's and the catalog", len(want))
			}
			if _, err := host.Session("s1", nil).Append(ctx, reply); err != nil {
				t.Fatal(err)
			}
			want = append(want, reply)
			want = append(want, step(2, results)...)
			if _, err := host.Session("s1", nil).Append(ctx, after); err != nil {
				t.Fatal(err)
			}
			want = append(want, after)

			got, err := host.Session("s1", nil).Transcript(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("Transcript read %d messages, want %d", len(got), len(want))
			}
			var bodies bytes.Buffer
			for i, e := range got {
				if e.Seq != uint64(i+1) || !e.Visible || e.Compaction {
					t.Errorf("entry %d: seq %d visible %v compaction %v", i, e.Seq, e.Visible, e.Compaction)
				}
				if !sameMessage(e.Message, want[i]) {
					t.Errorf("message %d read back as\n%+v\nwant\n%+v", i, e.Message, want[i])
				}
				body, err := json.Marshal(e.Message)
				if err != nil {
					t.Fatal(err)
				}
				bodies.Write(body)
				bodies.WriteByte('\n')
			}
			golden.Check(t, filepath.Join("testdata", "transcript", "mixed.golden"), bodies.Bytes())

			// The typed readers see what the constructors wrote.
			use, ok := got[2].Message.Content[2].ToolUse()
			if !ok || use.ID != "toolu_01" || use.Name != "skill" || string(use.Input) != `{"name":"pdf-forms"}` {
				t.Errorf("tool_use read back as %+v, %v", use, ok)
			}
			out, ok := got[3].Message.Content[1].ToolResult()
			if !ok || out.CallID != "toolu_02" || !out.IsError || len(out.Content) != 2 || out.Content[0].Text != "no such file" {
				t.Errorf("tool_result read back as %+v, %v", out, ok)
			}
			img, ok := got[0].Message.Content[1].Image()
			if !ok || img.MediaType != "image/png" || !bytes.Equal(img.Data, []byte("\x89PNG\r\n\x1a\n-not-really-a-png")) {
				t.Errorf("image read back as %+v, %v", img, ok)
			}
		})
	}
}

func sameMessage(a, b hostsdk.Message) bool {
	if a.ID != b.ID || a.Role != b.Role || a.UserInput != b.UserInput || !bytes.Equal(a.Source, b.Source) || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !a.Content[i].Equal(b.Content[i]) {
			return false
		}
	}
	return true
}

// TestTranscriptReadsAnOldLog reads a session log that an earlier release
// wrote (text blocks only, a catalog, a compaction with a summary): every
// message comes back, and encodes to the very bytes the log holds.
func TestTranscriptReadsAnOldLog(t *testing.T) {
	dir := t.TempDir()
	old, err := os.ReadFile(filepath.Join("testdata", "transcript", "old.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "old.jsonl"), old, 0o600); err != nil {
		t.Fatal(err)
	}
	store, err := sessionlog.NewFileStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: skilltest.NewRegistry(t), Sessions: store})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	got, err := host.Session("old", nil).Transcript(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var lines []struct {
		Body   json.RawMessage `json:"body"`
		Source json.RawMessage `json:"source"`
	}
	for _, line := range bytes.Split(bytes.TrimSpace(old), []byte("\n")) {
		var l struct {
			Body   json.RawMessage `json:"body"`
			Source json.RawMessage `json:"source"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if len(got) != len(lines) {
		t.Fatalf("Transcript read %d messages of the old log's %d", len(got), len(lines))
	}
	for i, e := range got {
		body, err := json.Marshal(e.Message)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(body, lines[i].Body) {
			t.Errorf("message %d encodes as\n%s\nthe log holds\n%s", i, body, lines[i].Body)
		}
		if !bytes.Equal(e.Message.Source, lines[i].Source) {
			t.Errorf("message %d: source %s, the log holds %s", i, e.Message.Source, lines[i].Source)
		}
		for _, b := range e.Message.Content {
			if b.Raw != nil {
				t.Errorf("message %d: a plain text block kept raw bytes %s", i, b.Raw)
			}
		}
		wantVisible := i == len(got)-1 // the compaction hid everything before its summary
		if e.Visible != wantVisible || e.Compaction != wantVisible {
			t.Errorf("message %d: visible %v compaction %v", i, e.Visible, e.Compaction)
		}
	}
}

// TestTranscriptSkipsARecordThatDoesNotDecode: one bad message record costs
// only itself.
func TestTranscriptSkipsARecordThatDoesNotDecode(t *testing.T) {
	ctx := context.Background()
	store := sessionlog.NewMemoryStore()
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: skilltest.NewRegistry(t), Sessions: store})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	log, err := store.Open(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	good := []byte(`{"id":"m1","role":"user","content":[{"type":"text","text":"hi"}]}`)
	bad := []byte(`{"id":"m2","role":"user","content":[{"text":"a block without a type"}]}`)
	if _, err := log.Append(ctx, sessionlog.Record{Type: sessionlog.TypeMessage, Body: good}, sessionlog.Record{Type: sessionlog.TypeMessage, Body: bad}, sessionlog.Record{Type: sessionlog.TypeMessage, Body: good}); err != nil {
		t.Fatal(err)
	}
	got, err := host.Session("s1", nil).Transcript(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Seq != 1 || got[1].Seq != 3 {
		t.Fatalf("Transcript = %+v, want messages 1 and 3", got)
	}
}
