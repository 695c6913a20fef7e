package skill

import "fmt"

// ResourceKind says how a ResourceBase locates a skill's resources.
type ResourceKind string

// Resource base kinds.
const (
	// ResourceDirectory is a local directory (ResourceBase.Path).
	ResourceDirectory ResourceKind = "directory"
	// ResourceURL is a base URL (ResourceBase.URL).
	ResourceURL ResourceKind = "url"
	// ResourceOpaque is loading guidance in the provider's own words
	// (ResourceBase.Description).
	ResourceOpaque ResourceKind = "opaque"
)

// ResourceBase tells the model where the files referenced by a skill's
// instructions live. A nil *ResourceBase means the provider manages the
// resources itself.
//
// Its JSON form is the `skill` tool's: {"kind":"directory","path":...},
// {"kind":"url","url":...} or {"kind":"opaque","description":...}.
type ResourceBase struct {
	Kind ResourceKind `json:"kind"`
	// Path is the directory, for ResourceDirectory.
	Path string `json:"path,omitempty"`
	// URL is the base URL, for ResourceURL.
	URL string `json:"url,omitempty"`
	// Description is loading guidance, for ResourceOpaque.
	Description string `json:"description,omitempty"`
}

// Validate reports a kind other than the three known ones, or a kind whose
// field is empty.
func (rb ResourceBase) Validate() error {
	v, field, known := rb.located()
	switch {
	case !known:
		return fmt.Errorf("unsupported resource base kind %q", rb.Kind)
	case v == "":
		return fmt.Errorf("resource base kind %q has an empty %s", rb.Kind, field)
	}
	return nil
}

// Location returns the value the kind points at: the path, the URL or the
// description. It is empty for an unknown kind.
func (rb ResourceBase) Location() string {
	v, _, _ := rb.located()
	return v
}

func (rb ResourceBase) located() (value, field string, known bool) {
	switch rb.Kind {
	case ResourceDirectory:
		return rb.Path, "path", true
	case ResourceURL:
		return rb.URL, "URL", true
	case ResourceOpaque:
		return rb.Description, "description", true
	}
	return "", "", false
}

// Clone returns a copy of rb, or nil for nil.
func (rb *ResourceBase) Clone() *ResourceBase {
	if rb == nil {
		return nil
	}
	c := *rb
	return &c
}
