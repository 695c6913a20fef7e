package contract

import (
	"context"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/skill"
)

// Host is what a Service calls back: the host's skill snapshots and skill
// definitions, and the session's durable events. A host passes its Host to
// Service.Configure for each mount; over gRPC it is the host's HostService
// reached through go-plugin's broker. Implementations are safe for
// concurrent use and honour ctx. What a Host returns is the caller's to
// read and keep, never to modify: a host in the same process may hand out
// slices it shares (a registry's snapshot, a session log's bytes).
type Host interface {
	// Snapshot returns the skills visible to an agent scope from a working
	// directory, sorted by name.
	Snapshot(ctx context.Context, req SnapshotRequest) (Snapshot, error)
	// GetSkill loads one skill definition, body included.
	GetSkill(ctx context.Context, req SkillRequest) (SkillLookup, error)
	// ReadEvents reads a page of a session's durable events, newest first.
	ReadEvents(ctx context.Context, req EventsRequest) (EventPage, error)
}

// ResourceReader is the optional part of a Host that reads skill resources
// for the resource-read tool. A service finds it by a type assertion; a
// Host without it (or one whose ReadResource returns ErrNoResourceReads)
// makes the tool answer that resources cannot be read.
type ResourceReader interface {
	// ReadResource reads a window of one file of a skill's resources, as
	// the calling agent sees the skill.
	ReadResource(ctx context.Context, req ResourceRequest) (ResourceRead, error)
}

// Embedder is the optional part of a Host that embeds texts, for a host
// that adds semantic ranking to the skill search. A service finds it by a
// type assertion; a Host without it (or one whose Embed returns
// ErrNoEmbeddings) leaves the search lexical.
type Embedder interface {
	// Embed returns one vector per text, in order, all of one dimension,
	// and the name of the model that made them.
	Embed(ctx context.Context, req EmbedRequest) (Embeddings, error)
}

// EmbedKind says what the texts of an EmbedRequest are.
type EmbedKind uint8

const (
	// EmbedQuery: the texts are search queries.
	EmbedQuery EmbedKind = iota + 1
	// EmbedDocument: the texts are skills' search documents.
	EmbedDocument
)

// Bounds of an EmbedRequest: the plugin sends at most MaxEmbedTexts texts
// of at most MaxEmbedTextBytes each.
const (
	MaxEmbedTexts     = 256
	MaxEmbedTextBytes = 8 << 10
)

// EmbedRequest asks for the embeddings of texts.
type EmbedRequest struct {
	Kind  EmbedKind
	Texts []string
}

// Embeddings are the vectors of an EmbedRequest's texts, in order.
type Embeddings struct {
	Vectors [][]float32
	// Model names the embedding model; vectors of different models are
	// never compared.
	Model string
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

// SnapshotDelta computes, for a Host that answers a SnapshotRequest with
// AcceptDelta, what changed between base (the snapshot the request named)
// and cur: the summaries that are new or changed, and the names cur no
// longer lists. Both listings must be sorted by name without repeats, as
// snapshots are. worth is false when the delta would not be much smaller
// than cur itself, and the host should send cur whole.
func SnapshotDelta(base, cur []skill.Summary) (upserts []skill.Summary, removed []string, worth bool) {
	i, j := 0, 0
	for i < len(base) || j < len(cur) {
		switch {
		case j == len(cur) || (i < len(base) && base[i].Name < cur[j].Name):
			removed = append(removed, base[i].Name)
			i++
		case i == len(base) || cur[j].Name < base[i].Name:
			upserts = append(upserts, cur[j])
			j++
		default:
			if base[i] != cur[j] {
				upserts = append(upserts, cur[j])
			}
			i++
			j++
		}
		if 2*(len(upserts)+len(removed)) > len(cur)+1 {
			return nil, nil, false
		}
	}
	return upserts, removed, true
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

// SessionEvent is one durable session event as a service sees it: its
// position, type, source and visibility, never its body.
type SessionEvent struct {
	Seq  uint64
	Type string
	// Source is the event's raw source JSON, exactly as stored; nil when
	// it has none.
	Source []byte
	// SourceDigest, when set (only in a step's RecentEvents, only to a
	// service that AcceptsSourceDigests), stands for Source, which is then
	// nil: SourceDigestOf the stored source, for a source the service
	// produced itself in an earlier answer. A service that no longer knows
	// the digest reads the events with ReadEvents instead.
	SourceDigest []byte
	// Visible is false when compaction hid the event.
	Visible bool
}

// SourceDigestOf is the SessionEvent.SourceDigest of a source: its
// XXH3-128, 16 bytes, big-endian.
func SourceDigestOf(source []byte) []byte {
	sum := xxh3.Hash128(source).Bytes()
	return sum[:]
}

// EventPage is one page of events.
type EventPage struct {
	// Events are newest first.
	Events []SessionEvent
	// Head is the log's head when the page was read.
	Head SessionHead
	// More is true when older events remain in the requested range.
	More bool
}

// ResourceRequest asks for a window of one skill resource.
type ResourceRequest struct {
	SessionID  string
	Cwd        string
	AgentScope string
	// Name is the skill's name.
	Name string
	// Path is slash-separated, relative to the skill's resource base, and
	// already checked by the service (see plugin.ValidateResourcePath).
	Path string
	// Offset is the window's first byte.
	Offset int64
	// MaxBytes is the most bytes the window may hold.
	MaxBytes int
}

// ResourceStatus is the outcome of a ReadResource callback.
type ResourceStatus string

// Resource read outcomes.
const (
	// ResourceOK: Data and Total are set.
	ResourceOK ResourceStatus = "ok"
	// ResourceSkillNotFound: no skill of that name is visible to the agent.
	ResourceSkillNotFound ResourceStatus = "skill-not-found"
	// ResourceNotModelInvocable: the model may not invoke the skill, so
	// nothing was read.
	ResourceNotModelInvocable ResourceStatus = "not-model-invocable"
	// ResourceNotReadable: the skill's resources cannot be read by the host
	// (an opaque base, or a provider that offers no reads).
	ResourceNotReadable ResourceStatus = "not-readable"
	// ResourceInvalidPath: the path leaves the skill's resources, or the
	// provider refused it.
	ResourceInvalidPath ResourceStatus = "invalid-path"
	// ResourceNotFound: no readable file at that path.
	ResourceNotFound ResourceStatus = "not-found"
	// ResourceTooLarge: the file is larger than skill.MaxResourceBytes.
	ResourceTooLarge ResourceStatus = "too-large"
	// ResourceBinary: the file is not text (skill.IsText).
	ResourceBinary ResourceStatus = "binary"
	// ResourceProviderError: the provider failed; Error holds its text.
	ResourceProviderError ResourceStatus = "provider-error"
)

// ResourceRead is the answer to a ResourceRequest.
type ResourceRead struct {
	Status ResourceStatus
	// Data is the resource from Offset, at most MaxBytes; empty when
	// Offset is at or past the end.
	Data []byte
	// Total is the size of the whole resource in bytes.
	Total int64
	// Error is the provider's text, for ResourceProviderError.
	Error string
}
