package skilleino_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk/middlewares/skill"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skilleino "github.com/skillcatalog/skillcatalog/hostsdk/eino"
)

// contender is one way to give an Eino agent skills, driven through the
// same scripted conversation as the others.
type contender struct {
	name  string
	model *scriptedModel
	// run runs the agent once on the caller's history.
	run func(ctx context.Context, history []*schema.Message) ([]*schema.Message, error)
	// skillArgs are the arguments of the contender's skill tool that load
	// the named skill.
	skillArgs func(name string) string
	// watch is called before a change on disk; the function it returns
	// returns once the change, which shown recognises in a catalog, can
	// reach the agent: at once for a contender that reads the disk on
	// every listing.
	watch func(t *testing.T) (await func(shown func(catalog string) bool))
}

type newContender func(t *testing.T, dir string) *contender

// The contenders' names, as the table heads them.
const (
	nameOurs       = "skilleino"
	nameEinoReused = "Eino skill middleware, agent reused"
	nameEinoPerRun = "Eino skill middleware, agent per Run"
)

// ours is this adapter on a host opened over dir.
func ours(t *testing.T, dir string) *contender {
	t.Setenv("HOME", t.TempDir())
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{dir}, SessionDir: t.TempDir(), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	skills, err := skilleino.New(t.Context(), host, &skilleino.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	m := newScriptedModel()
	runner := newAgentRunner(t, m, skills.Middleware())
	return &contender{
		name: nameOurs, model: m,
		run: func(ctx context.Context, history []*schema.Message) ([]*schema.Message, error) {
			return runTurn(ctx, runner, history, skilleino.WithSession("s1"))
		},
		skillArgs: func(name string) string { return fmt.Sprintf(`{"name":%q}`, name) },
		watch: func(t *testing.T) func(func(string) bool) {
			w := watchSkills(t, host)
			return func(shown func(string) bool) { w.await(t, shown) }
		},
	}
}

// einoSkills is Eino's own skill middleware (adk/middlewares/skill) over
// dir, with one agent for every Run, or a new agent per Run.
func einoSkills(perRun bool) newContender {
	return func(t *testing.T, dir string) *contender {
		backend, err := skill.NewLocalBackend(&skill.LocalBackendConfig{BaseDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		mw, err := skill.New(t.Context(), &skill.Config{Backend: backend})
		if err != nil {
			t.Fatal(err)
		}
		m := newScriptedModel()
		runner := newAgentRunner(t, m, mw)
		name := nameEinoReused
		if perRun {
			name = nameEinoPerRun
		}
		return &contender{
			name: name, model: m,
			run: func(ctx context.Context, history []*schema.Message) ([]*schema.Message, error) {
				r := runner
				if perRun {
					r = newAgentRunner(t, m, mw)
				}
				return runTurn(ctx, r, history)
			},
			skillArgs: func(name string) string { return fmt.Sprintf(`{"skill":%q}`, name) },
			watch:     func(*testing.T) func(func(string) bool) { return func(func(string) bool) {} },
		}
	}
}

// contenders are the three ways compared, in the table's order.
func contenders() []newContender { return []newContender{ours, einoSkills(false), einoSkills(true)} }

// chat is a caller's conversation with a contender's agent.
type chat struct {
	c       *contender
	history []*schema.Message
	calls   int
}

// turn sends user's message; the model loads the skill named load (none
// for "") and then answers.
func (ch *chat) turn(ctx context.Context, user, load string) error {
	ch.history = append(ch.history, schema.UserMessage(user))
	if load != "" {
		ch.calls++
		ch.c.model.queue(toolCall(fmt.Sprintf("call-%d", ch.calls), "skill", ch.c.skillArgs(load)))
	}
	ch.c.model.queue(answer("Done."))
	added, err := ch.c.run(ctx, ch.history)
	ch.history = append(ch.history, added...)
	return err
}

// sideBySkills writes the skills every contender is compared on: the
// repository's testdata/skills, with commit-messages' description quoted.
// Unquoted, its ": " is not YAML that Eino's backend parses, and one such
// file fails Eino's whole listing (the broken-skill row measures that);
// agentskills reads it with a retry, as Claude Code does.
func sideBySkills(t *testing.T) string {
	t.Helper()
	dir := copySkills(t)
	path := filepath.Join(dir, "commit-messages", "SKILL.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, _ := strings.Cut(string(b), "description: ")
	desc, after, _ := strings.Cut(rest, "\n")
	writeFile(t, path, fmt.Sprintf("%sdescription: %q\n%s", before, desc, after))
	return dir
}

// currentCatalog returns the skill list the request gives the model last:
// the newest catalog message, else the skill tool's description; and
// where it is.
func currentCatalog(req request) (string, string) {
	if cats := catalogs(req); len(cats) > 0 {
		return cats[len(cats)-1], "in an appended message"
	}
	for _, tl := range req.Tools {
		if tl.Name == "skill" {
			return tl.Desc, "in a rewritten tool description"
		}
	}
	return "", ""
}

// change is a change of the skills on disk between two Runs, and how to
// tell from a skill list whether it reflects the change.
type change struct {
	what    string
	beforeT int // the turn it precedes
	apply   func(t *testing.T, dir string)
	shown   func(catalog string) bool
}

// skillChanges are the changes the conversation makes, in order.
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
		}, func(c string) bool { return !strings.Contains(c, "Write commit messages") }},
	}
}

// cacheResult is what the 30-call conversation measured.
type cacheResult struct {
	told   map[string]string // change → how the model was told, or "no"
	shares []float64         // per request after the first
	broken int               // requests that do not extend the previous one
	bytes  int               // the last request's size
}

// converse runs 15 turns of two model calls each (load a skill, answer),
// with the three changes in between.
func converse(t *testing.T, mk newContender) cacheResult {
	dir := sideBySkills(t)
	c := mk(t, dir)
	ch := &chat{c: c}
	res := cacheResult{told: map[string]string{}}
	for turn := 1; turn <= 15; turn++ {
		var pending *change
		for _, ch := range skillChanges() {
			if ch.beforeT == turn {
				pending = &ch
				await := c.watch(t)
				pending.apply(t, dir)
				await(pending.shown)
			}
		}
		first := len(c.model.requests())
		load := []string{"release-notes", "pdf-forms"}[turn%2]
		if err := ch.turn(t.Context(), fmt.Sprintf("Task %d, please.", turn), load); err != nil {
			t.Fatalf("%s: turn %d: %v", c.name, turn, err)
		}
		if pending != nil {
			catalog, where := currentCatalog(c.model.requests()[first])
			res.told[pending.what] = "no"
			if pending.shown(catalog) {
				res.told[pending.what] = "yes, " + where
			}
		}
	}
	reqs := c.model.requests()
	if len(reqs) != 30 {
		t.Fatalf("%s: the model was called %d times, want 30", c.name, len(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		res.shares = append(res.shares, prefixShare(reqs[i-1].Wire, reqs[i].Wire))
		if !bytes.HasPrefix(reqs[i].Wire, bytes.TrimSuffix(reqs[i-1].Wire, []byte("]}"))) {
			res.broken++
		}
	}
	res.bytes = len(reqs[len(reqs)-1].Wire)
	return res
}

// brokenRow runs one turn over good skills and a SKILL.md whose
// frontmatter never closes, then one more after the file is removed, and
// says what the agent did.
func brokenRow(t *testing.T, mk newContender) (string, bool) {
	dir := sideBySkills(t)
	writeFile(t, filepath.Join(dir, "broken", "SKILL.md"), "---\nname: broken\ndescription: never closed\n")
	c := mk(t, dir)
	ch := &chat{c: c}
	var cell string
	good := false
	if err := ch.turn(t.Context(), "Fill in the form, please.", "pdf-forms"); err != nil {
		cell = runFailure(err, dir)
		c.model.drain()
	} else {
		reqs := c.model.requests()
		catalog, _ := currentCatalog(reqs[0])
		listed := 0
		for _, name := range []string{"pdf-forms", "release-notes", "commit-messages"} {
			if strings.Contains(catalog, name) {
				listed++
			}
		}
		loaded := strings.Contains(lastToolResult(t, reqs[1]), "List the form's fields first")
		good = listed == 3 && loaded
		cell = fmt.Sprintf("lists the %d good skills; loading one works: %v", listed, loaded)
		if good {
			cell = "lists the 3 good skills, and they load"
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "broken")); err != nil {
		t.Fatal(err)
	}
	if err := ch.turn(t.Context(), "And now?", "pdf-forms"); err != nil {
		return cell + "; once the file is removed, Runs still fail", false
	}
	return cell + "; once the file is removed, Runs work", good
}

// asWrittenRow runs one turn over the repository's testdata/skills as
// they are, where commit-messages' description holds an unquoted ": " that
// Claude Code accepts and strict YAML does not.
func asWrittenRow(t *testing.T, mk newContender) (string, bool) {
	dir := copySkills(t)
	c := mk(t, dir)
	if err := (&chat{c: c}).turn(t.Context(), "Write the commit message, please.", "commit-messages"); err != nil {
		return runFailure(err, dir), false
	}
	if strings.Contains(lastToolResult(t, c.model.requests()[1]), "Summary line") {
		return "commit-messages is listed and loads", true
	}
	return "commit-messages does not load", false
}

// invocationRow says whether a skill that only a person may start
// (disable-model-invocation: true, deploy-production here) is listed for
// the model.
func invocationRow(t *testing.T, mk newContender) (string, bool) {
	c := mk(t, sideBySkills(t))
	if err := (&chat{c: c}).turn(t.Context(), "Hello.", ""); err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	if catalog, _ := currentCatalog(c.model.last(t)); strings.Contains(catalog, "deploy-production") {
		return "yes", false
	}
	return "no", true
}

// runFailure describes a failed Run by the innermost cause of its error.
func runFailure(err error, dir string) string {
	msg := strings.ReplaceAll(err.Error(), dir, "…")
	if i := strings.LastIndex(msg, "failed to load skill from "); i >= 0 {
		msg = msg[i:]
	}
	return "the Run fails (" + firstLine(msg, 160) + ")"
}

func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// tabRow loads a skill whose body has tabs and says whether the model
// reads them as written.
func tabRow(t *testing.T, mk newContender) (string, bool) {
	dir := sideBySkills(t)
	const line = "Columns:\tname\ttype\trequired"
	writeSkill(t, dir, "tabbed", "A skill whose body has a table with tabs.", line+"\n")
	c := mk(t, dir)
	if err := (&chat{c: c}).turn(t.Context(), "Show the columns.", "tabbed"); err != nil {
		return runFailure(err, dir), false
	}
	got := lastToolResult(t, c.model.requests()[1])
	if strings.Contains(got, line) {
		return "yes", true
	}
	return fmt.Sprintf("no: %q", firstLine(got, 60)), false
}

// resourceRow says whether the agent can read a skill's supporting file
// with the tools the skills bring (no shell or file tool of its own).
func resourceRow(t *testing.T, mk newContender) (string, bool) {
	c := mk(t, sideBySkills(t))
	ch := &chat{c: c}
	if err := ch.turn(t.Context(), "Hello.", ""); err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	tools := toolNames(c.model.last(t))
	if !slices.Contains(strings.Split(tools, ","), "skill_resource") {
		return "no: the only tool is " + tools + "; its result gives an absolute path for a file or shell tool", false
	}
	ch.history = append(ch.history, schema.UserMessage("List the form's fields."))
	c.model.queue(toolCall("call-r", "skill_resource", `{"name":"pdf-forms","path":"scripts/list_fields.py"}`), answer("Done."))
	added, err := c.run(t.Context(), ch.history)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	ch.history = append(ch.history, added...)
	if strings.Contains(lastToolResult(t, c.model.last(t)), "Print the fields of a PDF form") {
		return "yes, with skill_resource", true
	}
	return "no: skill_resource did not return the file", false
}

// stats are the minimum, 10th percentile (nearest rank), median and mean.
func stats(v []float64) (lo, p10, med, mean float64) {
	s := slices.Sorted(slices.Values(v))
	for _, x := range s {
		mean += x
	}
	mean /= float64(len(s))
	rank := func(p float64) float64 {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return s[0], rank(0.10), rank(0.50), mean
}

// TestSideBySide compares this adapter with Eino's own skill middleware on
// the same skills and the same scripted conversation, and logs the table
// the README shows (go test -run TestSideBySide -v).
func TestSideBySide(t *testing.T) {
	var rows strings.Builder
	fmt.Fprintf(&rows, "| | %s | %s | %s |\n|---|---|---|---|\n", nameOurs, nameEinoReused, nameEinoPerRun)
	row := func(label string, cells []string) {
		fmt.Fprintf(&rows, "| %s | %s |\n", label, strings.Join(cells, " | "))
	}

	results := make([]cacheResult, len(contenders()))
	for i, mk := range contenders() {
		results[i] = converse(t, mk)
	}
	for _, ch := range skillChanges() {
		cells := make([]string, len(results))
		for i, r := range results {
			cells[i] = r.told[ch.what]
		}
		row("the model is told when a skill is "+ch.what, cells)
	}
	checks := []struct {
		label string
		run   func(*testing.T, newContender) (string, bool)
	}{
		{"one broken SKILL.md among good ones", brokenRow},
		{"testdata/skills as written (a description with an unquoted \": \")", asWrittenRow},
		{"a tab in a SKILL.md body reaches the model intact", tabRow},
		{"a skill's supporting file is readable without a shell tool", resourceRow},
		{"a skill only a person may start (disable-model-invocation) is listed for the model", invocationRow},
	}
	for _, check := range checks {
		cells := make([]string, len(contenders()))
		for i, mk := range contenders() {
			var ok bool
			cells[i], ok = check.run(t, mk)
			if i == 0 && !ok {
				t.Errorf("skilleino fails the row %q: %s", check.label, cells[i])
			}
		}
		row(check.label, cells)
	}
	cells := make([]string, len(results))
	for i, r := range results {
		lo, p10, med, mean := stats(r.shares)
		cells[i] = fmt.Sprintf("min %.1f%%, p10 %.1f%%, median %.1f%%, mean %.1f%%", 100*lo, 100*p10, 100*med, 100*mean)
	}
	row("prompt-cache prefix share per request (30 calls, 3 changes)", cells)
	for i, r := range results {
		cells[i] = fmt.Sprintf("%d of %d", len(r.shares)-r.broken, len(r.shares))
	}
	row("requests that extend the previous request byte for byte", cells)
	for i, r := range results {
		cells[i] = fmt.Sprintf("%d", r.bytes)
	}
	row("bytes of the 30th request", cells)
	t.Log("\n" + rows.String())

	// What the table must keep showing.
	for _, ch := range skillChanges() {
		if got := results[0].told[ch.what]; got != "yes, in an appended message" {
			t.Errorf("skilleino: when a skill is %s the model is told %q, want an appended message", ch.what, got)
		}
		if got := results[1].told[ch.what]; got != "no" {
			t.Errorf("Eino, agent reused: when a skill is %s the model is told %q; the frozen list this test documents changed", ch.what, got)
		}
	}
	if lo, _, med, _ := stats(results[0].shares); med < 0.9 || lo < 0.5 {
		t.Errorf("skilleino: prefix share min %.3f, median %.3f; want the median at least 0.9 and none below 0.5", lo, med)
	}
	if results[0].broken != 0 || results[1].broken != 0 {
		t.Errorf("%d and %d requests do not extend the previous one (skilleino, Eino reused), want none", results[0].broken, results[1].broken)
	}
	if want := len(skillChanges()); results[2].broken != want {
		t.Errorf("Eino, agent per Run: %d requests do not extend the previous one, want one per change (%d)", results[2].broken, want)
	}
}
