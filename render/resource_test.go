package render

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/skill"
)

func int64p(n int64) *int64 { return &n }

var (
	firstPage = skill.ResourcePage{Name: "data-export", Path: "scripts/export_csv.py", Offset: 0, NextOffset: int64p(8192), TotalBytes: 20480, Content: "#!/usr/bin/env python3\nimport csv\n"}
	lastPage  = skill.ResourcePage{Name: "data-export", Path: "scripts/export_csv.py", Offset: 16384, TotalBytes: 16419, Content: "print(\"done\")\n# end of <file> & co\n"}
	oddPath   = skill.ResourcePage{Name: "pdf-tools", Path: `refs/"quoted" <&> name.md`, Offset: 0, TotalBytes: 5, Content: "hello"}
)

// TestResourceGolden pins the resource-read tool's model-facing texts.
func TestResourceGolden(t *testing.T) {
	tests := []struct {
		name string
		text func(t *testing.T) string
	}{
		{"resource_page_first", func(*testing.T) string { return ResourcePage(firstPage) }},
		{"resource_page_last", func(*testing.T) string { return ResourcePage(lastPage) }},
		{"resource_page_escaped_path", func(*testing.T) string { return ResourcePage(oddPath) }},
		{"resource_tool_description", func(*testing.T) string { return ResourceToolDescription }},
		{"resource_tool_input_schema", func(*testing.T) string { return ResourceToolInputSchema }},
		{"resource_tool_output_schema", func(*testing.T) string { return ResourceToolOutputSchema }},
		{"skill_content_url_resource_tool", func(t *testing.T) string { return mustSkillContentFor(t, urlValue) }},
		{"skill_content_directory_resource_tool", func(t *testing.T) string { return mustSkillContentFor(t, directoryValue) }},
		{"error_resource_unexpected_argument", func(*testing.T) string { return string(ErrResourceUnexpectedArgument("length")) }},
		{"error_resource_arguments_not_object", func(*testing.T) string { return string(ErrResourceArgumentsNotObject("not json")) }},
		{"error_invalid_path", func(*testing.T) string {
			return string(ErrInvalidPath("../../etc/passwd", "dot segments are not allowed"))
		}},
		{"error_invalid_path_quoted", func(*testing.T) string {
			return string(ErrInvalidPath("a\x00b\n", "it holds a control or format character"))
		}},
		{"error_invalid_offset", func(*testing.T) string { return string(ErrInvalidOffset("-1")) }},
		{"error_resource_not_found", func(*testing.T) string { return string(ErrResourceNotFound("data-export", "scripts/missing.py")) }},
		{"error_resource_not_readable", func(*testing.T) string { return string(ErrResourceNotReadable("brand-voice")) }},
		{"error_resource_binary", func(*testing.T) string { return string(ErrResourceBinary("pdf-tools", "assets/logo.png")) }},
		{"error_resource_too_large", func(*testing.T) string { return string(ErrResourceTooLarge("pdf-tools", "assets/huge.txt")) }},
		{"error_offset_past_end", func(*testing.T) string {
			return string(ErrOffsetPastEnd("data-export", "scripts/export_csv.py", 9000, 2618))
		}},
		{"error_unknown_tool", func(*testing.T) string { return string(ErrUnknownTool("skill_write")) }},
		{"error_resource_tool_without_skill", func(*testing.T) string { return string(ErrResourceToolWithoutSkill()) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkGolden(t, tt.name, tt.text(t))
		})
	}
}

func mustSkillContentFor(t *testing.T, v skill.ToolValue) string {
	t.Helper()
	s, err := SkillContentFor(v, true)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestResourcePageLiteral writes the wrapper out by hand, so a golden file
// regenerated from wrong code fails.
func TestResourcePageLiteral(t *testing.T) {
	t.Parallel()
	want := "<skill_resource name=\"data-export\" path=\"scripts/export_csv.py\" offset=\"0\" bytes=\"34\" total_bytes=\"20480\" next_offset=\"8192\">\n" +
		"#!/usr/bin/env python3\nimport csv\n\n" +
		"</skill_resource>\n" +
		"More of this file remains: call skill_resource with \"offset\": 8192 to continue."
	if got := ResourcePage(firstPage); got != want || readGolden(t, "resource_page_first") != want {
		t.Errorf("first page:\n%s\nwant:\n%s", got, want)
	}
	want = "<skill_resource name=\"pdf-tools\" path=\"refs/&quot;quoted&quot; &lt;&amp;&gt; name.md\" offset=\"0\" bytes=\"5\" total_bytes=\"5\">\nhello\n</skill_resource>"
	if got := ResourcePage(oddPath); got != want || readGolden(t, "resource_page_escaped_path") != want {
		t.Errorf("escaped path:\n%s\nwant:\n%s", got, want)
	}
}

// TestResourceSchemasAreJSON: the schemas parse, and the output schema's
// required fields are the ones ResourcePage always sends.
func TestResourceSchemasAreJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{ResourceToolInputSchema, ResourceToolOutputSchema} {
		var v map[string]any
		if err := json.Unmarshal([]byte(s), &v); err != nil || v["additionalProperties"] != false {
			t.Fatalf("schema %v: %s", err, s)
		}
	}
	b, _ := json.Marshal(lastPage)
	var got map[string]any
	_ = json.Unmarshal(b, &got)
	for _, k := range []string{"name", "path", "offset", "totalBytes", "content"} {
		if _, ok := got[k]; !ok {
			t.Errorf("value JSON lacks %q: %s", k, b)
		}
	}
	if _, ok := got["nextOffset"]; ok {
		t.Errorf("last page carries nextOffset: %s", b)
	}
}

// TestResourceErrorsCapEchoes: a long name and path are repeated capped.
func TestResourceErrorsCapEchoes(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("p", 5000)
	for _, s := range []string{string(ErrInvalidPath(long, "x")), string(ErrResourceNotFound(long, long)), string(ErrResourceBinary(long, long)), string(ErrResourceTooLarge(long, long)), string(ErrOffsetPastEnd(long, long, 1, 1)), string(ErrInvalidOffset(long)), string(ErrResourceNotReadable(long)), string(ErrResourceUnexpectedArgument(long)), string(ErrUnknownTool(long))} {
		if len(s) > 2*MaxEchoBytes+250 || !utf8.ValidString(s) || !strings.HasPrefix(s, "Error: ") {
			t.Errorf("error text of %d bytes: %.80q", len(s), s)
		}
	}
}
