package webskills

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// PublishSkill is one skill to publish: its name and the directory that
// holds its SKILL.md (which the caller has validated).
type PublishSkill struct {
	Name string
	Dir  string
}

// Published is what Publish wrote for one skill.
type Published struct {
	Name string `json:"name"`
	// Type is "skill-md" or "archive".
	Type string `json:"type"`
	// URL is the artifact's URL relative to the index.
	URL    string `json:"url"`
	Digest string `json:"digest"`
	// Files and Bytes count the skill's files and their bytes.
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
}

// Publish writes a static tree under out that any web server can serve:
// .well-known/agent-skills/index.json (v0.2.0) with, for each skill, its
// SKILL.md (a skill of that file alone, "skill-md") or a .tar.gz of its
// directory (a skill with supporting files, "archive"), each entry's
// digest the SHA-256 of the exact bytes written; and the v0.1.0 layout at
// .well-known/skills/ (index.json with each skill's files, and the files)
// for older clients. Both directories are replaced whole; nothing else
// under out is touched.
//
// The output is reproducible: the same skills give the same bytes (skills
// and files in name order, archives in the ustar format with fixed times,
// owners and modes 0644 or 0755, gzip without a name or time). A skill's
// regular files are published, hidden ones (a name starting with ".")
// left out; a link or any other kind of file is refused, as is a skill
// the web provider would refuse to unpack (over MaxArchiveFiles entries,
// MaxUnpackedBytes bytes, MaxCompressionRatio, a SKILL.md over
// skill.MaxSkillFileBytes) or a path a ustar header cannot hold.
func Publish(out string, list []PublishSkill) ([]Published, error) {
	list = slices.Clone(list)
	slices.SortFunc(list, func(a, b PublishSkill) int { return strings.Compare(a.Name, b.Name) })
	built := make([]builtSkill, 0, len(list))
	for i, s := range list {
		if i > 0 && list[i-1].Name == s.Name {
			return nil, fmt.Errorf("publish: two skills are named %q", s.Name)
		}
		b, err := buildSkill(s)
		if err != nil {
			return nil, fmt.Errorf("publish: skill %q: %w", s.Name, err)
		}
		built = append(built, b)
	}
	if err := writeTree(out, built); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	res := make([]Published, len(built))
	for i, b := range built {
		res[i] = b.published
	}
	return res, nil
}

// builtSkill is a skill read and packed, ready to write.
type builtSkill struct {
	published   Published
	description string
	files       []skillFile // in path order, SKILL.md among them
	artifact    []byte
}

type skillFile struct {
	path string // slash-separated, relative to the skill's directory
	data []byte
	exec bool
}

// buildSkill reads a skill's files and packs its artifact.
func buildSkill(s PublishSkill) (builtSkill, error) {
	if !skill.ValidBoundedName(s.Name) {
		return builtSkill{}, fmt.Errorf("%q is not a skill name", s.Name)
	}
	files, total, err := readSkillFiles(s.Dir)
	if err != nil {
		return builtSkill{}, err
	}
	i := slices.IndexFunc(files, func(f skillFile) bool { return f.path == skillsext.SkillFileName })
	if i < 0 {
		return builtSkill{}, fmt.Errorf("no %s in %s", skillsext.SkillFileName, s.Dir)
	}
	desc, err := publishedDescription(s.Name, files[i].data)
	if err != nil {
		return builtSkill{}, err
	}
	b := builtSkill{description: desc, files: files}
	b.published = Published{Name: s.Name, Files: len(files), Bytes: total}
	if len(files) == 1 {
		b.artifact = files[0].data
		b.published.Type, b.published.URL = skillsext.TypeSkillMD, s.Name+"/"+skillsext.SkillFileName
	} else {
		if b.artifact, err = tarGz(files); err != nil {
			return builtSkill{}, err
		}
		// Publish nothing the provider would refuse to unpack.
		if _, err := unpack(b.artifact, formatTarGz, defaultUnpackLimits()); err != nil {
			return builtSkill{}, err
		}
		b.published.Type, b.published.URL = skillsext.TypeArchive, s.Name+".tar.gz"
	}
	b.published.Digest = skillsext.FormatDigest(sha256.Sum256(b.artifact))
	return b, nil
}

// publishedDescription reads the description an index entry carries from
// the SKILL.md's frontmatter, as serve-mcp reads it, and checks its name.
func publishedDescription(name string, md []byte) (string, error) {
	obj, _, err := skillsext.FrontmatterJSON(md)
	if err != nil {
		return "", fmt.Errorf("SKILL.md: %w", err)
	}
	var fm struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if err := json.Unmarshal(obj, &fm); err != nil {
		return "", fmt.Errorf("SKILL.md: name and description must be strings: %w", err)
	}
	if fm.Name != name {
		return "", fmt.Errorf("SKILL.md names the skill %q, not %q", fm.Name, name)
	}
	desc := skillsext.NormalizeDescription(fm.Description)
	if desc == "" {
		return "", fmt.Errorf("SKILL.md has no description")
	}
	return desc, nil
}

// readSkillFiles reads the regular files below dir, hidden ones left out,
// within the limits an archive is unpacked with.
func readSkillFiles(dir string) ([]skillFile, int64, error) {
	var files []skillFile
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case strings.HasPrefix(d.Name(), "."):
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is a %s, not a regular file; publish copies regular files only", rel, fileKind(d.Type()))
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += int64(len(data))
		files = append(files, skillFile{path: rel, data: data, exec: info.Mode()&0o111 != 0})
		switch {
		case len(files) > MaxArchiveFiles:
			return fmt.Errorf("more than %d files: the web provider would refuse its archive", MaxArchiveFiles)
		case total > MaxUnpackedBytes:
			return fmt.Errorf("its files hold more than %d bytes (%d MiB): the web provider would refuse its archive", MaxUnpackedBytes, MaxUnpackedBytes>>20)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	slices.SortFunc(files, func(a, b skillFile) int { return strings.Compare(a.path, b.path) })
	return files, total, nil
}

func fileKind(m fs.FileMode) string {
	if m&fs.ModeSymlink != 0 {
		return "symbolic link"
	}
	return "special file (" + m.Type().String() + ")"
}

// tarGz packs files as a reproducible ustar archive, gzip-compressed.
func tarGz(files []skillFile) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	for _, f := range files {
		mode := int64(0o644)
		if f.exec {
			mode = 0o755
		}
		// Fixed time, no owner: the same input gives the same bytes.
		h := &tar.Header{Typeflag: tar.TypeReg, Name: f.path, Size: int64(len(f.data)), Mode: mode, ModTime: time.Unix(0, 0), Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			return nil, fmt.Errorf("%s: a ustar header cannot hold it (a path of at most 100 bytes, or 255 split at a slash): %w", f.path, err)
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeTree replaces out/.well-known/agent-skills and out/.well-known/skills
// with the built skills.
func writeTree(out string, built []builtSkill) error {
	v2 := filepath.Join(out, filepath.FromSlash(skillsext.WellKnownDir))
	v1 := filepath.Join(out, filepath.FromSlash(skillsext.LegacyWellKnownDir))
	for _, d := range []string{v2, v1} {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
	}
	ix := skillsext.Index{Schema: skillsext.SchemaV2, Skills: []skillsext.IndexEntry{}}
	legacy := skillsext.LegacyIndex{Skills: []skillsext.LegacyIndexEntry{}}
	for _, b := range built {
		p := b.published
		if err := writeFile(filepath.Join(v2, filepath.FromSlash(p.URL)), b.artifact, false); err != nil {
			return err
		}
		ix.Skills = append(ix.Skills, skillsext.IndexEntry{Name: p.Name, Type: p.Type, Description: b.description, URL: p.URL, Digest: p.Digest})
		names := []string{skillsext.SkillFileName}
		for _, f := range b.files {
			if err := writeFile(filepath.Join(v1, p.Name, filepath.FromSlash(f.path)), f.data, f.exec); err != nil {
				return err
			}
			if f.path != skillsext.SkillFileName {
				names = append(names, f.path)
			}
		}
		legacy.Skills = append(legacy.Skills, skillsext.LegacyIndexEntry{Name: p.Name, Description: b.description, Files: names})
	}
	if err := writeJSON(filepath.Join(v2, skillsext.IndexFileName), ix); err != nil {
		return err
	}
	return writeJSON(filepath.Join(v1, skillsext.IndexFileName), legacy)
}

func writeFile(name string, data []byte, exec bool) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if exec {
		mode = 0o755
	}
	if err := os.WriteFile(name, data, mode); err != nil {
		return err
	}
	return os.Chmod(name, mode) // whatever the umask
}

// writeJSON writes v as indented JSON, with <, > and & as themselves.
func writeJSON(name string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return writeFile(name, buf.Bytes(), false)
}

// IndexPath is the path of the v0.2.0 index below a published tree.
func IndexPath(out string) string {
	return filepath.Join(out, filepath.FromSlash(path.Join(skillsext.WellKnownDir, skillsext.IndexFileName)))
}
