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
// tools, not as an invalid skill name; nothing reaches the host.
func TestArgumentsThatAreNotAnObject(t *testing.T) {
	t.Parallel()
	const (
		skillTail    = `; the skill tool takes {"name": "<skill name>"}`
		resourceTail = `; the skill_resource tool takes {"name": "<skill name>", "path": "<path>"} and an optional "offset"`
	)
	tests := []struct{ args, echoed string }{
		{`not json`, `not json`},
		{`  not json  `, `not json`},
		{``, ``},
		{`null`, `null`},
		{`"alpha"`, `"alpha"`},
		{`["alpha"]`, `["alpha"]`},
		{`42`, `42`},
		{`{"name":"alpha"`, `{"name":"alpha"`},
		{strings.Repeat("x", 3<<20), strings.Repeat("x", render.MaxEchoBytes-3) + "..."},
	}
	for _, tc := range tests {
		h := newResHost(summary("alpha", "A."))
		res, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(tc.args)})
		want := `Error: the arguments are not a JSON object: "` + tc.echoed + `"` + skillTail
		if err != nil || !res.IsError || res.Text != want {
			t.Errorf("skill %.40q: %q (error %v), %v; want %q", tc.args, res.Text, res.IsError, err, want)
		}
		res = readCall(t, h, tc.args)
		want = `Error: the arguments are not a JSON object: "` + tc.echoed + `"` + resourceTail
		if !res.IsError || res.Text != want {
			t.Errorf("skill_resource %.40q: %q (error %v); want %q", tc.args, res.Text, res.IsError, want)
		}
		if h.snapshots != 0 || h.gets != 0 || len(h.asked) != 0 {
			t.Errorf("%.40q: %d snapshots, %d loads, %d reads for refused arguments", tc.args, h.snapshots, h.gets, len(h.asked))
		}
	}
}
