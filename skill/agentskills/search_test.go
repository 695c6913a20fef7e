package agentskills

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSearchFieldsParse(t *testing.T) {
	for _, tc := range []struct {
		name, front  string
		wantWhen     string
		wantKeywords []string
		wantWarnings int
	}{
		{"none", "name: a\ndescription: d\n", "", nil, 0},
		{"when_to_use", "name: a\ndescription: d\nwhen_to_use: After a deploy fails.\n", "After a deploy fails.", nil, 0},
		{"keywords as a list", "name: a\ndescription: d\nkeywords: [pdf, forms]\n", "", []string{"pdf", "forms"}, 0},
		{"tags as a string", "name: a\ndescription: d\ntags: pdf, forms\n", "", []string{"pdf", " forms"}, 0},
		{"metadata keywords after top-level ones", "name: a\ndescription: d\nkeywords: [x]\nmetadata:\n  keywords: y, z\n  tags: w\n", "", []string{"x", "y", " z", "w"}, 0},
		{"an entry that is not a string", "name: a\ndescription: d\nkeywords: [x, {a: b}]\n", "", []string{"x"}, 1},
		{"neither list nor string", "name: a\ndescription: d\nkeywords: {a: b}\n", "", nil, 1},
		{"when_to_use not a string", "name: a\ndescription: d\nwhen_to_use: [a]\n", "", nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm, _, warnings, err := ParseSkillFile([]byte("---\n" + tc.front + "---\nBody.\n"))
			if err != nil {
				t.Fatal(err)
			}
			if fm.WhenToUse != tc.wantWhen {
				t.Errorf("WhenToUse = %q, want %q", fm.WhenToUse, tc.wantWhen)
			}
			if diff := cmp.Diff(tc.wantKeywords, fm.Keywords); diff != "" {
				t.Errorf("Keywords (-want +got):\n%s", diff)
			}
			if len(warnings) != tc.wantWarnings {
				t.Errorf("warnings %q, want %d", warnings, tc.wantWarnings)
			}
		})
	}
}

func TestListingCarriesSearchFields(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	dir := filepath.Join(root, "pdf-forms")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := "---\nname: pdf-forms\ndescription: Fill PDF forms.\nwhen_to_use: When a PDF has fields.\ntags: [pdf, Forms, pdf]\n---\n" +
		"# PDF forms\n\nRead the fields first.\n\n```sh\npdftk in.pdf dump_data_fields\n```\nThen fill them.\n"
	if err := os.WriteFile(filepath.Join(dir, skillFileName), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	p := mustNew(t, Options{HomeDir: t.TempDir(), ExtraRoots: []string{root}})
	got := mustList(t, p, "").Skills
	if len(got) != 1 {
		t.Fatalf("listed %d skills, want 1", len(got))
	}
	s := got[0]
	want := [3]string{"When a PDF has fields.", "pdf, Forms", "# PDF forms Read the fields first. Then fill them."}
	if diff := cmp.Diff(want, [3]string{s.WhenToUse, s.Keywords, s.SearchText}); diff != "" {
		t.Errorf("search fields (-want +got):\n%s", diff)
	}
	def := mustLoad(t, p, "", "pdf-forms")
	if diff := cmp.Diff(s, def.Summary); diff != "" {
		t.Errorf("a load's summary differs from the listing's (-listed +loaded):\n%s", diff)
	}
}
