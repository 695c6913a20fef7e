// Package modproxy writes a Go module proxy on disk, in the layout GOPROXY
// reads from a file:// URL, that serves modules of this repository at a
// chosen version, built from the files git tracks in the working tree. A
// test points the go command at it to depend on this repository's modules
// from an outside module exactly as a user does (go get, then go build),
// at versions that are not published yet, with no replace directive.
package modproxy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// Module is one module of the repository to serve.
type Module struct {
	// Path is the module path, as its go.mod declares it.
	Path string
	// Dir is the module's root, slash-separated and relative to the
	// repository root; "" for the repository root.
	Dir string
}

// Write writes, under proxyDir, every module of mods at version, each
// built from the files git tracks (and untracked files it does not ignore)
// below its Dir in the repository at repoRoot. The zips leave out nested
// modules, as the go command's own zips do, so each holds what a tag of
// that module would publish.
func Write(ctx context.Context, proxyDir, repoRoot, version string, mods []Module) error {
	files, err := gitFiles(ctx, repoRoot)
	if err != nil {
		return err
	}
	for _, m := range mods {
		if err := writeModule(proxyDir, repoRoot, version, m, files); err != nil {
			return fmt.Errorf("module %s@%s: %w", m.Path, version, err)
		}
	}
	return nil
}

// gitFiles lists the repository's files as a user's clone would hold them:
// tracked, plus untracked ones git does not ignore (a change not yet
// committed), never build outputs or installed packages git ignores.
func gitFiles(ctx context.Context, repoRoot string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = repoRoot
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w: %s", repoRoot, err, strings.TrimSpace(stderr.String()))
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	// A file with a merge conflict is listed once per stage.
	slices.Sort(files)
	return slices.Compact(files), nil
}

func writeModule(proxyDir, repoRoot, version string, m Module, repoFiles []string) error {
	escaped, err := module.EscapePath(m.Path)
	if err != nil {
		return err
	}
	dir := filepath.Join(proxyDir, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	prefix := ""
	if m.Dir != "" {
		prefix = path.Clean(m.Dir) + "/"
	}
	var files []modzip.File
	for _, f := range repoFiles {
		if rel, ok := strings.CutPrefix(f, prefix); ok {
			if _, err := os.Lstat(filepath.Join(repoRoot, filepath.FromSlash(f))); err != nil {
				continue // deleted in the working tree, not yet in the index
			}
			files = append(files, repoFile{rel: rel, abs: filepath.Join(repoRoot, filepath.FromSlash(f))})
		}
	}
	gomod, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(prefix), "go.mod"))
	if err != nil {
		return err
	}
	var zipBuf bytes.Buffer
	if err := modzip.Create(&zipBuf, module.Version{Path: m.Path, Version: version}, files); err != nil {
		return err
	}
	info := fmt.Sprintf(`{"Version":%q,"Time":%q}`, version, time.Unix(0, 0).UTC().Format(time.RFC3339))
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(info),
		version + ".mod":  gomod,
		version + ".zip":  zipBuf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// repoFile is one file of a module's zip, read from the working tree.
type repoFile struct{ rel, abs string }

func (f repoFile) Path() string                 { return f.rel }
func (f repoFile) Lstat() (os.FileInfo, error)  { return os.Lstat(f.abs) }
func (f repoFile) Open() (io.ReadCloser, error) { return os.Open(f.abs) }
