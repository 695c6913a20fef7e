package conformance

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseErrorsCarryPositions(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{
			name: "unknown top-level field",
			yaml: "descripton: typo\nsteps:\n  - preStep: {}\n",
			want: `x.yaml:1:1: unknown field "descripton" (known fields: agents, description, lock, name, plugin, project, providers, sessions, sites, skills, steps)`,
		},
		{
			name: "site without a dir",
			yaml: "sites:\n  - {id: docs}\nsteps:\n  - preStep: {}\n",
			want: `x.yaml:2:5: site "docs": dir is required (the served tree, relative to the scenario file)`,
		},
		{
			name: "site label outside the grammar",
			yaml: "sites:\n  - {id: docs, label: Docs, dir: .}\nsteps:\n  - preStep: {}\n",
			want: `x.yaml:2:5: site "docs": label "Docs" is not a label (^[a-z0-9]+(-[a-z0-9]+)*$, at most 64 bytes)`,
		},
		{
			name: "unknown field in an expectation",
			yaml: "steps:\n  - preStep: {}\n    expect:\n      outcome: initial\n      nothingAdde: true\n",
			want: `x.yaml:5:7: unknown field "nothingAdde"`,
		},
		{
			name: "unknown field in a flow mapping",
			yaml: "skills:\n  - {name: a, descripton: b}\nsteps:\n  - preStep: {}\n",
			want: `x.yaml:2:15: unknown field "descripton"`,
		},
		{
			name: "invalid YAML",
			yaml: "steps:\n  - preStep: {}\n    expect: [\n",
			want: "x.yaml:3: invalid YAML: did not find expected node content",
		},
		{
			name: "tab indentation",
			yaml: "steps:\n\t- preStep: {}\n",
			want: "x.yaml:2: invalid YAML: ",
		},
		{
			name: "wrong scalar type",
			yaml: "steps:\n  - preStep: {}\n    expect:\n      outcome: 5\n",
			want: "x.yaml:4:16: expected a string, got the integer 5",
		},
		{
			name: "wrong node kind",
			yaml: "skills: alpha\nsteps:\n  - preStep: {}\n",
			want: `x.yaml:1:9: expected a list, got the string "alpha"`,
		},
		{
			name: "repeated field",
			yaml: "steps:\n  - preStep: {}\n    preStep: {}\n",
			want: `x.yaml:3:5: field "preStep" appears twice`,
		},
		{
			name: "two actions in one step",
			yaml: "steps:\n  - preStep: {}\n    restrict: {scope: global}\n",
			want: "x.yaml:2:5: step has 2 actions (preStep, restrict)",
		},
		{
			name: "unknown field in a selection",
			yaml: "steps:\n  - selectSkills: {excludeName: [a]}\n",
			want: `x.yaml:2:20: unknown field "excludeName"`,
		},
		{
			name: "a selection list that is not a list",
			yaml: "steps:\n  - selectSkills: {excludeNames: a}\n",
			want: `x.yaml:2:34: expected a list, got the string "a"`,
		},
		{
			name: "unknown provider availability",
			yaml: "providers:\n  - {id: p, availability: sometimes}\nsteps:\n  - preStep: {}\n",
			want: `x.yaml:2:5: provider "p": availability "sometimes" is not one of strict, best-effort`,
		},
		{
			name: "unknown reason code",
			yaml: "steps:\n  - preStep: {}\n    expect:\n      reasons: [{code: degraded}]\n",
			want: `x.yaml:4:17: reason code "degraded" is not one of contract.ReasonCodes`,
		},
		{
			name: "reasons on a tool call",
			yaml: "steps:\n  - toolCall: {skill: a}\n    expect: {reasons: [{code: current}]}\n",
			want: "x.yaml:3:13: outcome, reject, messages, added, removed, nothingAdded, cancelled, diagnostics and reasons are pre-step expectations",
		},
		{
			name: "no action",
			yaml: "steps:\n  - name: nothing\n",
			want: "x.yaml:2:5: step has no action",
		},
		{
			name: "expectation on a mutation",
			yaml: "steps:\n  - addSkill: {name: a, description: b}\n    expect: {outcome: initial}\n",
			want: "x.yaml:3:13: expect is allowed on preStep, toolCall and readResource steps only",
		},
		{
			name: "resource read without a path",
			yaml: "steps:\n  - readResource: {skill: a}\n",
			want: "x.yaml:2:19: a resource read needs skill and path (or raw arguments)",
		},
		{
			name: "resource read with arguments and a skill",
			yaml: "steps:\n  - readResource: {skill: a, arguments: '{}'}\n",
			want: "x.yaml:2:19: a resource read gives skill, path and offset, or arguments, not both",
		},
		{
			name: "resource read and a tool call in one step",
			yaml: "steps:\n  - readResource: {skill: a, path: b}\n    toolCall: {skill: a}\n",
			want: "x.yaml:2:5: step has 2 actions (toolCall, readResource)",
		},
		{
			name: "resource outside the skill",
			yaml: "skills:\n  - {name: a, description: b, resources: {../x: y}}\n",
			want: `x.yaml:2:5: skill "a": resource path "../x" is not a local slash-separated path`,
		},
		{
			name: "runtime resources and a resource base",
			yaml: "skills:\n  - {name: a, description: b, resources: {x: y}, resourceBase: {kind: opaque, description: d}}\n",
			want: `x.yaml:2:5: skill "a": a runtime registration's resources are written to a directory that becomes its resource base; give resources or resourceBase, not both`,
		},
		{
			name: "tool expectation on a pre-step",
			yaml: "steps:\n  - preStep: {}\n    expect: {isError: true}\n",
			want: "x.yaml:3:13: isError, text, value and notFound are tool-call expectations",
		},
		{
			name: "unknown outcome",
			yaml: "steps:\n  - preStep: {}\n    expect: {outcome: published}\n",
			want: `x.yaml:3:13: outcome "published" is not one of`,
		},
		{
			name: "undeclared agent",
			yaml: "steps:\n  - preStep: {agent: agent:x}\n",
			want: `x.yaml:2:14: scope "agent:x" is neither "global" nor a declared agent`,
		},
		{
			name: "undeclared provider",
			yaml: "steps:\n  - setProvider: {id: nope, state: failing}\n",
			want: `x.yaml:2:18: provider "nope" is not declared`,
		},
		{
			name: "bad provider state",
			yaml: "providers:\n  - {id: p, state: broken}\nsteps:\n  - preStep: {}\n",
			want: `x.yaml:2:5: provider state "broken" is not one of complete, incomplete, failing, hang`,
		},
		{
			name: "empty text match",
			yaml: "steps:\n  - toolCall: {skill: a}\n    expect:\n      text: {}\n",
			want: "x.yaml:4:13: a text match needs at least one of",
		},
		{
			name: "tool call without arguments",
			yaml: "steps:\n  - toolCall: {}\n",
			want: "x.yaml:2:15: a tool call gives skill or arguments (exactly one)",
		},
		{
			name: "no steps",
			yaml: "name: empty\n",
			want: "x.yaml:1:1: a scenario needs steps",
		},
		{
			name: "empty file",
			yaml: "",
			want: "x.yaml: the file is empty",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("x.yaml", []byte(tc.yaml))
			if err == nil {
				t.Fatalf("Parse succeeded, want an error starting %q", tc.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error = %q\nwant prefix %q", err, tc.want)
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	s, err := parse("dir/my-scenario.yaml", []byte(`
description: defaults
agents: [agent:a, {scope: agent:a-child, parent: agent:a}]
skills:
  - {name: alpha, description: A.}
steps:
  - preStep: {}
  - toolCall: {skill: alpha}
    expect:
      text: exact text
  - toolCall: {arguments: '{}', agent: agent:a-child}
    expect:
      text: {contains: [a, b], excludes: [c]}
      value: null
  - restrict: {scope: agent:a}
`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "my-scenario" {
		t.Errorf("name = %q, want the file's base name", s.Name)
	}
	if s.Plugin.Scope != "global" || s.Skills[0].Scope != "global" {
		t.Errorf("plugin scope %q, skill scope %q; want global defaults", s.Plugin.Scope, s.Skills[0].Scope)
	}
	if got := s.Agents[1]; got.Scope != "agent:a-child" || got.Parent != "agent:a" {
		t.Errorf("second agent = %+v", got)
	}
	pre := s.Steps[0].PreStep
	if pre == nil || pre.Agent != "agent:a" || pre.Session != defaultSession || pre.Cwd != defaultCwd {
		t.Errorf("pre-step defaults = %+v", pre)
	}
	if tc := s.Steps[1].ToolCall; tc.Tool != "skill" || *tc.Skill != "alpha" {
		t.Errorf("tool call = %+v", tc)
	}
	if e := s.Steps[1].Expect; e.Text == nil || e.Text.Exact == nil || *e.Text.Exact != "exact text" {
		t.Errorf("a plain string text match is exact: %+v", e.Text)
	}
	e := s.Steps[2].Expect
	if !e.Value.Set || e.Value.Value != nil {
		t.Errorf("value: null must be set and nil, got %+v", e.Value)
	}
	if diff := cmp.Diff([]string{"a", "b"}, e.Text.Contains); diff != "" {
		t.Errorf("contains (-want +got):\n%s", diff)
	}
	if r := s.Steps[3].Restrict; r.Tool != "skill" {
		t.Errorf("restrict tool = %q, want skill", r.Tool)
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.yaml", "a.yml", "README.md", "sub/c.yaml"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Files([]string{dir, filepath.Join(dir, "README.md")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(dir, "a.yml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "sub/c.yaml"),
		filepath.Join(dir, "README.md"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Files (-want +got):\n%s", diff)
	}
	if _, err := Files([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing path is not an error")
	}
}
