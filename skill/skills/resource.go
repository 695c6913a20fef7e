package skills

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillcatalog/skillcatalog/internal/fileid"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Errors of Registry.ReadResource. A provider's ResourceReader returns the
// last four (wrapped, if it likes) to say what went wrong; any other error
// is a provider failure.
var (
	// ErrSkillNotFound: no skill of that name is visible to the query.
	ErrSkillNotFound = errors.New("skills: skill not found")
	// ErrNotModelInvocable: the skill may not be invoked by the model, and
	// its resources are read only on the model's behalf.
	ErrNotModelInvocable = errors.New("skills: skill is not model-invocable")
	// ErrResourceNotReadable: the skill's resources cannot be read by the
	// host: an opaque resource base, or a base its provider manages
	// without implementing ResourceReader.
	ErrResourceNotReadable = errors.New("skills: the skill's resources are not readable by the host")
	// ErrInvalidResourcePath: the path leaves the skill's resources (a dot
	// segment, an absolute path, a link out of the skill's directory) or
	// the provider refuses it.
	ErrInvalidResourcePath = errors.New("skills: invalid resource path")
	// ErrResourceNotFound: there is no readable regular file at the path.
	ErrResourceNotFound = errors.New("skills: resource not found")
	// ErrResourceTooLarge: the file is larger than skill.MaxResourceBytes.
	ErrResourceTooLarge = errors.New("skills: resource too large")
)

// ResourceRequest asks a provider for one file of a skill's resources.
type ResourceRequest struct {
	SessionID string
	Cwd       string
	// Name is the skill's name.
	Name string
	// Path is slash-separated and relative to the skill's resource base,
	// with no empty, dot or hidden segment.
	Path string
}

// ResourceReader is implemented by providers whose skills' resources the
// host cannot read on its own (a URL base, or resources the provider
// manages): the registry calls it to read one file for the resource-read
// tool. Implementations return at most skill.MaxResourceBytes, or
// ErrResourceTooLarge, and the errors above for paths they refuse or cannot
// find.
type ResourceReader interface {
	ReadSkillResource(ctx context.Context, req ResourceRequest) ([]byte, error)
}

// DirectoryOpener is implemented by providers of directory skills that
// open a skill's directory for the host themselves. The registry then
// reads a file of such a skill through the directory the provider opened,
// instead of opening the resource base's path, which by then may lead
// somewhere else (a skill directory swapped for a link to another one): a
// provider can check that the directory it opened holds the skill, and
// the file is read from that same directory.
type DirectoryOpener interface {
	// OpenSkillDirectory opens the directory of the skill req.Name (req.Path
	// is the file about to be read in it), or returns ErrSkillNotFound when
	// the directory no longer holds that skill. The registry closes it.
	OpenSkillDirectory(ctx context.Context, req ResourceRequest) (*os.Root, error)
}

// ReadResource reads one file of the resources of the skill that wins name
// under q, for the model: the skill is loaded as Get loads it and must be
// model-invocable. How the file is read depends on the skill's resource
// base:
//
//   - a directory: the file is opened below that directory only, with
//     os.OpenRoot, so neither ".." nor a symbolic link can lead out of it
//     (checked by the kernel after resolving, not on the path's text);
//     only regular files are read. The directory is the one the winning
//     provider opens when it implements DirectoryOpener;
//   - opaque guidance: never (ErrResourceNotReadable);
//   - a URL, or none (the provider manages resources): through the winning
//     provider's ResourceReader, when it implements one, and
//     ErrResourceNotReadable otherwise.
//
// Files larger than skill.MaxResourceBytes are refused with
// ErrResourceTooLarge. A provider failure is a *LoadError.
func (r *Registry) ReadResource(ctx context.Context, q Query, name, path string) ([]byte, error) {
	def, src, err := r.resourceSource(ctx, q, name, path)
	if err != nil {
		return nil, err
	}
	if rb := def.ResourceBase; rb != nil && rb.Kind == skill.ResourceDirectory {
		root, err := openDirectory(ctx, q, def, src, name, path)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		return readBelow(root, path)
	}
	return r.readProvided(ctx, q, def, src, name, path)
}

// openDirectory opens the resource directory of the skill def, loaded as
// name: as the winning provider opens it when it is a DirectoryOpener,
// else by the resource base's path.
func openDirectory(ctx context.Context, q Query, def skill.Definition, src source, name, path string) (*os.Root, error) {
	if src.provider != nil {
		if opener, ok := src.provider.p.(DirectoryOpener); ok {
			root, err := src.provider.openSkillDirectory(ctx, opener, ResourceRequest{SessionID: q.SessionID, Cwd: q.Cwd, Name: name, Path: path})
			switch {
			case err == nil:
				return root, nil
			case errors.Is(err, ErrSkillNotFound), errors.Is(err, ErrNotModelInvocable), errors.Is(err, ErrResourceNotFound):
				return nil, err
			case ctx.Err() != nil:
				return nil, ctx.Err()
			}
			return nil, &LoadError{Name: name, Provider: def.Provider, Err: err}
		}
	}
	root, err := os.OpenRoot(def.ResourceBase.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, ErrResourceNotFound
	case err != nil:
		return nil, fmt.Errorf("open skill directory: %w", err)
	}
	return root, nil
}

// resourceSource loads the skill that wins name under q and checks that
// the model may read path of its resources.
func (r *Registry) resourceSource(ctx context.Context, q Query, name, path string) (skill.Definition, source, error) {
	def, src, found, err := r.get(ctx, q, name)
	if err != nil {
		return skill.Definition{}, source{}, err
	}
	if !found {
		return skill.Definition{}, source{}, ErrSkillNotFound
	}
	if !def.Invocation.ModelInvocable {
		return skill.Definition{}, source{}, ErrNotModelInvocable
	}
	if err := checkResourcePath(path); err != nil {
		return skill.Definition{}, source{}, err
	}
	return def, src, nil
}

// readProvided reads a file of a skill whose resources are not a
// directory: through the winning provider's ResourceReader.
func (r *Registry) readProvided(ctx context.Context, q Query, def skill.Definition, src source, name, path string) ([]byte, error) {
	rb := def.ResourceBase
	switch {
	case rb != nil && rb.Kind != skill.ResourceURL:
		return nil, ErrResourceNotReadable
	case src.provider == nil:
		return nil, ErrResourceNotReadable
	}
	reader, ok := src.provider.p.(ResourceReader)
	if !ok {
		return nil, ErrResourceNotReadable
	}
	data, err := src.provider.readSkillResource(ctx, reader, ResourceRequest{SessionID: q.SessionID, Cwd: q.Cwd, Name: name, Path: path})
	switch {
	case err == nil && len(data) > skill.MaxResourceBytes:
		return nil, ErrResourceTooLarge
	case err == nil:
		return data, nil
	case errors.Is(err, ErrSkillNotFound), errors.Is(err, ErrInvalidResourcePath), errors.Is(err, ErrResourceNotFound),
		errors.Is(err, ErrResourceTooLarge), errors.Is(err, ErrResourceNotReadable):
		return nil, err
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	return nil, &LoadError{Name: name, Provider: def.Provider, Err: err}
}

// ResourceWindow is a window of one resource file, as ReadResourceWindow
// reads it.
type ResourceWindow struct {
	// Data is the file's bytes from the window's offset, at most the
	// window's length; empty for a binary file or an offset outside it.
	Data []byte
	// Total is the file's size in bytes.
	Total int64
	// Binary reports that the file is not text (skill.IsText, judged over
	// the whole file, not the window).
	Binary bool
}

// ReadResourceWindow is ReadResource for one window of the file: the
// bytes from offset (when 0 <= offset < the file's size), at most max of
// them (max < 0: to the end), with the file's size and whether it is text.
// It checks and refuses exactly as ReadResource does. A directory skill's
// file is read whole once per version of it, to judge it text or binary;
// later windows of that version read only their bytes, so paging through
// a large file costs a page per page.
func (r *Registry) ReadResourceWindow(ctx context.Context, q Query, name, path string, offset int64, max int) (ResourceWindow, error) {
	def, src, err := r.resourceSource(ctx, q, name, path)
	if err != nil {
		return ResourceWindow{}, err
	}
	if rb := def.ResourceBase; rb != nil && rb.Kind == skill.ResourceDirectory {
		root, err := openDirectory(ctx, q, def, src, name, path)
		if err != nil {
			return ResourceWindow{}, err
		}
		defer root.Close()
		return r.texts.readWindow(root, path, offset, max)
	}
	data, err := r.readProvided(ctx, q, def, src, name, path)
	if err != nil {
		return ResourceWindow{}, err
	}
	return windowOf(data, skill.IsText(data), offset, max), nil
}

// windowOf cuts a window out of a whole file.
func windowOf(data []byte, text bool, offset int64, max int) ResourceWindow {
	w := ResourceWindow{Total: int64(len(data)), Binary: !text}
	if w.Binary || offset < 0 || offset >= w.Total {
		return w
	}
	w.Data = data[offset:]
	if max >= 0 && len(w.Data) > max {
		w.Data = w.Data[:max]
	}
	return w
}

// checkResourcePath refuses what no resource base should resolve: an empty,
// absolute or non-local path, a backslash, a NUL, and empty, dot or hidden
// segments. Callers (the plugin) check more before asking.
func checkResourcePath(path string) error {
	if !fs.ValidPath(path) || path == "." || strings.ContainsAny(path, "\\\x00") {
		return fmt.Errorf("%w: %q", ErrInvalidResourcePath, path)
	}
	for seg := range strings.SplitSeq(path, "/") {
		if strings.HasPrefix(seg, ".") {
			return fmt.Errorf("%w: %q has a hidden segment", ErrInvalidResourcePath, path)
		}
	}
	return nil
}

// readBelow reads the regular file at rel inside root, never outside it.
func readBelow(root *os.Root, rel string) ([]byte, error) {
	f, fi, err := openBelow(root, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, _, err := readWhole(f, fi)
	return data, err
}

// readWhole reads an open resource file that fi describes, and returns the
// identity of the version read: the zero ID when the file system gives
// none, or the file changed size while being read.
func readWhole(f *os.File, fi fs.FileInfo) ([]byte, fileid.ID, error) {
	var buf bytes.Buffer
	// Room for the whole file and ReadFrom's minimum read: to EOF in one
	// allocation, still seeing a file that grew.
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, skill.MaxResourceBytes+1)); err != nil {
		return nil, fileid.ID{}, fmt.Errorf("read resource: %w", err)
	}
	data := buf.Bytes()
	if len(data) > skill.MaxResourceBytes {
		return nil, fileid.ID{}, ErrResourceTooLarge // it grew while being read
	}
	id, ok := fileid.Of(fi)
	if !ok || id.Size != int64(len(data)) {
		return data, fileid.ID{}, nil // no identity, or it changed while being read
	}
	return data, id, nil
}

// openBelow opens the regular file at rel inside root, never outside it.
func openBelow(root *os.Root, rel string) (*os.File, fs.FileInfo, error) {
	f, err := openInRoot(root, filepath.FromSlash(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return nil, nil, ErrResourceNotFound
	case err != nil:
		// A link out of the directory, a link loop, a file where a
		// directory was expected: the path does not stay inside.
		return nil, nil, fmt.Errorf("%w: %v", ErrInvalidResourcePath, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat resource: %w", err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, ErrResourceNotFound
	}
	if fi.Size() > skill.MaxResourceBytes {
		f.Close()
		return nil, nil, ErrResourceTooLarge
	}
	return f, fi, nil
}
