package plugin

import (
	"context"

	"github.com/skillcatalog/skillcatalog/skill"
)

// Host is what the plugin calls back: the host's skill snapshots and skill
// definitions, and the session's durable events. Over go-plugin it is the
// host's HostService reached through the broker; an in-process host
// implements it directly. Implementations must honour ctx.
type Host interface {
	// Snapshot returns the skills visible to an agent scope from a working
	// directory, sorted by name.
	Snapshot(ctx context.Context, req SnapshotRequest) (Snapshot, error)
	// GetSkill loads one skill definition, body included.
	GetSkill(ctx context.Context, req SkillRequest) (SkillLookup, error)
	// ReadEvents reads a page of a session's durable events, newest first.
	ReadEvents(ctx context.Context, req EventsRequest) (EventPage, error)
}

// SnapshotRequest asks for the skills visible to an agent scope.
type SnapshotRequest struct {
	SessionID  string
	Cwd        string
	AgentScope string
	// IfNoneMatch is the token of a snapshot the plugin holds; the host
	// answers NotModified when its current snapshot has that token.
	IfNoneMatch string
	// AcceptDelta lets the host answer with a delta against the snapshot
	// named by IfNoneMatch (see Snapshot.DeltaBase).
	AcceptDelta bool
}

// Snapshot is the host's answer to a SnapshotRequest.
type Snapshot struct {
	// NotModified means the snapshot the request named is current; Skills
	// is then empty.
	NotModified bool
	// Token is the snapshot's revision token, derived from its content;
	// empty for an incomplete snapshot.
	Token string
	// Skills are sorted by name: every skill of the snapshot, or, in a
	// delta, the skills that are new or whose summary changed.
	Skills []skill.Summary
	// Complete is false when any provider failed or did not finish.
	Complete bool
	// DeltaBase, when set, makes this a delta against the snapshot with
	// that token (the request's IfNoneMatch, which asked for one): the
	// snapshot is DeltaBase's without the skills named in Removed, with
	// Skills added or replacing those of the same name. Only complete
	// snapshots are sent as deltas.
	DeltaBase string
	// Removed names, sorted, the skills of DeltaBase this snapshot no longer
	// lists.
	Removed []string
}

// SkillRequest asks for one skill as the calling agent sees it.
type SkillRequest struct {
	SessionID  string
	Cwd        string
	AgentScope string
	Name       string
	// UserInvocation is true when the skill is loaded because the user
	// invoked it by name, not for the model's `skill` tool: the host then
	// sends the content of a user-invocable skill even when the model may
	// not invoke it.
	UserInvocation bool
}

// SkillLookup is the answer to a SkillRequest: a definition, or not found,
// or the provider's error text.
type SkillLookup struct {
	Found bool
	// Skill is the definition when Found. A host sends the content and
	// resource base only of a skill that is model-invocable or, for a
	// UserInvocation request, user-invocable; otherwise they are empty.
	Skill skill.Definition
	// Error is the provider's error message; non-empty means the lookup
	// failed.
	Error string
}

// EventsRequest reads a page of a session's events, newest first.
type EventsRequest struct {
	SessionID string
	// BeforeSeq reads events with seq < BeforeSeq; 0 means from the newest.
	BeforeSeq uint64
	// AfterSeq stops at events with seq <= AfterSeq; 0 reads to the oldest.
	AfterSeq uint64
	// MaxEvents is the page size; the host may return fewer.
	MaxEvents int
}

// Event is one durable session event as the plugin needs to see it.
type Event struct {
	Seq  uint64
	Type string
	// Source is the event's raw source JSON, exactly as stored; nil when
	// it has none.
	Source []byte
	// Visible is false when compaction hid the event.
	Visible bool
}

// EventPage is one page of events.
type EventPage struct {
	// Events are newest first.
	Events []Event
	// Head is the log's head when the page was read.
	Head SessionHead
	// More is true when older events remain in the requested range.
	More bool
}
