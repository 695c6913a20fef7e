package skilllock

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// Bounds on the directories TreeDigest reads.
const (
	MaxTreeFiles = 10_000
	MaxTreeBytes = 256 << 20
)

// skippedDir reports whether TreeDigest leaves out a directory of this
// name, as the skills CLI does.
func skippedDir(name string) bool { return name == ".git" || name == "node_modules" }

// File is one file of a skill: its path relative to the skill's
// directory, with slashes, and its bytes.
type File struct {
	Path    string
	Content []byte
}

// TreeDigest is the digest of the skill directory fsys: every regular file
// under it, in every subdirectory but those named .git or node_modules,
// symbolic links and other irregular files left out (FilesDigest of
// them). It fails when a file cannot be read, or there are more than
// MaxTreeFiles files or MaxTreeBytes bytes.
func TreeDigest(fsys fs.FS) (string, error) {
	files, err := treeFiles(fsys)
	if err != nil {
		return "", err
	}
	return FilesDigest(files), nil
}

// SkillsCLITreeDigest is TreeDigest with the files in the skills CLI's
// order: JavaScript's localeCompare of the paths, which Node.js answers
// with the Unicode collation (upper and lower case together, so
// "references/…" and "scripts/…" before "SKILL.md"), here the root
// collation of golang.org/x/text/collate. It is what the CLI records as
// computedHash, "sha256:" before it.
func SkillsCLITreeDigest(fsys fs.FS) (string, error) {
	files, err := treeFiles(fsys)
	if err != nil {
		return "", err
	}
	c := collate.New(language.Und)
	slices.SortStableFunc(files, func(a, b File) int { return c.CompareString(a.Path, b.Path) })
	return orderedDigest(files), nil
}

// treeFiles reads the files TreeDigest covers.
func treeFiles(fsys fs.FS) ([]File, error) {
	var files []File
	total := 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && skippedDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if len(files) == MaxTreeFiles {
			return fmt.Errorf("more than %d files", MaxTreeFiles)
		}
		data, err := readFile(fsys, p, MaxTreeBytes-total)
		if err != nil {
			return err
		}
		total += len(data)
		files = append(files, File{Path: p, Content: data})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("skilllock: digest of a skill directory: %w", err)
	}
	return files, nil
}

// readFile reads the file at p, failing when it holds more than room bytes.
func readFile(fsys fs.FS, p string, room int) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(room)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > room {
		return nil, errors.New("the files hold more than " + fmt.Sprint(MaxTreeBytes) + " bytes")
	}
	return data, nil
}

// FilesDigest is "sha256:" and the hexadecimal SHA-256 of, for each file
// in the byte order of the paths, the path's bytes followed by the file's
// bytes, with nothing between them: the skills CLI's computedHash (which
// writes the hexadecimal digits alone) wherever its order agrees (see the
// package documentation). files is not modified.
func FilesDigest(files []File) string {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return orderedDigest(sorted)
}

// orderedDigest hashes files in the order given.
func orderedDigest(files []File) string {
	h := sha256.New()
	for _, f := range files {
		io.WriteString(h, f.Path)
		h.Write(f.Content)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// ManifestFile is one file of a published manifest: its path relative to
// the skill's root and the digest its source publishes for it.
type ManifestFile struct {
	Path   string
	Digest string
}

// ManifestDigest is the digest of a skill whose source publishes a
// SHA-256 for each of its files (an MCP server's Skills extension entry):
// "sha256:" and the hexadecimal SHA-256 of, for each file in the byte
// order of the paths, the path, a NUL byte, its published digest as
// written ("sha256:…") and a newline. It covers the same bytes the
// published digests do, without reading a file.
func ManifestDigest(files []ManifestFile) string {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b ManifestFile) int { return strings.Compare(a.Path, b.Path) })
	h := sha256.New()
	for _, f := range sorted {
		io.WriteString(h, f.Path)
		h.Write([]byte{0})
		io.WriteString(h, f.Digest)
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
