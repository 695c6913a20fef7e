package agentskills

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// testdataDir holds the corpus shared with other packages' tests.
const testdataDir = "../../testdata/agentskills"

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// copyTree copies the regular files and directories below src into dst.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copying %s: %v", src, err)
	}
}

func mustNew(t testing.TB, opts Options) *Provider {
	t.Helper()
	p, err := New(&opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return p
}

func mustList(t testing.TB, p *Provider, cwd string) skills.Observation {
	t.Helper()
	obs, err := p.List(context.Background(), skills.ListRequest{SessionID: "s", Cwd: cwd})
	if err != nil {
		t.Fatalf("List(%q): %v", cwd, err)
	}
	return obs
}

func names(obs skills.Observation) []string {
	out := make([]string, len(obs.Skills))
	for i, s := range obs.Skills {
		out[i] = s.Name
	}
	return out
}

func summaryOf(t testing.TB, obs skills.Observation, name string) skill.Summary {
	t.Helper()
	i := slices.IndexFunc(obs.Skills, func(s skill.Summary) bool { return s.Name == name })
	if i < 0 {
		t.Fatalf("skill %q not listed; have %q", name, names(obs))
	}
	return obs.Skills[i]
}

func mustLoad(t testing.TB, p *Provider, cwd, name string) skill.Definition {
	t.Helper()
	def, found, err := p.Load(context.Background(), skills.LoadRequest{SessionID: "s", Cwd: cwd, Name: name})
	if err != nil {
		t.Fatalf("Load(%q): %v", name, err)
	}
	if !found {
		t.Fatalf("Load(%q): not found", name)
	}
	return def
}

func writeSkill(t testing.TB, dir, name, description, body string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	content := "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body + "\n"
	if err := os.WriteFile(filepath.Join(dir, skillFileName), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatalf("symlink %s -> %s: %v", link, target, err)
	}
}

func mkdirAll(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// diagsMatching returns the diagnostics whose path ends with suffix and
// whose message contains substr.
func diagsMatching(ds []Diagnostic, suffix, substr string) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds {
		if strings.HasSuffix(filepath.ToSlash(d.Path), suffix) && strings.Contains(d.Message, substr) {
			out = append(out, d)
		}
	}
	return out
}

func requireDiag(t testing.TB, ds []Diagnostic, suffix, substr string, sev Severity) {
	t.Helper()
	for _, d := range diagsMatching(ds, suffix, substr) {
		if d.Severity == sev {
			return
		}
	}
	t.Errorf("no %s diagnostic for path *%s containing %q; have:\n%s", sev, suffix, substr, diagText(ds, ""))
}

func diagText(ds []Diagnostic, base string) string {
	var b strings.Builder
	for _, d := range ds {
		path := d.Path
		if base != "" {
			if rel, err := filepath.Rel(base, path); err == nil && !strings.HasPrefix(rel, "..") {
				path = filepath.ToSlash(rel)
			}
		}
		b.WriteString(string(d.Severity) + " " + path)
		if d.Skill != "" {
			b.WriteString(" [" + d.Skill + "]")
		}
		msg := d.Message
		if base != "" {
			msg = strings.ReplaceAll(msg, base+string(filepath.Separator), "")
		}
		b.WriteString(": " + msg + "\n")
	}
	return b.String()
}
