package looptest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// SystemPrompt is the runtime's own system prompt, which Run puts
// before the session's messages in every conversation it hands on.
const SystemPrompt = "You are a careful assistant who fills in forms."

// Reply is the model's reply to one call of the scripted session: an
// answer in Text, or a call of the tool Tool with the JSON arguments Args
// and the id CallID.
type Reply struct {
	Text               string
	CallID, Tool, Args string
}

// Call is one model call of the scripted session.
type Call struct {
	// Label says what the call's request shows.
	Label string
	// Reply is the model's reply to it.
	Reply Reply
	// Compacted marks the first request after a compaction, the one
	// request that does not extend the request before it.
	Compacted bool

	// user opens a turn with the user's message; "" is a loop step.
	user string
	// before changes the session or its skills before the step.
	before func(t testing.TB, f *Fixture)
}

// The scripted session's second skill, registered at run time.
const (
	TaxSkill = "tax-forms"
	taxDesc  = "Fill in tax forms."
	taxBody  = "Check the totals before you sign."
)

func call(id, tool, args string) Reply { return Reply{CallID: id, Tool: tool, Args: args} }

func answer(text string) Reply { return Reply{Text: text} }

// Calls returns the calls of the scripted session, in order: a loop
// through both tools, a step where nothing changed, a skill added (the
// catalog replaced), a `/pdf-forms` the user types, every skill removed (a
// tombstone), a skill back (a new catalog), and a compaction (the catalog
// published again), with the loop steps between them.
func Calls() []Call {
	return []Call{
		{Label: "the user's message and the first catalog", user: Ask, Reply: call("call_01", "skill", `{"name":"pdf-forms"}`)},
		{Label: "loop: the skill's instructions", Reply: call("call_02", "skill_resource", `{"name":"pdf-forms","path":"`+ScriptPath+`"}`)},
		{Label: "loop: the script's text", Reply: answer("Done: the form is filled in.")},
		{Label: "a new turn, nothing changed", user: "Thanks. Is anything missing?", Reply: answer("Nothing is missing.")},
		{Label: "a skill added: the catalog replaced", user: "Now the tax form, please.", before: addTax, Reply: call("call_03", "skill", `{"name":"`+TaxSkill+`"}`)},
		{Label: "loop: the added skill's instructions", Reply: answer("The tax form is done.")},
		{Label: "the user types /pdf-forms: its instructions added", user: "/pdf-forms Fill in the 1099 as well.", Reply: answer("The 1099 is filled in.")},
		{Label: "every skill removed: a tombstone", user: "Which skills are left?", before: removeAll, Reply: answer("None.")},
		{Label: "a skill back: a new catalog", user: "The tax form again, please.", before: addTax, Reply: call("call_04", "skill", `{"name":"`+TaxSkill+`"}`)},
		{Label: "loop: the skill's instructions", Reply: answer("Done again.")},
		{Label: "after a compaction: the summary, the catalog again", user: "Carry on.", before: compact, Compacted: true, Reply: call("call_05", "skill", `{"name":"`+TaxSkill+`"}`)},
		{Label: "loop after the compaction", Reply: answer("Finished.")},
	}
}

func addTax(t testing.TB, f *Fixture) {
	t.Helper()
	if err := f.Registry.Register(tools.GlobalScope, skills.RuntimeSkill{Name: TaxSkill, Description: taxDesc, Content: taxBody}); err != nil {
		t.Fatal(err)
	}
}

// removeAll removes the runtime skill and the skill on disk.
func removeAll(t testing.TB, f *Fixture) {
	t.Helper()
	f.Registry.Unregister(tools.GlobalScope, TaxSkill)
	if err := os.RemoveAll(filepath.Join(f.Root, Skill)); err != nil {
		t.Fatal(err)
	}
	f.Registry.Invalidate()
}

// compact records a compaction that hides every message so far behind a
// summary.
func compact(t testing.TB, f *Fixture) {
	t.Helper()
	ctx := context.Background()
	entries, err := f.Session().Transcript(ctx)
	if err != nil || len(entries) == 0 {
		t.Fatalf("transcript: %d entries, %v", len(entries), err)
	}
	summary := hostsdk.Message{ID: "summary-1", Role: hostsdk.RoleUser,
		Content: []hostsdk.ContentBlock{hostsdk.TextBlock("Summary: the W-9, the 1099 and the tax form are filled in.")}}
	hide := sessionlog.Range{From: entries[0].Seq, To: entries[len(entries)-1].Seq}
	if _, err := f.Session().RecordCompaction(ctx, hostsdk.Compaction{Hide: hide, Summary: &summary}); err != nil {
		t.Fatal(err)
	}
}

// Run runs the scripted session: before each call its changes and
// the plugin's step (a new turn's first step carries the user's message);
// then send gets the conversation to send (SystemPrompt, then the
// session's visible messages) and returns the model's reply, which
// Run appends with the results of its tool calls.
func (f *Fixture) Run(t testing.TB, send func(i int, c Call, conv []hostsdk.Message) hostsdk.Message) {
	t.Helper()
	ctx := context.Background()
	turn, n := 0, 0
	for i, c := range Calls() {
		if c.before != nil {
			c.before(t, f)
		}
		var downstream hostsdk.Decision
		if c.user != "" {
			turn, n = turn+1, 0
			downstream.Messages = []hostsdk.Message{{ID: fmt.Sprintf("user-%d", turn), Role: hostsdk.RoleUser, UserInput: true,
				Content: []hostsdk.ContentBlock{hostsdk.TextBlock(c.user)}}}
		}
		n++
		s := f.Session()
		if _, err := s.Step(ctx, downstream, &hostsdk.StepOptions{Turn: turn, Step: n}); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
		entries, err := s.Transcript(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conv := []hostsdk.Message{{ID: "system", Role: hostsdk.RoleSystem, Content: []hostsdk.ContentBlock{hostsdk.TextBlock(SystemPrompt)}}}
		for _, e := range entries {
			if e.Visible {
				conv = append(conv, e.Message)
			}
		}
		f.Reply(t, i+1, send(i, c, conv))
	}
}
