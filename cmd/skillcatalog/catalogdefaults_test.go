package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

// longDescription is a spec-valid description of 787 characters, as long
// as the official docx skill's, whose last clause says when not to use it.
var longDescription = strings.Repeat("x", 787-len(" Do NOT trigger for PDFs.")) + " Do NOT trigger for PDFs."

// docxSkills is a directory of skills holding docx, with longDescription.
func docxSkills(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeSkillFile(t, dir, "docx", "---\nname: docx\ndescription: "+longDescription+"\n---\nBody.\n")
	return dir
}

// TestValidateSaysWhatTheCatalogShows: validate says, for a description
// longer than the plugin's default of 500, that the catalog (at Open's
// 1,024) shows it whole, and with -description-max-length where it is cut.
func TestValidateSaysWhatTheCatalogShows(t *testing.T) {
	dir := docxSkills(t)
	code, out, stderr := runCLI(t, "validate", dir)
	if want := "  the catalog shows its description whole: 787 characters (the plugin's default catalogDescriptionMaxLength, 500, would cut it)\n"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, output lacks %q:\n%s%s", code, want, out, stderr)
	}
	code, out, stderr = runCLI(t, "validate", "-description-max-length", "500", dir)
	if want := "  the catalog cuts its description at 500 of 787 characters (-description-max-length 500)\n"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, output lacks %q:\n%s%s", code, want, out, stderr)
	}
	rep, _ := runValidate(t, "-description-max-length", "500", dir)
	if c := rep.Skills[0].Catalog; c == nil || c.DescriptionLength != 787 || c.Shown != 500 || !c.Cut {
		t.Errorf("JSON catalog %+v, want 787 characters cut to 500", c)
	}
}

// TestValidateMissingDirectory: a DIR that does not exist is an error
// naming it, not a DIR that holds nothing.
func TestValidateMissingDirectory(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nothere")
	code, out, stderr := runCLI(t, "validate", filepath.Join(validateFixture, "valid", "minimal"), missing)
	if want := "skillcatalog validate: " + missing + ": no such directory\n"; code != 1 || out != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing, %q", code, out, stderr, want)
	}
}

// TestValidateSummaryStates: each argument is one of three states, told
// apart by their own words: valid, invalid, or no skill.
func TestValidateSummaryStates(t *testing.T) {
	empty := t.TempDir()
	code, out, _ := runCLI(t, "validate", filepath.Join(validateFixture, "valid", "minimal"), filepath.Join(validateFixture, "broken", "missing-name"), empty)
	for _, want := range []string{
		"no skill in " + empty + ": holds no SKILL.md, and none of its subdirectories does\n",
		"2 skills checked: 1 valid, 1 invalid; 1 DIR holds no skill\n",
	} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	if strings.Contains(out, "error   ") {
		t.Errorf("the output still says error beside valid and invalid:\n%s", out)
	}
}

// TestExplainDefaultsAreOpens: explain mounts and scans as hostsdk.Open
// does unless told otherwise: every preset, skill_resource and `/name`
// on, descriptions up to OpenDescriptionMaxLength whole.
func TestExplainDefaultsAreOpens(t *testing.T) {
	var o explainOptions
	if err := explainFlags(&o).Parse(nil); err != nil {
		t.Fatal(err)
	}
	m := o.mountOptions()
	if !m.ResourceTool || !m.UserInvocation || m.DescriptionMaxLength != hostsdk.OpenDescriptionMaxLength {
		t.Errorf("mount options %+v; want resourceTool, userInvocation and %d, as Open", m, hostsdk.OpenDescriptionMaxLength)
	}
	if got := o.scannedPresets(); !slices.Equal(got, agentskills.Presets()) {
		t.Errorf("presets %v, want every preset, as Open", got)
	}
	if err := explainFlags(&o).Parse([]string{"-preset", "none"}); err != nil {
		t.Fatal(err)
	}
	if got := o.scannedPresets(); len(got) != 0 {
		t.Errorf("-preset none scans %v", got)
	}

	dir := docxSkills(t)
	ex := runExplain(t, "-home", t.TempDir(), "-cwd", t.TempDir(), "-skills", dir)
	if !strings.Contains(ex.Catalog, longDescription) || hasReason(ex, "docx", reasonShortened) {
		t.Errorf("by default the 787-character description is cut: %+v\n%s", ex.Skills, ex.Catalog)
	}
	ex = runExplain(t, "-home", t.TempDir(), "-cwd", t.TempDir(), "-skills", dir, "-description-max-length", "500")
	if !hasReason(ex, "docx", reasonShortened) {
		t.Errorf("with -description-max-length 500 the description is not reported cut: %+v", ex.Skills)
	}
}

func hasReason(ex explanation, name, kind string) bool {
	for _, s := range ex.Skills {
		if s.Name == name && slices.ContainsFunc(s.Reasons, func(r explainReason) bool { return r.Kind == kind }) {
			return true
		}
	}
	return false
}

// TestExplainAbsentIsNotScanned: a skill directory that does not exist is
// reported absent, not counted among those scanned.
func TestExplainAbsentIsNotScanned(t *testing.T) {
	dir, home := docxSkills(t), t.TempDir()
	code, out, stderr := runCLI(t, "explain", "-home", home, "-cwd", t.TempDir(), "-skills", dir, "-preset", "none")
	want := "scanned 1 directory (" + dir + "), 1 absent (" + filepath.Join(home, ".agents", "skills") + "): 1 skill loaded, none skipped"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, output lacks %q:\n%s%s", code, want, out, stderr)
	}
}
