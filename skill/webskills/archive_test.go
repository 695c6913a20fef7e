package webskills

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
)

// tarEntry is one entry of a test archive.
type testEntry struct {
	name string
	typ  byte // a tar type; for zip, tar.TypeSymlink and tar.TypeChar set the mode
	body string
	link string
}

func file(name, body string) testEntry { return testEntry{name: name, typ: tar.TypeReg, body: body} }

const skillMD = "---\nname: packed\ndescription: A packed skill.\n---\nRead notes.md.\n"

// makeTarGz packs entries as a tar.gz, as a hostile site could.
func makeTarGz(t testing.TB, entries ...testEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: 0o644, Linkname: e.link, Format: tar.FormatPAX}
		if e.typ == tar.TypeReg {
			h.Size = int64(len(e.body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// makeZip packs entries as a zip.
func makeZip(t testing.TB, entries ...testEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		switch e.typ {
		case tar.TypeSymlink:
			h.SetMode(fs.ModeSymlink | 0o777)
		case tar.TypeChar:
			h.SetMode(fs.ModeDevice | fs.ModeCharDevice | 0o644)
		case tar.TypeDir:
			h.SetMode(fs.ModeDir | 0o755)
		default:
			h.SetMode(0o644)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.body + e.link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestUnpackAccepts(t *testing.T) {
	entries := []testEntry{{name: "./", typ: tar.TypeDir}, file("./SKILL.md", skillMD), {name: "docs/", typ: tar.TypeDir}, file("docs/notes.md", "Notes.")}
	for _, tc := range []struct {
		name   string
		data   []byte
		format archiveFormat
	}{
		{"tar.gz", makeTarGz(t, entries...), formatTarGz},
		{"zip", makeZip(t, entries...), formatZip},
	} {
		u, err := unpack(tc.data, tc.format, defaultUnpackLimits())
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if string(u.files["SKILL.md"]) != skillMD || string(u.files["docs/notes.md"]) != "Notes." || len(u.files) != 2 {
			t.Errorf("%s: files %q", tc.name, u.files)
		}
	}
}

// Every refusal has its exact text and kind, for both formats where the
// format can say it.
func TestUnpackRefuses(t *testing.T) {
	big := string(noise(17 << 20)) // incompressible: the byte bound, not the ratio
	many := []testEntry{file("SKILL.md", skillMD)}
	for i := 0; i < MaxArchiveFiles; i++ {
		many = append(many, file("f/"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+"-"+itoa(i), ""))
	}
	for _, tc := range []struct {
		name    string
		entries []testEntry
		zipToo  bool
		kind    error
		want    string
	}{
		{"traversal", []testEntry{file("SKILL.md", skillMD), file("../evil.sh", "x")}, true, ErrArchiveUnsafePath, `the archive holds "../evil.sh", a path that leaves the skill's directory`},
		{"inner traversal", []testEntry{file("SKILL.md", skillMD), file("a/../../evil", "x")}, true, ErrArchiveUnsafePath, `the archive holds "a/../../evil", a path that leaves the skill's directory`},
		{"absolute", []testEntry{file("/etc/passwd", "x"), file("SKILL.md", skillMD)}, true, ErrArchiveUnsafePath, `the archive holds "/etc/passwd", an absolute path`},
		{"drive letter", []testEntry{file("C:/x", "x")}, true, ErrArchiveUnsafePath, `the archive holds "C:/x", an absolute path`},
		{"backslash", []testEntry{file(`a\..\..\x`, "x")}, true, ErrArchiveUnsafePath, `the archive holds "a\\..\\..\\x", a path with a backslash or a NUL`},
		{"symbolic link", []testEntry{file("SKILL.md", skillMD), {name: "notes.md", typ: tar.TypeSymlink, link: "/etc/passwd"}}, true, ErrArchiveLink, `the archive holds a symbolic link, "notes.md"`},
		{"hard link", []testEntry{file("SKILL.md", skillMD), {name: "notes.md", typ: tar.TypeLink, link: "SKILL.md"}}, false, ErrArchiveLink, `the archive holds a hard link, "notes.md"`},
		{"device", []testEntry{file("SKILL.md", skillMD), {name: "dev/tty", typ: tar.TypeChar}}, false, ErrArchiveSpecialFile, `the archive holds a special file, "dev/tty" (character device)`},
		{"fifo", []testEntry{file("SKILL.md", skillMD), {name: "pipe", typ: tar.TypeFifo}}, false, ErrArchiveSpecialFile, `the archive holds a special file, "pipe" (FIFO)`},
		{"twice", []testEntry{file("SKILL.md", skillMD), file("./SKILL.md", skillMD)}, true, ErrArchiveMalformed, `the archive holds "SKILL.md" twice`},
		{"no SKILL.md", []testEntry{file("packed/SKILL.md", skillMD)}, true, ErrArchiveNoSkillFile, `the archive has no SKILL.md at its root`},
		{"too many entries", many, true, ErrArchiveTooManyFiles, `the archive holds more than 512 entries`},
		{"too many bytes", []testEntry{file("SKILL.md", skillMD), file("a", big[:9<<20]), file("b", big[9<<20:])}, false, ErrArchiveTooLarge, `the archive unpacks to more than 16777216 bytes (16 MiB)`},
	} {
		check := func(format string, data []byte, f archiveFormat) {
			_, err := unpack(data, f, defaultUnpackLimits())
			switch {
			case err == nil:
				t.Errorf("%s (%s): unpacked", tc.name, format)
			case err.Error() != tc.want || !errors.Is(err, tc.kind) || !errors.Is(err, ErrArchive):
				t.Errorf("%s (%s): %v\nwant %q matching %v", tc.name, format, err, tc.want, tc.kind)
			}
		}
		check("tar.gz", makeTarGz(t, tc.entries...), formatTarGz)
		if tc.zipToo {
			check("zip", makeZip(t, tc.entries...), formatZip)
		}
	}
}

// A few kilobytes that unpack to megabytes are refused by ratio, long
// before the byte bound.
func TestUnpackRatio(t *testing.T) {
	zeros := strings.Repeat("\x00", 4<<20)
	for _, tc := range []struct {
		name string
		data []byte
		f    archiveFormat
	}{
		{"tar.gz", makeTarGz(t, file("SKILL.md", skillMD), file("zeros", zeros)), formatTarGz},
		{"zip", makeZip(t, file("SKILL.md", skillMD), file("zeros", zeros)), formatZip},
	} {
		_, err := unpack(tc.data, tc.f, defaultUnpackLimits())
		want := "the archive unpacks to more than 100 times its " + itoa(len(tc.data)) + " bytes"
		if err == nil || err.Error() != want || !errors.Is(err, ErrArchiveRatio) {
			t.Errorf("%s (%d bytes): %v, want %q", tc.name, len(tc.data), err, want)
		}
	}
	// Below RatioFloorBytes any ratio is fine: a small skill of repetitive
	// text compresses well.
	if _, err := unpack(makeTarGz(t, file("SKILL.md", skillMD), file("zeros", zeros[:RatioFloorBytes/2])), formatTarGz, defaultUnpackLimits()); err != nil {
		t.Errorf("half a MiB of zeros: %v", err)
	}
}

func TestUnpackMalformed(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		f    archiveFormat
		want string
	}{
		{[]byte("not gzip"), formatTarGz, "the archive is not gzip-compressed"},
		{[]byte("PK\x03\x04 not a zip"), formatZip, "the archive is not a valid zip"},
	} {
		_, err := unpack(tc.data, tc.f, defaultUnpackLimits())
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, ErrArchiveMalformed) {
			t.Errorf("%q: %v, want %q", tc.data, err, tc.want)
		}
	}
}

// The format is the Content-Type's when it names one, else the URL's
// extension's.
func TestDetectFormat(t *testing.T) {
	for _, tc := range []struct {
		contentType, path string
		want              archiveFormat
	}{
		{"application/gzip", "/x.zip", formatTarGz},
		{"application/zip; charset=binary", "/x.tar.gz", formatZip},
		{"application/octet-stream", "/x.tar.gz", formatTarGz},
		{"", "/x.TGZ", formatTarGz},
		{"text/plain", "/x.zip", formatZip},
		{"application/octet-stream", "/x.bin", 0},
	} {
		got, err := detectFormat(tc.contentType, &url.URL{Path: tc.path})
		if got != tc.want || (tc.want == 0) != errors.Is(err, ErrArchiveFormat) {
			t.Errorf("detectFormat(%q, %q) = %v, %v; want %v", tc.contentType, tc.path, got, err, tc.want)
		}
	}
}

// noise returns n bytes that do not compress, the same each run.
func noise(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{1}).Read(b)
	return b
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}
