package skills

import "context"

// InvocationPolicy says who may invoke a skill. The zero value forbids both;
// use DefaultPolicy for the usual "both allowed".
type InvocationPolicy struct {
	// ModelInvocable allows the model to load the skill with the `skill` tool
	// and lets the skill appear in the model's catalog.
	ModelInvocable bool
	// UserInvocable allows a user to invoke the skill (for example as a slash
	// command). It does not affect the model-facing catalog or tool.
	UserInvocable bool
}

// DefaultPolicy allows both the model and the user to invoke a skill.
var DefaultPolicy = InvocationPolicy{ModelInvocable: true, UserInvocable: true}

// Resource base kinds.
const (
	ResourceDirectory = "directory"
	ResourceURL       = "url"
	ResourceOpaque    = "opaque"
)

// ResourceBase tells the model where files referenced by a skill's
// instructions live. A nil *ResourceBase means the provider manages
// resources itself.
type ResourceBase struct {
	// Kind is ResourceDirectory, ResourceURL or ResourceOpaque.
	Kind string
	// Path is the directory, for ResourceDirectory.
	Path string
	// URL is the base URL, for ResourceURL.
	URL string
	// Description is loading guidance, for ResourceOpaque.
	Description string
}

// Summary is what a snapshot lists for one skill.
type Summary struct {
	Name        string
	Description string
	Invocation  InvocationPolicy
	// Provider labels where the skill came from, for example "runtime" or
	// "agentskills".
	Provider string
}

// Definition is a loaded skill.
type Definition struct {
	Summary
	// ResourceBase is nil when the provider manages resources itself.
	ResourceBase *ResourceBase
	// Content is the skill's instructions, verbatim.
	Content string
}

// ListRequest asks a provider for the skills it offers to one session.
type ListRequest struct {
	SessionID string
	// Cwd is the calling session's working directory.
	Cwd string
}

// LoadRequest asks a provider for one skill's definition.
type LoadRequest struct {
	SessionID string
	Cwd       string
	Name      string
}

// Observation is a provider's answer to List.
type Observation struct {
	// Skills the provider offers, in any order.
	Skills []Summary
	// Complete is false when the provider could not observe everything it
	// should have (a root it could not read, a server it could not reach).
	// An incomplete observation is never taken as an authoritative list.
	Complete bool
}

// Provider lists skill candidates and loads definitions on demand.
// Implementations must honour context cancellation.
type Provider interface {
	// List returns the skills available for a session and working
	// directory. An error makes the whole snapshot incomplete.
	List(ctx context.Context, req ListRequest) (Observation, error)
	// Load returns the named skill's definition. found is false when the
	// provider does not (or no longer) offer that skill.
	Load(ctx context.Context, req LoadRequest) (def Definition, found bool, err error)
}

// Invalidator is implemented by providers whose listings change on their own
// (a watched directory, a remote server). The registry calls SetInvalidate
// once when the provider is added; the provider calls the function whenever
// its listing may have changed, which drops cached snapshots.
type Invalidator interface {
	SetInvalidate(invalidate func())
}

// SessionEnder is implemented by providers that keep per-session state. The
// registry calls EndSession when the host ends a session.
type SessionEnder interface {
	EndSession(sessionID string)
}
