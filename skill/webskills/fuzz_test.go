package webskills

import (
	"archive/tar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// FuzzParseIndex reads arbitrary index documents: it never panics, and
// what it accepts keeps every rule (valid names once each, http or https
// artifact URLs, digests on v0.2.0 entries, safe v0.1.0 paths, bounded
// one-line descriptions and diagnostics).
func FuzzParseIndex(f *testing.F) {
	for _, seed := range []string{
		`{"$schema":"` + skillsext.SchemaV2 + `","skills":[{"name":"a","type":"skill-md","description":"A.","url":"a/SKILL.md","digest":"sha256:` + strings.Repeat("0", 64) + `"}]}`,
		`{"skills":[{"name":"a","description":"A.","files":["SKILL.md","x/y.md"]}]}`,
		`{"skills":[{"name":"a","description":"A.","files":["../x"]}]}`,
		`{"$schema":"` + skillsext.SchemaV2 + `","skills":[{"name":"a","type":"archive","description":" ","url":"javascript:x","digest":"sha256:AB"},{"name":"a"}]}`,
		`{"$schema":1,"skills":[]}`, `[]`, ``, "\uFEFF{\"skills\":null}",
	} {
		f.Add([]byte(seed))
	}
	if data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "webskills", "rfc", "agent-skills-cgi", ".well-known", "agent-skills", "index.json")); err == nil {
		f.Add(data)
	}
	base, _ := url.Parse("https://example.com/.well-known/agent-skills/index.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := parseIndex(data, base, indexLimits{MaxEntries: 50, MaxDescriptionBytes: 64})
		if err != nil {
			return
		}
		if len(ix.Entries) > 50 || len(ix.Diagnostics) > skillsext.MaxDiagnostics+1 {
			t.Fatalf("%d entries, %d diagnostics", len(ix.Entries), len(ix.Diagnostics))
		}
		for _, d := range ix.Diagnostics {
			if len(d) > MaxErrorBytes || strings.ContainsAny(d, "\n\r") || !utf8.ValidString(d) {
				t.Fatalf("diagnostic %q", d)
			}
		}
		seen := map[string]bool{}
		for _, e := range ix.Entries {
			checkEntry(t, ix, e)
			if seen[e.Name] {
				t.Fatalf("%q listed twice", e.Name)
			}
			seen[e.Name] = true
		}
	})
}

func checkEntry(t *testing.T, ix *index, e *entry) {
	switch {
	case !skill.ValidBoundedName(e.Name), ix.lookup(e.Name) != e:
		t.Fatalf("entry %q", e.Name)
	case e.Description == "" || len(e.Description) > 64 || skillsext.NormalizeDescription(e.Description) != e.Description:
		t.Fatalf("description %q", e.Description)
	case e.URL == nil || (e.URL.Scheme != "https" && e.URL.Scheme != "http") || e.URL.Host == "" || e.URL.User != nil:
		t.Fatalf("url %v", e.URL)
	case ix.Version == versionV2 && (!e.HasDigest || (e.Type != skillsext.TypeSkillMD && e.Type != skillsext.TypeArchive)):
		t.Fatalf("v0.2.0 entry %+v", e)
	}
	for _, p := range e.Files {
		if legacyPathProblem(p) != "" {
			t.Fatalf("file %q", p)
		}
	}
}

// FuzzUnpack unpacks arbitrary bytes as either format: it never panics,
// and what it accepts stays within every bound, with safe paths and a
// SKILL.md at its root.
func FuzzUnpack(f *testing.F) {
	f.Add(makeTarGz(f, file("SKILL.md", skillMD), file("a/b.md", "b")), false)
	f.Add(makeTarGz(f, file("SKILL.md", skillMD), file("../x", "x")), false)
	f.Add(makeTarGz(f, file("SKILL.md", skillMD), testEntry{name: "l", typ: tar.TypeSymlink, link: "/"}), false)
	f.Add(makeZip(f, file("SKILL.md", skillMD), file("a/b.md", "b")), true)
	f.Add(makeZip(f, file("SKILL.md", skillMD), testEntry{name: "l", typ: tar.TypeSymlink, link: "/"}), true)
	f.Add([]byte{0x1f, 0x8b}, false)
	lim := unpackLimits{maxEntries: 16, maxBytes: 64 << 10, ratio: 10, ratioFloor: 1 << 10}
	f.Fuzz(func(t *testing.T, data []byte, isZip bool) {
		format := formatTarGz
		if isZip {
			format = formatZip
		}
		u, err := unpack(data, format, lim)
		if err != nil {
			return
		}
		var total int64
		for p, b := range u.files {
			if q, err := entryPath(p); err != nil || q != p || p == "" {
				t.Fatalf("path %q accepted", p)
			}
			total += int64(len(b))
		}
		switch {
		case len(u.files) > lim.maxEntries, total > lim.maxBytes, total != u.size:
			t.Fatalf("%d files, %d bytes (size %d)", len(u.files), total, u.size)
		case total > max(lim.ratio*int64(len(data)), lim.ratioFloor):
			t.Fatalf("%d bytes from %d", total, len(data))
		case u.files[skillsext.SkillFileName] == nil:
			t.Fatal("no SKILL.md")
		}
	})
}
