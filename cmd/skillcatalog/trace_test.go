package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestDemoTracePrintsEachStepsSpanTree: with -trace every step and tool
// call is followed by its span tree: the step's span with the step's
// outcome, the plugin's span below it and the callbacks below that, each
// line's parent the line that contains it.
func TestDemoTracePrintsEachStepsSpanTree(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"demo", "-json", "-trace"}, &stdout, &stderr); code != 0 {
		t.Fatalf("demo exited %d: %s", code, stderr.String())
	}
	type span struct {
		Name       string            `json:"name"`
		SpanID     string            `json:"spanId"`
		ParentID   string            `json:"parentId"`
		Depth      int               `json:"depth"`
		DurationMS float64           `json:"durationMs"`
		Attributes map[string]string `json:"attributes"`
	}
	var (
		last   string // the event before
		want   string // the root span the next trace must have
		steps  int
		traces int
	)
	var outcome string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var ev struct {
			Event   string `json:"event"`
			Outcome string `json:"outcome"`
			Spans   []span `json:"spans"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line is not JSON: %q: %v", line, err)
		}
		switch ev.Event {
		case "step":
			steps++
			want, outcome = "skillcatalog.PreStep", ev.Outcome
		case "tool":
			want, outcome = "skillcatalog.CallTool", ""
		case "trace":
			traces++
			if last != "step" && last != "tool" {
				t.Errorf("a trace follows a %q event, want a step or a tool call", last)
			}
			root := ev.Spans[0]
			if root.Name != want || root.Depth != 0 || root.ParentID != "" {
				t.Errorf("trace after a %s starts with %+v, want the root %s", last, root, want)
			}
			if outcome != "" && root.Attributes["outcome"] != outcome {
				t.Errorf("step span says outcome %q, the step %q", root.Attributes["outcome"], outcome)
			}
			// Each span's parent is the nearest shallower line above it.
			var path []span
			names := map[string]bool{}
			for _, s := range ev.Spans {
				names[s.Name] = true
				if s.DurationMS < 0 {
					t.Errorf("span %s lasted %v ms", s.Name, s.DurationMS)
				}
				path = path[:min(len(path), s.Depth)]
				if s.Depth != len(path) {
					t.Fatalf("span %s at depth %d below a path of %d", s.Name, s.Depth, len(path))
				}
				if s.Depth > 0 && s.ParentID != path[s.Depth-1].SpanID {
					t.Errorf("span %s names the parent %s, want %s (%s)", s.Name, s.ParentID, path[s.Depth-1].SpanID, path[s.Depth-1].Name)
				}
				path = append(path, s)
			}
			if want == "skillcatalog.PreStep" && !names["skillcatalog.plugin.PreStep"] {
				t.Errorf("step trace without the plugin's span: %+v", ev.Spans)
			}
		}
		last = ev.Event
	}
	if steps != 7 || traces < steps {
		t.Errorf("%d traces for %d steps, want one per step and tool call", traces, steps)
	}

	// In text, the same trees, indented, with durations.
	stdout.Reset()
	if code := run(context.Background(), []string{"demo", "-trace"}, &stdout, &stderr); code != 0 {
		t.Fatalf("demo exited %d: %s", code, stderr.String())
	}
	// The registry lists its two providers at once, so the scripted
	// provider's span may come first.
	tree := regexp.MustCompile(`(?m)^trace:\n  skillcatalog\.PreStep +\d+\.\d\d ms  outcome=initial\n    skillcatalog\.plugin\.PreStep +\d+\.\d\d ms  outcome=initial\n      skillcatalog\.callback\.Snapshot +\d+\.\d\d ms  complete=true  not_modified=false\n(        skillcatalog\.provider\.List +\d+\.\d\d ms  complete=true  provider=handbook  result=ok\n)?        skillcatalog\.provider\.List +\d+\.\d\d ms  complete=true  provider=agentskills  result=ok\n`)
	if !tree.MatchString(stdout.String()) {
		t.Errorf("text output lacks the first step's tree:\n%s", stdout.String())
	}
}
