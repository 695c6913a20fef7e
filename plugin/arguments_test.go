package plugin

import (
	"context"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
)

// TestArgumentsThatAreNotAnObject: arguments that are not a JSON object
// (not JSON at all, or JSON of another type) are answered as such by both
// tools, not as an invalid skill name; JSON of another type is named and
// shown as sent, a string in its own quotes only; nothing reaches the
// host.
func TestArgumentsThatAreNotAnObject(t *testing.T) {
	t.Parallel()
	const (
		skillTail    = `; the skill tool takes {"name": "<skill name>"}`
		resourceTail = `; the skill_resource tool takes {"name": "<skill name>", "path": "<path>"} and an optional "offset"`
		notObject    = `Error: the arguments are not a JSON object: "`
	)
	tests := []struct{ args, head string }{
		{`not json`, notObject + `not json"`},
		{`  not json  `, notObject + `not json"`},
		{``, notObject + `"`},
		{`null`, `Error: the arguments are JSON null, not an object: null`},
		{`"alpha"`, `Error: the arguments are a JSON string, not an object: "alpha"`},
		{` "alpha" `, `Error: the arguments are a JSON string, not an object: "alpha"`},
		{`["alpha"]`, `Error: the arguments are a JSON array, not an object: ["alpha"]`},
		{`42`, `Error: the arguments are a JSON number, not an object: 42`},
		{`true`, `Error: the arguments are a JSON boolean, not an object: true`},
		{`{"name":"alpha"`, notObject + `{"name":"alpha""`},
		{strings.Repeat("x", 256<<10), notObject + strings.Repeat("x", render.MaxEchoBytes-3) + `..."`},
	}
	for _, tc := range tests {
		h := newResHost(summary("alpha", "A."))
		res, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(tc.args)})
		want := tc.head + skillTail
		if err != nil || !res.IsError || res.Text != want {
			t.Errorf("skill %.40q: %q (error %v), %v; want %q", tc.args, res.Text, res.IsError, err, want)
		}
		res = readCall(t, h, tc.args)
		want = tc.head + resourceTail
		if !res.IsError || res.Text != want {
			t.Errorf("skill_resource %.40q: %q (error %v); want %q", tc.args, res.Text, res.IsError, want)
		}
		if h.snapshots != 0 || h.gets != 0 || len(h.asked) != 0 {
			t.Errorf("%.40q: %d snapshots, %d loads, %d reads for refused arguments", tc.args, h.snapshots, h.gets, len(h.asked))
		}
	}
}
