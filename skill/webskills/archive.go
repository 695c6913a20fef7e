package webskills

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/url"
	"strings"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Errors an archive is refused with; each *Error of a refused archive
// matches ErrArchive and one of the others.
var (
	ErrArchive             = errors.New("webskills: archive refused")
	ErrArchiveUnsafePath   = errors.New("webskills: archive path outside the skill's directory")
	ErrArchiveLink         = errors.New("webskills: archive holds a link")
	ErrArchiveSpecialFile  = errors.New("webskills: archive holds a special file")
	ErrArchiveTooManyFiles = errors.New("webskills: archive holds too many entries")
	ErrArchiveTooLarge     = errors.New("webskills: archive unpacks to too many bytes")
	ErrArchiveRatio        = errors.New("webskills: archive compression ratio too high")
	ErrArchiveNoSkillFile  = errors.New("webskills: archive has no SKILL.md at its root")
	ErrArchiveMalformed    = errors.New("webskills: archive malformed")
	ErrArchiveFormat       = errors.New("webskills: archive format unknown")
)

// archiveError is a refused archive: kind is one of the errors above.
type archiveError struct {
	kind error
	msg  string
}

func (e *archiveError) Error() string { return e.msg }

func (e *archiveError) Is(target error) bool { return target == ErrArchive || target == e.kind }

func refuse(kind error, format string, args ...any) error {
	return &archiveError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// archiveFormat is how an archive is packed.
type archiveFormat int

const (
	formatTarGz archiveFormat = iota + 1
	formatZip
)

// detectFormat chooses an archive's format as the RFC says: by its
// Content-Type when that names one, else by its URL's extension.
func detectFormat(contentType string, u *url.URL) (archiveFormat, error) {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch strings.ToLower(mt) {
	case "application/gzip", "application/x-gzip", "application/x-tar+gzip", "application/x-gtar", "application/x-compressed-tar":
		return formatTarGz, nil
	case "application/zip", "application/x-zip-compressed", "application/x-zip":
		return formatZip, nil
	}
	p := strings.ToLower(u.Path)
	switch {
	case strings.HasSuffix(p, ".tar.gz"), strings.HasSuffix(p, ".tgz"):
		return formatTarGz, nil
	case strings.HasSuffix(p, ".zip"):
		return formatZip, nil
	}
	return 0, refuse(ErrArchiveFormat, "the archive's format is named neither by its Content-Type (%q) nor by its URL's extension (.tar.gz, .tgz or .zip)", skillsext.Clip(contentType, 64))
}

// unpacked is an archive's regular files by slash-separated path.
type unpacked struct {
	files map[string][]byte
	size  int64 // the sum of the files' sizes
}

// unpackLimits bound what an archive may unpack to.
type unpackLimits struct {
	maxEntries int
	maxBytes   int64
	ratio      int64
	ratioFloor int64
}

func defaultUnpackLimits() unpackLimits {
	return unpackLimits{maxEntries: MaxArchiveFiles, maxBytes: MaxUnpackedBytes, ratio: MaxCompressionRatio, ratioFloor: RatioFloorBytes}
}

// budget counts the bytes unpacked against both bounds.
type budget struct {
	lim      unpackLimits
	packed   int64
	used     int64
	entries  int
	ratioCap int64
}

func newBudget(lim unpackLimits, packed int) *budget {
	return &budget{lim: lim, packed: int64(packed), ratioCap: max(lim.ratio*int64(packed), lim.ratioFloor)}
}

// entry counts one more entry of the archive.
func (b *budget) entry() error {
	if b.entries++; b.entries > b.lim.maxEntries {
		return refuse(ErrArchiveTooManyFiles, "the archive holds more than %d entries", b.lim.maxEntries)
	}
	return nil
}

// read reads one file's content from r within what is left of both
// bounds.
func (b *budget) read(r io.Reader) ([]byte, error) {
	left := min(b.lim.maxBytes, b.ratioCap) - b.used
	data, err := io.ReadAll(io.LimitReader(r, left+1))
	b.used += int64(len(data))
	switch {
	case err != nil:
		return nil, refuse(ErrArchiveMalformed, "the archive cannot be read: %v", err)
	case b.used > b.lim.maxBytes:
		return nil, refuse(ErrArchiveTooLarge, "the archive unpacks to more than %d bytes (%d MiB)", b.lim.maxBytes, b.lim.maxBytes>>20)
	case b.used > b.ratioCap:
		return nil, refuse(ErrArchiveRatio, "the archive unpacks to more than %d times its %d bytes", b.lim.ratio, b.packed)
	}
	return data, nil
}

// unpack unpacks a verified archive into memory, refusing (each with an
// error that says which entry, and matches ErrArchive) a path that is
// absolute or leaves the skill's directory, a link, a special file, a path
// given twice, more entries than the limit, more bytes, or a higher
// compression ratio; and an archive without SKILL.md at its root, or with
// one larger than skill.MaxSkillFileBytes.
func unpack(data []byte, f archiveFormat, lim unpackLimits) (*unpacked, error) {
	out := &unpacked{files: make(map[string][]byte)}
	b := newBudget(lim, len(data))
	var err error
	if f == formatZip {
		err = unpackZip(data, b, out)
	} else {
		err = unpackTarGz(data, b, out)
	}
	if err != nil {
		return nil, err
	}
	md, ok := out.files[skillsext.SkillFileName]
	switch {
	case !ok:
		return nil, refuse(ErrArchiveNoSkillFile, "the archive has no SKILL.md at its root")
	case len(md) > skill.MaxSkillFileBytes:
		return nil, refuse(ErrArchiveTooLarge, "the archive's SKILL.md is %d bytes, more than the %d bytes (%d MiB) a SKILL.md may have", len(md), skill.MaxSkillFileBytes, skill.MaxSkillFileBytes>>20)
	}
	out.size = b.used
	return out, nil
}

// add records one regular file.
func (u *unpacked) add(path string, data []byte) error {
	if _, dup := u.files[path]; dup {
		return refuse(ErrArchiveMalformed, "the archive holds %q twice", path)
	}
	u.files[path] = data
	return nil
}

func unpackTarGz(data []byte, b *budget, out *unpacked) error {
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return refuse(ErrArchiveMalformed, "the archive is not gzip-compressed: %v", err)
	}
	// The tar stream's own structure (headers, padding, long names) is
	// bounded too, beyond the files' bytes.
	stream := &capReader{r: gz, left: b.lim.maxBytes + int64(b.lim.maxEntries+2)*(2<<10) + 2<<20}
	tr := tar.NewReader(stream)
	for {
		h, err := tr.Next()
		switch {
		case err == io.EOF:
			return nil
		case stream.over:
			return refuse(ErrArchiveTooLarge, "the archive's tar stream is longer than %d bytes", stream.cap())
		case err != nil && !errors.Is(err, tar.ErrInsecurePath):
			return refuse(ErrArchiveMalformed, "the archive is not a valid tar.gz: %v", err)
		}
		if err := tarEntry(tr, h, b, out); err != nil {
			return err
		}
	}
}

// tarEntry takes one tar entry: a regular file is read, a directory or a
// global header skipped, anything else refused.
func tarEntry(tr *tar.Reader, h *tar.Header, b *budget, out *unpacked) error {
	if h.Typeflag == tar.TypeXGlobalHeader {
		return nil
	}
	if err := b.entry(); err != nil {
		return err
	}
	path, err := entryPath(h.Name)
	if err != nil {
		return err
	}
	switch h.Typeflag {
	case tar.TypeReg:
	case tar.TypeDir:
		return nil
	case tar.TypeSymlink:
		return refuse(ErrArchiveLink, "the archive holds a symbolic link, %q", path)
	case tar.TypeLink:
		return refuse(ErrArchiveLink, "the archive holds a hard link, %q", path)
	default:
		return refuse(ErrArchiveSpecialFile, "the archive holds a special file, %q (%s)", path, tarTypeName(h.Typeflag))
	}
	if path == "" {
		return refuse(ErrArchiveUnsafePath, "the archive holds a file without a name")
	}
	content, err := b.read(tr)
	if err != nil {
		return err
	}
	return out.add(path, content)
}

func tarTypeName(t byte) string {
	switch t {
	case tar.TypeChar:
		return "character device"
	case tar.TypeBlock:
		return "block device"
	case tar.TypeFifo:
		return "FIFO"
	}
	return fmt.Sprintf("tar entry type %q", t)
}

func unpackZip(data []byte, b *budget, out *unpacked) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return refuse(ErrArchiveMalformed, "the archive is not a valid zip: %v", err)
	}
	if len(zr.File) > b.lim.maxEntries {
		return refuse(ErrArchiveTooManyFiles, "the archive holds more than %d entries", b.lim.maxEntries)
	}
	for _, f := range zr.File {
		if err := zipEntry(f, b, out); err != nil {
			return err
		}
	}
	return nil
}

// zipEntry takes one zip entry, as tarEntry does.
func zipEntry(f *zip.File, b *budget, out *unpacked) error {
	if err := b.entry(); err != nil {
		return err
	}
	path, err := entryPath(f.Name)
	if err != nil {
		return err
	}
	mode := f.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		return refuse(ErrArchiveLink, "the archive holds a symbolic link, %q", path)
	case mode.IsDir():
		return nil
	case !mode.IsRegular():
		return refuse(ErrArchiveSpecialFile, "the archive holds a special file, %q (mode %s)", path, mode.Type())
	case path == "":
		return refuse(ErrArchiveUnsafePath, "the archive holds a file without a name")
	}
	rc, err := f.Open()
	if err != nil {
		return refuse(ErrArchiveMalformed, "the archive's %q cannot be read: %v", path, err)
	}
	defer rc.Close()
	content, err := b.read(rc)
	if err != nil {
		return err
	}
	return out.add(path, content)
}

// entryPath returns an entry's path relative to the skill's directory
// ("./" prefixes and a trailing "/" removed; "" for the directory itself),
// or refuses it: an absolute path, a drive letter, a backslash, a NUL, a
// ".." segment, or an empty or "." segment inside it.
func entryPath(name string) (string, error) {
	switch {
	case strings.ContainsAny(name, "\\\x00"):
		return "", refuse(ErrArchiveUnsafePath, "the archive holds %q, a path with a backslash or a NUL", skillsext.Clip(name, 128))
	case strings.HasPrefix(name, "/"), len(name) >= 2 && name[1] == ':' && isLetter(name[0]):
		return "", refuse(ErrArchiveUnsafePath, "the archive holds %q, an absolute path", skillsext.Clip(name, 128))
	}
	p := name
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	p = strings.TrimSuffix(p, "/")
	if p == "" || p == "." {
		return "", nil
	}
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "..":
			return "", refuse(ErrArchiveUnsafePath, "the archive holds %q, a path that leaves the skill's directory", skillsext.Clip(name, 128))
		case "", ".":
			return "", refuse(ErrArchiveUnsafePath, "the archive holds %q, a path with an empty or . segment", skillsext.Clip(name, 128))
		}
	}
	return p, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// capReader reads at most left bytes from r, then fails and says so.
type capReader struct {
	r     io.Reader
	left  int64
	total int64
	over  bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		c.over = true
		return 0, errors.New("stream bound reached")
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	c.total += int64(n)
	return n, err
}

func (c *capReader) cap() int64 { return c.total + c.left }
