package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// systemPrompt is the runtime's own system prompt, the same in every row.
const systemPrompt = "You are a software engineering assistant. Work in small, verified steps, say what you changed, " +
	"and ask before anything that cannot be undone."

// skillFile is one skill of the conversation, as its SKILL.md says it.
type skillFile struct{ name, description, body string }

// initialSkills are the skills on disk when the conversation starts.
func initialSkills() []skillFile {
	return []skillFile{
		{"pdf-forms", "Fill in, flatten and validate PDF forms. Use when the user asks to complete a PDF form or check a filled one.",
			body("PDF forms", "List the form's fields with scripts/list_fields.py before you fill anything in.",
				"Fill the fields from the user's data; never guess a value that is not given.",
				"Flatten the form only when the user asks for a final copy.",
				"Validate the result: every required field filled, dates in the form's own format.")},
		{"release-notes", "Draft release notes from the changes merged since the last tag.",
			body("Release notes", "Collect the merged changes since the last tag from the changelog and the pull requests.",
				"Group them into Features, Fixes and Breaking changes; leave out internal refactors.",
				"Write one line per change, in the imperative, with the pull request's number.",
				"Put upgrade steps under every breaking change.")},
		{"commit-messages", "Write commit messages in the house style: an imperative summary, a blank line, then why.",
			body("Commit messages", "Summarise the change in at most 72 characters, in the imperative.",
				"Leave a blank line, then say why the change was made, not what the diff shows.",
				"Name the issue the change closes on a line of its own.",
				"Wrap the body at 72 characters.")},
		{"code-review", "Review a change for correctness, tests and clarity before it is merged.",
			body("Code review", "Read the description and the linked issue first: review the change against its purpose.",
				"Check that every new branch of the code has a test, and that the tests fail without the change.",
				"Point out names, comments and errors that a reader would misread.",
				"Separate what must change before merging from what could.")},
		{"sql-migrations", "Write and check database schema migrations that can be rolled back.",
			body("SQL migrations", "Write every migration with its rollback, and run both on a copy of production's schema.",
				"Add columns as nullable or with a default; backfill in batches; add constraints last.",
				"Never rename a column in one step: add, copy, switch the readers, then drop.",
				"Put the migration's expected run time in its header.")},
	}
}

// changelogSkill is the skill the conversation adds.
func changelogSkill() skillFile {
	return skillFile{"changelog", "Write a changelog entry for a merged change.",
		body("Changelog", "Add the entry under Unreleased, in the section its kind belongs to.",
			"Say what changed for the user in one line, with the pull request's number.",
			"Link the issue when there is one.",
			"Do not repeat entries that release notes already hold.")}
}

// body returns a skill's instructions: a heading and numbered steps.
func body(title string, steps ...string) string {
	s := "# " + title + "\n\nFollow these steps in order.\n\n"
	for i, step := range steps {
		s += fmt.Sprintf("%d. %s\n", i+1, step)
	}
	return s + "\nWhen a step cannot be done, stop and say why instead of working around it.\n"
}

// turn is one user turn of the conversation: the skills may change before
// it; the user asks; the model loads the skill load with the skill tool
// (none when load is empty), then answers. One model call, or two with a
// load.
type turn struct {
	change func(dir string) error
	user   string
	load   string
	answer string
}

// scenario is a conversation and the skills on disk when it starts.
type scenario struct {
	// name says what the conversation is, for the report.
	name   string
	skills []skillFile
	turns  []turn
	// overBudget marks a library whose catalog is over its budget, where
	// the relevant-skills message is on by default (relevantSkills
	// "auto"), and the report adds this project's rows without it.
	overBudget bool
}

// shortScenario is the short conversation: 15 turns (30 model calls) that
// each load a skill, with a skill added before turn 5, a description
// edited before turn 9 and a skill removed before turn 13.
func shortScenario() *scenario {
	loads := []string{"pdf-forms", "release-notes", "commit-messages", "code-review", "changelog",
		"sql-migrations", "pdf-forms", "release-notes", "release-notes", "commit-messages",
		"code-review", "changelog", "sql-migrations", "pdf-forms", "release-notes"}
	turns := make([]turn, len(loads))
	for i, load := range loads {
		turns[i] = turn{user: fmt.Sprintf("Task %d: please handle the next item on the list.", i+1), load: load,
			answer: fmt.Sprintf("Task %d is done, following %s.", i+1, load)}
	}
	turns[4].change = func(dir string) error { return writeSkill(dir, changelogSkill()) }
	turns[8].change = func(dir string) error {
		s := initialSkills()[1]
		s.description = "Draft release notes grouped by audience: users, operators and developers."
		return writeSkill(dir, s)
	}
	turns[12].change = func(dir string) error { return os.RemoveAll(filepath.Join(dir, "commit-messages")) }
	return &scenario{name: "short", skills: initialSkills(), turns: turns}
}

// changes counts the turns with a change of skills.
func (s *scenario) changes() int {
	n := 0
	for _, t := range s.turns {
		if t.change != nil {
			n++
		}
	}
	return n
}

// firstRequests returns, for each turn, the index of its first model
// call among the conversation's.
func (s *scenario) firstRequests() []int {
	out := make([]int, len(s.turns))
	n := 0
	for i, t := range s.turns {
		out[i] = n
		n++
		if t.load != "" {
			n++
		}
	}
	return out
}

// requests counts the conversation's model calls.
func (s *scenario) requests() int {
	n := len(s.turns)
	for _, t := range s.turns {
		if t.load != "" {
			n++
		}
	}
	return n
}

func writeSkill(dir string, s skillFile) error {
	path := filepath.Join(dir, s.name, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n%s", s.name, s.description, s.body)), 0o644)
}

// workspace is a new temporary directory for one row: skills/ holds the
// scenario's initial skills, home/ stands for an empty home directory. Its
// name has a fixed length, so that the paths the requests hold do too.
func (s *scenario) workspace() (dir string, err error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	dir = filepath.Join(os.TempDir(), "cachereport-"+hex.EncodeToString(b[:]))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	for _, f := range s.skills {
		if err := writeSkill(filepath.Join(dir, "skills"), f); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}
