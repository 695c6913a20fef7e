//go:build unix

package skills_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestReadResourceStaysInTheSkillDirectory calls the registry directly,
// without the plugin's path check in front: dot segments, absolute paths,
// backslashes, NUL, hidden files and links out of the skill's directory are
// refused by the registry itself, and nothing outside is read.
func TestReadResourceStaysInTheSkillDirectory(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "skills", "pdf-tools")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "scripts", "nested"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "scripts", "x.py"), []byte("print(1)\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, ".env"), []byte("TOP-SECRET"), 0o644))
	must(os.WriteFile(filepath.Join(base, "secret.txt"), []byte("TOP-SECRET"), 0o644))
	must(os.Symlink(filepath.Join(base, "secret.txt"), filepath.Join(dir, "out.txt")))
	must(os.Symlink(base, filepath.Join(dir, "up")))
	must(os.Symlink("../x.py", filepath.Join(dir, "scripts", "nested", "in.py"))) // stays inside
	must(os.Symlink("loop", filepath.Join(dir, "loop")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "big.txt"), make([]byte, skill.MaxResourceBytes+1), 0o644))

	reg := skilltest.NewRegistry(t)
	must(reg.Register("global", skills.RuntimeSkill{Name: "pdf-tools", Description: "PDF.", Content: "Body.", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: dir}}))
	must(reg.Register("global", skills.RuntimeSkill{Name: "opaque", Description: "O.", Content: "Body.", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceOpaque, Description: "Ask."}}))
	must(reg.Register("global", skills.RuntimeSkill{Name: "managed", Description: "M.", Content: "Body."}))
	must(reg.Register("global", skills.RuntimeSkill{Name: "user-only", Description: "U.", Content: "Body.", Invocation: &skill.InvocationPolicy{UserInvocable: true}, ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: dir}}))
	q := skills.Query{SessionID: "s1", Chain: []string{"global"}}
	ctx := context.Background()

	for path, want := range map[string]string{"scripts/x.py": "print(1)\n", "scripts/nested/in.py": "print(1)\n"} {
		data, err := reg.ReadResource(ctx, q, "pdf-tools", path)
		if err != nil || string(data) != want {
			t.Errorf("%s = %q, %v", path, data, err)
		}
	}
	tests := []struct {
		name, path string
		want       error
	}{
		{"pdf-tools", "..", skills.ErrInvalidResourcePath},
		{"pdf-tools", "../secret.txt", skills.ErrInvalidResourcePath},
		{"pdf-tools", "scripts/../../secret.txt", skills.ErrInvalidResourcePath},
		{"pdf-tools", "/etc/passwd", skills.ErrInvalidResourcePath},
		{"pdf-tools", `..\secret.txt`, skills.ErrInvalidResourcePath},
		{"pdf-tools", "scripts/x.py\x00", skills.ErrInvalidResourcePath},
		{"pdf-tools", ".env", skills.ErrInvalidResourcePath},
		{"pdf-tools", "", skills.ErrInvalidResourcePath},
		{"pdf-tools", ".", skills.ErrInvalidResourcePath},
		{"pdf-tools", "out.txt", skills.ErrInvalidResourcePath},
		{"pdf-tools", "up/secret.txt", skills.ErrInvalidResourcePath},
		{"pdf-tools", "loop", skills.ErrInvalidResourcePath},
		{"pdf-tools", "fifo", skills.ErrResourceNotFound},
		{"pdf-tools", "scripts", skills.ErrResourceNotFound},
		{"pdf-tools", "missing.txt", skills.ErrResourceNotFound},
		{"pdf-tools", "big.txt", skills.ErrResourceTooLarge},
		{"opaque", "a.md", skills.ErrResourceNotReadable},
		{"managed", "a.md", skills.ErrResourceNotReadable},
		{"user-only", "scripts/x.py", skills.ErrNotModelInvocable},
		{"nope", "a.md", skills.ErrSkillNotFound},
	}
	for _, tc := range tests {
		data, err := reg.ReadResource(ctx, q, tc.name, tc.path)
		if !errors.Is(err, tc.want) || data != nil {
			t.Errorf("%s %q = %q, %v; want %v", tc.name, tc.path, data, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "TOP-SECRET") {
			t.Errorf("%s %q: error shows a secret: %v", tc.name, tc.path, err)
		}
		// A window is refused alike, whether or not a verdict is known.
		for range 2 {
			w, err := reg.ReadResourceWindow(ctx, q, tc.name, tc.path, 0, -1)
			if !errors.Is(err, tc.want) || w.Data != nil || w.Total != 0 {
				t.Errorf("window of %s %q = %+v, %v; want %v", tc.name, tc.path, w, err, tc.want)
			}
		}
	}
}

// TestReadResourceWindow: a window of a directory skill's file is cut as
// asked, the file's size comes with it, and text or binary is judged over
// the whole file and judged again when the file changes; later windows of
// one version of the file are read from the remembered verdict.
func TestReadResourceWindow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.md")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("hello, world")
	reg := skilltest.NewRegistry(t)
	if err := reg.Register("global", skills.RuntimeSkill{Name: "notes", Description: "N.", Content: "Body.", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: dir}}); err != nil {
		t.Fatal(err)
	}
	q := skills.Query{SessionID: "s1", Chain: []string{"global"}}
	ctx := context.Background()
	window := func(offset int64, max int) skills.ResourceWindow {
		t.Helper()
		w, err := reg.ReadResourceWindow(ctx, q, "notes", "notes.md", offset, max)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	for _, tc := range []struct {
		offset int64
		max    int
		want   string
	}{
		{0, -1, "hello, world"},
		{0, 5, "hello"},
		{7, 100, "world"},
		{7, 0, ""},
		{11, 1, "d"},
		{12, 5, ""},
		{-1, 5, ""},
		{1 << 40, 5, ""},
	} {
		if w := window(tc.offset, tc.max); string(w.Data) != tc.want || w.Total != 12 || w.Binary {
			t.Errorf("window (%d, %d) = %+v, want %q of 12 bytes of text", tc.offset, tc.max, w, tc.want)
		}
	}
	if n := skills.TextVerdicts(reg); n != 1 {
		t.Errorf("%d text verdicts remembered, want the one version read", n)
	}

	// A NUL past the window makes the whole file binary.
	write("hello, world\x00")
	if w := window(0, 5); !w.Binary || w.Data != nil || w.Total != 13 {
		t.Errorf("window of a binary file = %+v, want binary, no data, 13 bytes", w)
	}
	// The same size again, now text: another version, judged again.
	write("hello, there!")
	if w := window(7, -1); w.Binary || string(w.Data) != "there!" || w.Total != 13 {
		t.Errorf("window of the rewritten file = %+v", w)
	}
	if n := skills.TextVerdicts(reg); n != 3 {
		t.Errorf("%d text verdicts remembered, want one per version", n)
	}
}

// readerProvider is a provider that reads its skills' resources itself.
type readerProvider struct{ err error }

func (readerProvider) List(context.Context, skills.ListRequest) (skills.Observation, error) {
	return skills.Observation{Skills: []skill.Summary{{Name: "runtime-one", Description: "R.", Invocation: skill.DefaultPolicy()}}, Complete: true}, nil
}

func (readerProvider) Load(_ context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	return skill.Definition{Summary: skill.Summary{Name: req.Name}, Content: "Body."}, true, nil
}

func (p readerProvider) ReadSkillResource(_ context.Context, req skills.ResourceRequest) ([]byte, error) {
	if p.err != nil {
		return nil, p.err
	}
	return []byte(req.Name + ":" + req.Path), nil
}

// TestReadResourceThroughAProvider: a skill whose provider manages its
// resources is read through the provider's ResourceReader; its failures
// are provider errors, its refusals keep their meaning.
func TestReadResourceThroughAProvider(t *testing.T) {
	t.Parallel()
	q := skills.Query{SessionID: "s1", Chain: []string{"global"}}
	reg := skilltest.NewRegistry(t)
	reg.AddProvider("global", readerProvider{}, nil)
	data, err := reg.ReadResource(context.Background(), q, "runtime-one", "refs/a.md")
	if err != nil || string(data) != "runtime-one:refs/a.md" {
		t.Fatalf("read = %q, %v", data, err)
	}
	w, err := reg.ReadResourceWindow(context.Background(), q, "runtime-one", "refs/a.md", 12, 4)
	if err != nil || string(w.Data) != "refs" || w.Total != 21 || w.Binary {
		t.Errorf("window = %+v, %v; want \"refs\" of 21 bytes of text", w, err)
	}
	failing := skilltest.NewRegistry(t)
	failing.AddProvider("global", readerProvider{err: errors.New("backend down")}, nil)
	var le *skills.LoadError
	if _, err := failing.ReadResource(context.Background(), q, "runtime-one", "refs/a.md"); !errors.As(err, &le) || le.Err.Error() != "backend down" {
		t.Errorf("failing provider = %v, want a *LoadError", err)
	}
	refusing := skilltest.NewRegistry(t)
	refusing.AddProvider("global", readerProvider{err: skills.ErrResourceNotFound}, nil)
	if _, err := refusing.ReadResource(context.Background(), q, "runtime-one", "refs/a.md"); !errors.Is(err, skills.ErrResourceNotFound) {
		t.Errorf("refusing provider = %v", err)
	}
}
