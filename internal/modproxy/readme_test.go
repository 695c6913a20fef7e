package modproxy_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/skillcatalog/skillcatalog/internal/modproxy"
)

const corePath = "github.com/skillcatalog/skillcatalog"

// adapter is a module of this repository that a user depends on from a
// module of their own, with the code its README gives them.
type adapter struct {
	dir    string // relative to the repository root
	source func(t *testing.T, root string) string
}

// TestREADMEDependency depends on each adapter from a module outside this
// repository exactly as its README says: a new module holding the README's
// code, the README's `go get` and `go mod tidy`, then go build,
// with the modules served at the README's version from a proxy on disk
// built from this working tree. The go.mod that results must require the
// lines the README shows, and need no replace directive.
func TestREADMEDependency(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	adapters := []adapter{
		{dir: "hostsdk/eino", source: einoSource},
		{dir: "hostsdk/genkit", source: genkitSource},
		{dir: "hostsdk/modelapi", source: modelapiSource},
	}
	rootVersion := rootREADMEVersion(t, root)
	for _, a := range adapters {
		t.Run(filepath.Base(a.dir), func(t *testing.T) {
			readme := readFile(t, filepath.Join(root, a.dir, "README.md"))
			section := markdownSection(t, readme, "## Depending on it")
			commands := codeBlock(t, section, "sh")
			want := readmeRequires(t, codeBlock(t, section, "go.mod"))
			version := versionOf(t, want, corePath)
			adapterPath := corePath + "/" + a.dir
			if v := versionOf(t, want, adapterPath); v != version {
				t.Fatalf("README requires %s %s and the core %s: the modules are tagged together", adapterPath, v, version)
			}
			if version != rootVersion {
				t.Fatalf("README requires the core %s; the repository's README says %s", version, rootVersion)
			}
			checkNestedRequire(t, filepath.Join(root, a.dir, "go.mod"), version)

			proxy := t.TempDir()
			mods := []modproxy.Module{{Path: corePath}, {Path: adapterPath, Dir: a.dir}}
			if err := modproxy.Write(context.Background(), proxy, root, version, mods); err != nil {
				t.Fatal(err)
			}
			user := t.TempDir()
			writeFile(t, filepath.Join(user, "go.mod"), "module example.com/user\n\ngo 1.26.0\n")
			writeFile(t, filepath.Join(user, "go.sum"), readFile(t, filepath.Join(root, "go.sum"))+readFile(t, filepath.Join(root, a.dir, "go.sum")))
			writeFile(t, filepath.Join(user, "user.go"), a.source(t, root))
			env := userEnv(t, proxy)
			for _, line := range strings.Split(strings.TrimSpace(commands), "\n") {
				runGo(t, user, env, strings.Fields(line))
			}
			gotMod := readFile(t, filepath.Join(user, "go.mod"))
			checkRequires(t, gotMod, want)
			runGo(t, user, env, []string{"go", "build", "./..."})
		})
	}
}

// rootREADMEVersion is the version of the repository README's `go get`.
func rootREADMEVersion(t *testing.T, root string) string {
	section := markdownSection(t, readFile(t, filepath.Join(root, "README.md")), "### Depending on it")
	line := strings.TrimSpace(codeBlock(t, section, "sh"))
	_, version, ok := strings.Cut(line, "go get "+corePath+"@")
	if !ok || strings.ContainsAny(version, " \n") {
		t.Fatalf("the README's \"Depending on it\" is not one go get of the core: %q", line)
	}
	return version
}

// userEnv is the environment of a user's go command: the proxy on disk
// first, then this machine's module cache (whose download directory is a
// proxy too), then the usual proxy; a module cache of its own, so that no
// unpublished version enters the shared one; no checksum database lookup
// for this repository's modules, which it cannot know before they are
// published.
func userEnv(t *testing.T, proxy string) []string {
	goproxy := "file://" + filepath.ToSlash(proxy)
	if cache := goEnv(t, "GOMODCACHE"); cache != "" {
		goproxy += ",file://" + filepath.ToSlash(filepath.Join(cache, "cache", "download"))
	}
	if p := goEnv(t, "GOPROXY"); p != "" && p != "off" {
		goproxy += "," + p
	}
	return append(os.Environ(),
		"GOPROXY="+goproxy,
		"GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"),
		// -trimpath keeps the module cache's place out of what is compiled,
		// so a later run reuses the build cache although its module cache
		// is new.
		"GOFLAGS=-modcacherw -buildvcs=false -trimpath",
		"GONOSUMDB="+corePath,
		"GOWORK=off",
		"GOTOOLCHAIN=local",
	)
}

func goEnv(t *testing.T, name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

func runGo(t *testing.T, dir string, env, args []string) {
	t.Helper()
	if len(args) == 0 || args[0] != "go" {
		t.Fatalf("README command %q is not a go command", strings.Join(args, " "))
	}
	// A cold build cache compiles the frameworks from scratch: stop short of
	// the test binary's deadline with the command named, not a panic.
	ctx := t.Context()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-30*time.Second))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, "go", args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	t.Logf("%s: %.1f s", strings.Join(args, " "), time.Since(start).Seconds())
}

// readmeRequires reads a README's go.mod block: require lines, nothing
// else (a replace is what the README promises a user does not need).
func readmeRequires(t *testing.T, block string) []*modfile.Require {
	f, err := modfile.Parse("README go.mod block", []byte("module example.com/readme\n"+block), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Replace) > 0 || len(f.Exclude) > 0 || len(f.Require) == 0 {
		t.Fatalf("README go.mod block must hold require lines only:\n%s", block)
	}
	return f.Require
}

func versionOf(t *testing.T, reqs []*modfile.Require, path string) string {
	for _, r := range reqs {
		if r.Mod.Path == path {
			return r.Mod.Version
		}
	}
	t.Fatalf("README go.mod block does not require %s", path)
	return ""
}

// checkRequires says whether the user's go.mod requires every README line
// directly, at its version, with no replace directive.
func checkRequires(t *testing.T, gomod string, want []*modfile.Require) {
	t.Helper()
	f, err := modfile.Parse("go.mod", []byte(gomod), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Replace) > 0 {
		t.Errorf("the user's go.mod needed a replace directive:\n%s", gomod)
	}
	for _, w := range want {
		i := slices.IndexFunc(f.Require, func(r *modfile.Require) bool { return r.Mod.Path == w.Mod.Path })
		switch {
		case i < 0:
			t.Errorf("the user's go.mod does not require %s:\n%s", w.Mod.Path, gomod)
		case f.Require[i].Mod.Version != w.Mod.Version || f.Require[i].Indirect:
			t.Errorf("the user's go.mod requires %s %s (indirect %v); the README says %s:\n%s",
				w.Mod.Path, f.Require[i].Mod.Version, f.Require[i].Indirect, w.Mod.Version, gomod)
		}
	}
}

// checkNestedRequire says whether a nested module requires the core at the
// version it is tagged with: a user who depends on the adapter gets that
// core (the replace directive that builds it here applies only inside it).
func checkNestedRequire(t *testing.T, gomodPath, version string) {
	t.Helper()
	f, err := modfile.Parse(gomodPath, []byte(readFile(t, gomodPath)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Require {
		if r.Mod.Path == corePath && r.Mod.Version != version {
			t.Fatalf("%s requires the core at %s; it is tagged with it at %s", gomodPath, r.Mod.Version, version)
		}
	}
}

// markdownSection returns the text from a heading to the next heading of
// the same level.
func markdownSection(t *testing.T, doc, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README has no %q section", heading)
	}
	level := heading[:strings.IndexByte(heading, ' ')+1]
	if i := strings.Index(rest, "\n"+level); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// codeBlock returns the body of the first fenced block of a language.
func codeBlock(t *testing.T, doc, lang string) string {
	t.Helper()
	re := regexp.MustCompile("(?s)```" + regexp.QuoteMeta(lang) + "\n(.*?)```")
	m := re.FindStringSubmatch(doc)
	if m == nil {
		t.Fatalf("no ```%s block in:\n%s", lang, doc)
	}
	return m[1]
}

// marked returns the lines of a Go file between "// name: begin" and
// "// name: end", as the adapters' example tests mark the README's lines.
func marked(t *testing.T, path, name string) string {
	t.Helper()
	src := readFile(t, path)
	_, body, ok := strings.Cut(src, "// "+name+": begin\n")
	body, _, ok2 := strings.Cut(body, "// "+name+": end")
	if !ok || !ok2 {
		t.Fatalf("%s has no %q markers", path, name)
	}
	return body
}

// einoSource is the README's Eino lines in a user's package.
func einoSource(t *testing.T, root string) string {
	example := filepath.Join(root, "hostsdk", "eino", "example_test.go")
	return `package main

import (
	"context"
	"errors"

	"github.com/cloudwego/eino/adk"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skilleino "github.com/skillcatalog/skillcatalog/hostsdk/eino"
)

` + marked(t, example, "skills") + `
func run(ctx context.Context, runner *adk.Runner, history []adk.Message) {
` + marked(t, example, "run") + `	_ = events
}

func main() {}
`
}

// genkitSource is the README's Genkit lines in a user's package.
func genkitSource(t *testing.T, root string) string {
	example := filepath.Join(root, "hostsdk", "genkit", "example_test.go")
	return `package main

import (
	"context"
	"errors"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skillgenkit "github.com/skillcatalog/skillcatalog/hostsdk/genkit"
)

` + marked(t, example, "skills") + `
func generate(ctx context.Context, g *genkit.Genkit, skills *skillgenkit.Skills, history []*ai.Message) (*ai.ModelResponse, error) {
` + marked(t, example, "generate") + `	return resp, err
}

func main() {}
`
}

// modelapiSource is the README's example, a complete file.
func modelapiSource(t *testing.T, root string) string {
	return codeBlock(t, readFile(t, filepath.Join(root, "hostsdk", "modelapi", "README.md")), "go")
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
