package triggereval

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseEvalFile: each documented format reads as its cases; cases that
// are not trigger cases are left out; malformed files are errors.
func TestParseEvalFile(t *testing.T) {
	for _, tc := range []struct {
		name, file, data string
		want             []Case
		wantErr          string
	}{
		{"array", "t.json", `[{"query":"Fill in this PDF form","should_trigger":true},{"query":"What is 2+2?","should_trigger":false}]`,
			[]Case{{Request: "Fill in this PDF form", ShouldTrigger: true}, {Request: "What is 2+2?"}}, ""},
		{"evals object", "evals.json", `{"skill_name":"pdf","evals":[{"prompt":"Merge a.pdf and b.pdf","should_trigger":true},{"id":1,"prompt":"output eval","expected_output":"x"}]}`,
			[]Case{{Skill: "pdf", Request: "Merge a.pdf and b.pdf", ShouldTrigger: true}}, ""},
		{"case names its skill", "t.json", `[{"query":"q","should_trigger":true,"skill":"other"}]`,
			[]Case{{Skill: "other", Request: "q", ShouldTrigger: true}}, ""},
		{"markdown", "cases.md", "# Trigger cases\nskill: pdf\n\nSome prose.\n- [x] Fill in this PDF form\n* [X] Rotate page 2\n- [ ] What is 2+2?\n- plain bullet\n",
			[]Case{{Skill: "pdf", Request: "Fill in this PDF form", ShouldTrigger: true}, {Skill: "pdf", Request: "Rotate page 2", ShouldTrigger: true}, {Skill: "pdf", Request: "What is 2+2?"}}, ""},
		{"empty request", "t.json", `[{"query":"  ","should_trigger":true}]`, nil, "empty request"},
		{"empty markdown item", "c.md", "- [x]   \n", nil, "empty request"},
		{"not json", "t.json", `query: x`, nil, "neither JSON nor markdown"},
		{"bad array", "t.json", `[{"query":1}]`, nil, "not a JSON array"},
		{"wrong type", "t.json", `[{"query":"q","should_trigger":"yes"}]`, nil, "not a JSON array"},
		{"too large", "t.json", "[" + strings.Repeat(" ", MaxFileSize) + "]", nil, "larger than"},
		{"not utf8", "t.json", "[\"\xff\"]", nil, "not UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseFile(tc.file, []byte(tc.data))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("cases (-want +got):\n%s", d)
			}
		})
	}
}

// FuzzParseEvalFile: no input makes the parsers panic, and every case they
// return is a non-empty, bounded request.
func FuzzParseEvalFile(f *testing.F) {
	f.Add("t.json", []byte(`[{"query":"a","should_trigger":true}]`))
	f.Add("e.json", []byte(`{"skill_name":"s","evals":[{"prompt":"p","should_trigger":false}]}`))
	f.Add("c.md", []byte("skill: s\n- [x] a\n- [ ] b\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		cases, err := ParseFile(name, data)
		if err != nil {
			return
		}
		if len(cases) > MaxCases {
			t.Fatalf("%d cases", len(cases))
		}
		for _, c := range cases {
			if strings.TrimSpace(c.Request) == "" || len(c.Request) > MaxRequest {
				t.Fatalf("case with request %q", c.Request)
			}
		}
	})
}
