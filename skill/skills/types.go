package skills

import (
	"context"

	"github.com/skillcatalog/skillcatalog/skill"
)

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
	Skills []skill.Summary
	// Complete is false when the provider could not observe everything it
	// should have (a root it could not read, a server it could not reach).
	// An incomplete observation is never taken as an authoritative list.
	Complete bool
	// Incomplete says, when Complete is false, why: one line each (which
	// root or server, what error), for the host's operators. The registry
	// reports it with the snapshot (Snapshot.Incomplete).
	Incomplete []string
}

// Provider lists skill candidates and loads definitions on demand.
// Implementations must honour context cancellation.
type Provider interface {
	// List returns the skills available for a session and working
	// directory. An error (or an incomplete observation) makes the whole
	// snapshot incomplete when the provider is Strict; when it is
	// BestEffort, its last-good listing stands in (see Availability).
	List(ctx context.Context, req ListRequest) (Observation, error)
	// Load returns the named skill's definition. found is false when the
	// provider does not (or no longer) offer that skill.
	Load(ctx context.Context, req LoadRequest) (def skill.Definition, found bool, err error)
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
