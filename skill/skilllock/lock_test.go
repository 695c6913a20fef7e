package skilllock

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"
)

func digestOf(c byte) string { return "sha256:" + strings.Repeat(string(c), 64) }

func TestEncodeParseRoundTrip(t *testing.T) {
	entries := []Entry{
		{Kind: KindWebsite, Origin: "docs", Name: "pdf", Digest: digestOf('c')},
		{Kind: KindLocal, Name: "zeta", Digest: digestOf('a')},
		{Kind: KindMCP, Origin: "srv", Name: "pdf", Digest: digestOf('b')},
		{Kind: KindLocal, Name: "alpha <&>", Digest: digestOf('d')},
	}
	l, err := New(entries)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "skills": [
    {
      "kind": "local",
      "name": "alpha <&>",
      "digest": "sha256:` + strings.Repeat("d", 64) + `"
    },
    {
      "kind": "local",
      "name": "zeta",
      "digest": "sha256:` + strings.Repeat("a", 64) + `"
    },
    {
      "kind": "mcp",
      "origin": "srv",
      "name": "pdf",
      "digest": "sha256:` + strings.Repeat("b", 64) + `"
    },
    {
      "kind": "website",
      "origin": "docs",
      "name": "pdf",
      "digest": "sha256:` + strings.Repeat("c", 64) + `"
    }
  ]
}
`
	if got := string(l.Encode()); got != want {
		t.Fatalf("Encode:\n%s\nwant\n%s", got, want)
	}
	back, err := Parse(l.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Encode(), l.Encode()) {
		t.Fatalf("read back differs:\n%s", back.Encode())
	}
	if e, ok := back.Lookup(Key{KindMCP, "srv", "pdf"}); !ok || e.Digest != digestOf('b') {
		t.Fatalf("Lookup(mcp srv pdf) = %+v, %v", e, ok)
	}
	if _, ok := back.Lookup(Key{KindLocal, "", "pdf"}); ok {
		t.Fatal("Lookup found a local pdf that is not locked")
	}
}

func TestParseRefuses(t *testing.T) {
	d := digestOf('a')
	for _, tc := range []struct{ name, src, want string }{
		{"not an object", `[]`, "not a JSON object"},
		{"no version", `{"skills":[]}`, "no version"},
		{"other version", `{"version":2,"skills":[]}`, "version 2"},
		{"no skills", `{"version":1}`, "no skills array"},
		{"trailing", `{"version":1,"skills":[]} {}`, "after the JSON object"},
		{"bad kind", `{"version":1,"skills":[{"kind":"git","name":"a","digest":"` + d + `"}]}`, `kind "git"`},
		{"local with origin", `{"version":1,"skills":[{"kind":"local","origin":"x","name":"a","digest":"` + d + `"}]}`, "has origin"},
		{"mcp without origin", `{"version":1,"skills":[{"kind":"mcp","name":"a","digest":"` + d + `"}]}`, "origin is empty"},
		{"no name", `{"version":1,"skills":[{"kind":"local","digest":"` + d + `"}]}`, "name is empty"},
		{"control in name", `{"version":1,"skills":[{"kind":"local","name":"a\nb","digest":"` + d + `"}]}`, "control character"},
		{"upper-case digest", `{"version":1,"skills":[{"kind":"local","name":"a","digest":"sha256:` + strings.Repeat("A", 64) + `"}]}`, "lower-case"},
		{"twice", `{"version":1,"skills":[{"kind":"local","name":"a","digest":"` + d + `"},{"kind":"local","name":"a","digest":"` + d + `"}]}`, "locked twice"},
		{"null entry", `{"version":1,"skills":[null]}`, "skills[0]: not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse(%s) = %v; want an error saying %q", tc.src, err, tc.want)
			}
		})
	}
	if _, err := Parse(make([]byte, MaxFileBytes+1)); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("Parse(oversized) = %v", err)
	}
}

func TestTreeDigest(t *testing.T) {
	fsys := fstest.MapFS{
		"SKILL.md":               {Data: []byte("---\nname: a\n---\nbody\n")},
		"scripts/run.sh":         {Data: []byte("echo hi\n")},
		".git/HEAD":              {Data: []byte("ref\n")},
		"node_modules/x/x.js":    {Data: []byte("x")},
		"deep/node_modules/y":    {Data: []byte("y")},
		"link":                   {Data: []byte("SKILL.md"), Mode: 0o777 | 1<<27}, // fs.ModeSymlink
		"references/B.md":        {Data: []byte("B")},
		"references/a.md":        {Data: []byte("a")},
		"empty-dir/.placeholder": {Data: nil},
	}
	got, err := TreeDigest(fsys)
	if err != nil {
		t.Fatal(err)
	}
	// Byte order of the paths: ".placeholder" files first, upper case
	// before lower case; symbolic links and the skipped directories out.
	want := FilesDigest([]File{
		{"SKILL.md", []byte("---\nname: a\n---\nbody\n")},
		{"empty-dir/.placeholder", nil},
		{"references/B.md", []byte("B")},
		{"references/a.md", []byte("a")},
		{"scripts/run.sh", []byte("echo hi\n")},
	})
	if got != want {
		t.Fatalf("TreeDigest = %s, want %s", got, want)
	}
	// The known value: SHA-256 of the concatenation, computed here
	// independently of FilesDigest's loop.
	if d := FilesDigest([]File{{"b", []byte("2")}, {"a", []byte("1")}}); d != "sha256:"+sha256Hex("a1b2") {
		t.Fatalf("FilesDigest = %s; want the SHA-256 of a1b2", d)
	}
	fsys["scripts/run.sh"] = &fstest.MapFile{Data: []byte("echo bye\n")}
	if changed, _ := TreeDigest(fsys); changed == got {
		t.Fatal("a changed file left the digest as it was")
	}
}

func TestManifestDigest(t *testing.T) {
	a := ManifestDigest([]ManifestFile{{"SKILL.md", digestOf('1')}, {"a.txt", digestOf('2')}})
	b := ManifestDigest([]ManifestFile{{"a.txt", digestOf('2')}, {"SKILL.md", digestOf('1')}})
	if a != b {
		t.Fatal("ManifestDigest depends on the files' order")
	}
	want := "sha256:" + sha256Hex("SKILL.md\x00"+digestOf('1')+"\na.txt\x00"+digestOf('2')+"\n")
	if a != want {
		t.Fatalf("ManifestDigest = %s, want %s", a, want)
	}
}
