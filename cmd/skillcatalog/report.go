package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// reporter prints the demo either framed for people or as JSON lines.
type reporter struct {
	w    io.Writer
	json bool
	enc  *json.Encoder
}

func newReporter(w io.Writer, asJSON bool) *reporter {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &reporter{w: w, json: asJSON, enc: enc}
}

type jsonMessage struct {
	ID     string          `json:"id"`
	Role   string          `json:"role"`
	Text   string          `json:"text"`
	Source json.RawMessage `json:"source,omitempty"`
}

func (r *reporter) emit(v any) {
	// Output errors (a closed pipe) end the demo's usefulness, not its run.
	_ = r.enc.Encode(v)
}

func (r *reporter) section(n int, title string) {
	if r.json {
		r.emit(map[string]any{"event": "section", "section": n, "title": strings.ReplaceAll(title, "`", "")})
		return
	}
	line := fmt.Sprintf("━━ %d. %s ", n, title)
	if pad := 78 - len([]rune(line)); pad > 0 {
		line += strings.Repeat("━", pad)
	}
	fmt.Fprintf(r.w, "\n%s\n", line)
}

func (r *reporter) step(n int, res hostsdk.StepResult) {
	if r.json {
		msgs := make([]jsonMessage, 0, len(res.Decision.Messages))
		for _, m := range res.Decision.Messages {
			msgs = append(msgs, jsonMessage{ID: m.ID, Role: string(m.Role), Text: m.Text(), Source: m.Source})
		}
		r.emit(map[string]any{"event": "step", "step": n, "outcome": res.Outcome, "messages": msgs, "appendedSeqs": res.Appended})
		return
	}
	fmt.Fprintf(r.w, "model step %d → %s", n, describeOutcome(res.Outcome))
	if len(res.Decision.Messages) == 0 {
		fmt.Fprintln(r.w, "; no message added")
		return
	}
	fmt.Fprintln(r.w)
	for i, m := range res.Decision.Messages {
		seq := ""
		if i < len(res.Appended) {
			seq = fmt.Sprintf(", durable event #%d", res.Appended[i])
		}
		footer := ""
		if len(m.Source) > 0 {
			footer = "source: " + string(m.Source)
		}
		r.box(fmt.Sprintf("%s message%s", m.Role, seq), m.Text(), footer)
	}
}

func (r *reporter) tool(name string, res hostsdk.ToolResult) {
	var shown any
	if res.Value != nil {
		v := *res.Value
		v.Content = fmt.Sprintf("<%d bytes>", len(v.Content))
		shown = v
	}
	r.toolCall(contract.SkillToolName, fmt.Sprintf("{\"name\": %q}", name), map[string]string{"name": name}, res, res.Value, shown)
}

func (r *reporter) resource(name, path string, res hostsdk.ToolResult) {
	var shown any
	if res.Resource != nil {
		v := *res.Resource
		v.Content = fmt.Sprintf("<%d bytes>", len(v.Content))
		shown = v
	}
	r.toolCall(contract.ResourceToolName, fmt.Sprintf("{\"name\": %q, \"path\": %q}", name, path), map[string]string{"name": name, "path": path}, res, res.Resource, shown)
}

// toolCall reports one tool call: its arguments, its text and, on
// success, its value (in text output, shown with the content's size only).
func (r *reporter) toolCall(tool, argsText string, args map[string]string, res hostsdk.ToolResult, value, shown any) {
	if r.json {
		r.emit(map[string]any{"event": "tool", "tool": tool, "arguments": args, "isError": res.IsError, "text": res.Text, "value": value})
		return
	}
	kind := "result"
	if res.IsError {
		kind = "error result"
	}
	footer := ""
	if shown != nil {
		b, _ := json.Marshal(shown)
		footer = "value: " + string(b)
	}
	fmt.Fprintf(r.w, "%s tool ← %s\n", tool, argsText)
	r.box(kind, res.Text, footer)
}

func (r *reporter) note(kind, text string) {
	if r.json {
		r.emit(map[string]any{"event": "note", "kind": kind, "text": text})
		return
	}
	fmt.Fprintf(r.w, "%s: %s\n", kind, text)
}

func (r *reporter) box(title, body, footer string) {
	fmt.Fprintf(r.w, "┌─ %s\n", title)
	for _, line := range strings.Split(body, "\n") {
		fmt.Fprintf(r.w, "│ %s\n", line)
	}
	if footer != "" {
		fmt.Fprintf(r.w, "└─ %s\n", footer)
	} else {
		fmt.Fprintln(r.w, "└─")
	}
}

func describeOutcome(o hostsdk.Outcome) string {
	switch o {
	case hostsdk.OutcomeInitial:
		return "initial catalog"
	case hostsdk.OutcomeReplacement:
		return "replacement catalog"
	case hostsdk.OutcomeTombstone:
		return "empty tombstone"
	case hostsdk.OutcomeUnchanged:
		return "catalog unchanged"
	case hostsdk.OutcomeIncomplete:
		return "skill discovery incomplete, last catalog kept"
	}
	return string(o)
}
