package conformance_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/conformance"
)

// squash collapses whitespace runs to one space: go-cmp varies the
// whitespace of its diffs (on purpose) so that nobody matches them exactly.
func squash(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// containsAll reports the wanted fragments missing from the failures.
func containsAll(t *testing.T, failures []string, wants ...string) {
	t.Helper()
	got := squash(strings.Join(failures, "\n"))
	for _, want := range wants {
		if !strings.Contains(got, squash(want)) {
			t.Errorf("failures lack %q:\n%s", want, strings.Join(failures, "\n"))
		}
	}
}

func mustParse(t *testing.T, name, text string) *conformance.Scenario {
	t.Helper()
	s, err := conformance.Parse(name+".yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func run(t *testing.T, s *conformance.Scenario) conformance.Result {
	t.Helper()
	return (&conformance.Runner{PluginPath: pluginPath}).Run(context.Background(), s)
}

// A wrong expectation must fail with a diff that names the step and what
// led to it.
func TestWrongExpectationFailsWithStepDiff(t *testing.T) {
	s := mustParse(t, "wrong", `
description: the replacement is expected with a wrong description
skills:
  - {name: alpha, description: First skill.}
steps:
  - preStep: {}
    expect: {outcome: initial}
  - addSkill: {name: beta, description: Second skill.}
  - preStep: {}
    expect:
      outcome: replacement
      added:
        - role: user
          text: {contains: ["-`+"`beta`"+`: The second skill."]}
          source:
            kind: skill-catalog
            form: catalog
            update: true
            entries:
              - {name: alpha, description: First skill.}
              - {name: beta, description: The second skill.}
  - preStep: {}
    expect: {outcome: unchanged}
`)
	res := run(t, s)
	if res.Passed() {
		t.Fatal("a wrong expectation passed")
	}
	containsAll(t, res.Failures,
		"step 3 (preStep by agent:main in session s1; after: add skill beta to global): added messages (-want +got):",
		"<text that does not contain",
		`- "description": string("The second skill."),`,
		`+ "description": string("Second skill."),`,
		"1 later step(s) not run",
	)
	if got := strings.Join(res.Failures, "\n"); strings.Count(got, "step 3 ") != 1 {
		t.Errorf("step 3 reported %d times, want once (one diff per expectation):\n%s", strings.Count(got, "step 3 "), got)
	}
}

func TestWrongOutcomeAndToolResultFail(t *testing.T) {
	s := mustParse(t, "wrong-tool", `
description: wrong outcome, wrong error text, wrong load order
providers:
  - id: remote
    skills:
      - {name: alpha, description: First skill., body: Alpha body.}
steps:
  - name: first step
    preStep: {}
    expect: {outcome: unchanged}
`)
	res := run(t, s)
	if want := `step 1 "first step" (preStep by agent:main in session s1): outcome: got "initial", want "unchanged"`; len(res.Failures) != 1 || res.Failures[0] != want {
		t.Errorf("failures = %q\nwant [%q]", res.Failures, want)
	}

	s = mustParse(t, "wrong-tool", `
description: wrong error text and load order
providers:
  - id: remote
    skills:
      - {name: alpha, description: First skill., body: Alpha body.}
steps:
  - toolCall: {skill: gamma}
    expect:
      isError: true
      text: 'Error: skill "gamma" is unknown'
      loads: {remote: [gamma]}
`)
	res = run(t, s)
	containsAll(t, res.Failures,
		`step 1 (toolCall skill "gamma" by agent:main): tool result (-want +got):`,
		"- Text: `Error: skill \"gamma\" is unknown`,",
		"+ Text: `Error: skill \"gamma\" is unknown or no longer available`,",
		`step 1 (toolCall skill "gamma" by agent:main): provider "remote" loads so far (-want +got):`,
	)
}

func TestConfigErrorExpectationFails(t *testing.T) {
	s := mustParse(t, "accepted", `
description: a valid configuration expected to fail
plugin:
  config: '{"catalogDescriptionMaxLength": 30}'
  configError: catalogDescriptionMaxLength must be an integer >= 3, got 30
`)
	res := run(t, s)
	if len(res.Failures) != 1 || !strings.Contains(res.Failures[0], "accepted, want the configuration error") {
		t.Errorf("failures = %q", res.Failures)
	}

	s = mustParse(t, "wrong-message", `
description: a refused configuration with another message
plugin:
  config: '{"catalogDescriptionMaxLength": 1}'
  configError: {contains: [catalogDescriptionMaxLength, "at least 3"]}
`)
	res = run(t, s)
	if len(res.Failures) != 1 {
		t.Errorf("failures = %q, want one", res.Failures)
	}
	containsAll(t, res.Failures, "configuration error (-want +got):", `<text that does not contain "at least 3">`)
}

func TestMutationErrorsAreFailures(t *testing.T) {
	s := mustParse(t, "bad-mutation", `
description: removing a skill that is not there
steps:
  - removeSkill: {name: ghost}
  - preStep: {}
`)
	res := run(t, s)
	want := `step 1 (remove skill ghost from global): no skill "ghost" is registered in scope "global"`
	if len(res.Failures) != 2 || res.Failures[0] != want {
		t.Errorf("failures = %q\nwant first %q", res.Failures, want)
	}
}

func TestRunFilesReport(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a-pass.yaml", "description: passes\nsteps:\n  - preStep: {}\n    expect: {outcome: unchanged}\n")
	write("b-fail.yaml", "description: fails\nsteps:\n  - preStep: {}\n    expect: {outcome: initial}\n")
	write("c-broken.yaml", "description: broken\nstepz: []\n")
	files, err := conformance.Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r := &conformance.Runner{PluginPath: pluginPath}
	passed, failed := r.RunFiles(context.Background(), files, nil, &out)
	if passed != 1 || failed != 2 {
		t.Errorf("passed, failed = %d, %d; want 1, 2", passed, failed)
	}
	want := "PASS a-pass\n" +
		"FAIL b-fail (" + filepath.Join(dir, "b-fail.yaml") + ")\n" +
		`    step 1 (preStep by agent:main in session s1): outcome: got "unchanged", want "initial"` + "\n" +
		"FAIL " + filepath.Join(dir, "c-broken.yaml") + "\n" +
		"    " + filepath.Join(dir, "c-broken.yaml") + `:2:1: unknown field "stepz" (known fields: agents, description, lock, name, plugin, project, providers, sessions, sites, skills, steps)` + "\n" +
		"1 passed, 2 failed\n"
	if out.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", out.String(), want)
	}

	out.Reset()
	passed, failed = r.RunFiles(context.Background(), files[:2], func(name string) bool { return name == "a-pass" }, &out)
	if passed != 1 || failed != 0 || out.String() != "PASS a-pass\n1 passed, 0 failed\n" {
		t.Errorf("filtered report %d/%d:\n%s", passed, failed, out.String())
	}
}
