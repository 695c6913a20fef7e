package skillgenkit_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"
)

// change is a change of the skills on disk before a turn, and how to tell
// from a catalog whether it shows the change.
type change struct {
	what   string
	before int // the turn it precedes
	apply  func(t *testing.T, dir string)
	shown  func(catalog string) bool
}

// skillChanges are the three changes of the scripted conversation: a skill
// added, one's description edited, one removed.
func skillChanges() []change {
	return []change{
		{"added", 5, func(t *testing.T, dir string) {
			writeSkill(t, dir, "changelog", "Write a changelog entry for a merged change.", "Summarise the change in one line.\n")
		}, func(c string) bool { return strings.Contains(c, "Write a changelog entry") }},
		{"edited", 9, func(t *testing.T, dir string) {
			writeSkill(t, dir, "release-notes", "Draft release notes grouped by audience.", "# Release notes\n")
		}, func(c string) bool { return strings.Contains(c, "grouped by audience") }},
		{"removed", 13, func(t *testing.T, dir string) {
			if err := os.RemoveAll(filepath.Join(dir, "commit-messages")); err != nil {
				t.Fatal(err)
			}
		}, func(c string) bool { return !strings.Contains(c, "`commit-messages`") }},
	}
}

// turnsPlayed and callsPerTurn shape the scripted conversation: 15 user
// turns of two model calls each, 30 requests.
const turnsPlayed, callsPerTurn = 15, 2

// playConversation plays the scripted 30-call conversation with three
// skill changes through Genkit's generate loop, on a copy of the
// repository's skills, and returns its fixture: its model holds every
// request, in order. Each turn the model loads a skill (the one the last
// change added, else pdf-forms), then answers.
func playConversation(t *testing.T) (*fixture, string) {
	t.Helper()
	dir := copySkills(t)
	f := newFixture(t, dir, t.TempDir())
	changes := skillChanges()
	load := "pdf-forms"
	for turn := 1; turn <= turnsPlayed; turn++ {
		for _, c := range changes {
			if c.before == turn {
				watch := watchSkills(t, f.host)
				c.apply(t, dir)
				watch.await(t, c.shown)
				if c.what == "added" {
					load = "changelog"
				}
			}
		}
		f.model.queue(toolCall("skill", map[string]any{"name": load}), answer(fmt.Sprintf("Done with turn %d.", turn)))
		f.conv.turn(t, fmt.Sprintf("Turn %d: please use the %s skill.", turn, load))
	}
	if got := len(f.model.allRequests()); got != turnsPlayed*callsPerTurn {
		t.Fatalf("the conversation made %d requests, want %d", got, turnsPlayed*callsPerTurn)
	}
	return f, dir
}

// messagesExtend reports whether cur's messages begin with every message
// of prev, byte for byte as Genkit encodes them.
func messagesExtend(prev, cur request) bool {
	return bytes.HasPrefix(cur.MessagesJSON, bytes.TrimSuffix(prev.MessagesJSON, []byte("]")))
}

// Every request of the scripted conversation extends the one before it
// byte for byte, its tools included, across Generates and skill changes:
// each change is one appended replacement. Only the request after a
// compaction starts anew, and the ones after it extend it again.
func TestRequestsExtendTheirPredecessor(t *testing.T) {
	f, _ := playConversation(t)
	reqs := f.model.allRequests()
	for i := 1; i < len(reqs); i++ {
		if !messagesExtend(reqs[i-1], reqs[i]) {
			t.Errorf("request %d's messages do not extend request %d's", i+1, i)
		}
		extends(t, reqs[i-1], reqs[i])
	}
	if cats := catalogs(reqs[len(reqs)-1]); len(cats) != 1+len(skillChanges()) {
		t.Errorf("the last request holds %d catalogs, want the first and one replacement per change", len(cats))
	}
	t.Logf("%d requests; the last is %d bytes", len(reqs), len(reqs[len(reqs)-1].Wire))

	compactAt := len(reqs)
	f.conv.history = []*ai.Message{ai.NewSystemTextMessage(systemPrompt), answer("Summary: fifteen turns of skill use.")}
	for turn := range 2 {
		f.model.queue(toolCall("skill", map[string]any{"name": "pdf-forms"}), answer("Done."))
		f.conv.turn(t, fmt.Sprintf("After the summary, turn %d.", turn))
	}
	reqs = f.model.allRequests()
	if messagesExtend(reqs[compactAt-1], reqs[compactAt]) {
		t.Error("the request after the compaction extends the one before it")
	}
	for i := compactAt + 1; i < len(reqs); i++ {
		if !messagesExtend(reqs[i-1], reqs[i]) {
			t.Errorf("request %d's messages do not extend request %d's after the compaction", i+1, i)
		}
	}
}
