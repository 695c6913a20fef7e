package skills

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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

// ReadResource reads one file of the resources of the skill that wins name
// under q, for the model: the skill is loaded as Get loads it and must be
// model-invocable. How the file is read depends on the skill's resource
// base:
//
//   - a directory: the file is opened below that directory only, with
//     os.OpenRoot, so neither ".." nor a symbolic link can lead out of it
//     (checked by the kernel after resolving, not on the path's text);
//     only regular files are read;
//   - opaque guidance: never (ErrResourceNotReadable);
//   - a URL, or none (the provider manages resources): through the winning
//     provider's ResourceReader, when it implements one, and
//     ErrResourceNotReadable otherwise.
//
// Files larger than skill.MaxResourceBytes are refused with
// ErrResourceTooLarge. A provider failure is a *LoadError.
func (r *Registry) ReadResource(ctx context.Context, q Query, name, path string) ([]byte, error) {
	def, src, found, err := r.get(ctx, q, name)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, ErrSkillNotFound
	}
	if !def.Invocation.ModelInvocable {
		return nil, ErrNotModelInvocable
	}
	if err := checkResourcePath(path); err != nil {
		return nil, err
	}
	rb := def.ResourceBase
	switch {
	case rb != nil && rb.Kind == skill.ResourceDirectory:
		return readBelow(rb.Path, path)
	case rb != nil && rb.Kind != skill.ResourceURL:
		return nil, ErrResourceNotReadable
	case src.provider == nil:
		return nil, ErrResourceNotReadable
	}
	reader, ok := src.provider.p.(ResourceReader)
	if !ok {
		return nil, ErrResourceNotReadable
	}
	data, err := reader.ReadSkillResource(ctx, ResourceRequest{SessionID: q.SessionID, Cwd: q.Cwd, Name: name, Path: path})
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

// readBelow reads the regular file at rel inside dir, never outside it.
func readBelow(dir, rel string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrResourceNotFound
		}
		return nil, fmt.Errorf("open skill directory: %w", err)
	}
	defer root.Close()
	f, err := openInRoot(root, filepath.FromSlash(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return nil, ErrResourceNotFound
	case err != nil:
		// A link out of the directory, a link loop, a file where a
		// directory was expected: the path does not stay inside.
		return nil, fmt.Errorf("%w: %v", ErrInvalidResourcePath, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat resource: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrResourceNotFound
	}
	if fi.Size() > skill.MaxResourceBytes {
		return nil, ErrResourceTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, skill.MaxResourceBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read resource: %w", err)
	}
	if len(data) > skill.MaxResourceBytes {
		return nil, ErrResourceTooLarge // it grew while being read
	}
	return data, nil
}
