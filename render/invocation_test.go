package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// literalNote is UserInvocationNote written out by hand.
const literalNote = "When the user invokes a skill by name, its full instructions appear in the conversation as its `<skill_content>` block; follow them, and do not load that skill again with the `skill` tool."

// TestUserInvocationGolden pins the catalog texts of a mount with user
// invocation on: golden files (rewritten with -update) that must also match
// the templates written out here, so a golden regenerated from wrong code
// fails.
func TestUserInvocationGolden(t *testing.T) {
	tests := []struct {
		golden string
		got    string
		want   string
	}{
		{
			golden: "catalog_initial_1_user_invocation",
			got:    WithUserInvocationNote(assembleCatalog([][]byte{AppendEntryLine(nil, oneEntry[0])}, false, 0)),
			want: lines(
				"<system-reminder>",
				"A skill is a reusable set of task-specific instructions. The following skills are available in this session:",
				"",
				"<available_skills>",
				"-`pdf-tools`: Extract text and tables from PDF files, fill PDF forms, and merge documents.",
				"</available_skills>",
				"",
				literalFooter+" "+literalNote,
				"</system-reminder>",
			),
		},
		{
			golden: "catalog_replacement_3_user_invocation",
			got:    WithUserInvocationNote(ReplacementCatalog(threeEntries)),
			want: lines(
				"<system-reminder>",
				"The available skills have changed. This complete list replaces every earlier skill catalog in this session:",
				"",
				"<available_skills>",
				"-`code-review`: Review a diff for bugs &amp; style issues; flags &lt;script&gt; tags and never closes &lt;/available_skills&gt; early.",
				"-`data-viz`: Build charts from CSV &amp; JSON data when asked for a plot -&gt; PNG or SVG.",
				"-`pdf-tools`: Extract text and tables from PDF files, fill PDF forms, and merge documents.",
				"</available_skills>",
				"",
				literalFooter+" "+literalNote,
				"</system-reminder>",
			),
		},
		{
			golden: "tombstone_user_invocation",
			got:    WithUserInvocationNote(Tombstone()),
			want: lines(
				"<system-reminder>",
				"The available skills have changed. No skills are available in this session anymore:",
				"",
				"<available_skills>",
				"</available_skills>",
				"",
				"Do not call the `skill` tool with any skill name from an earlier catalog in this session; those skills are no longer available. "+literalNote,
				"</system-reminder>",
			),
		},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			checkGolden(t, tt.golden, tt.got)
			if diff := cmp.Diff(tt.want, readGolden(t, tt.golden)); diff != "" {
				t.Errorf("golden file differs from the literal template (-want +golden):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("rendered text differs from the literal template (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithUserInvocationNoteLeavesOtherTextsAlone(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain text", "<system-reminder>\nno closing tag", "</system-reminder>"} {
		if got := WithUserInvocationNote(s); got != s {
			t.Errorf("WithUserInvocationNote(%q) = %q, want it unchanged", s, got)
		}
	}
}
