package contract

import "slices"

// Reason says one thing about why a pre-step published a catalog or did
// not. Every step's answer carries at least one: the plugin's in
// StepResponse.Reasons, and a host adds its own (hostsdk.StepResult.Reasons).
type Reason struct {
	// Code is one of the ReasonCode constants.
	Code ReasonCode
	// Detail says the same for people, on one line: which scope, which
	// provider and what error, how many skills. It is for operators and
	// logs, never the model, and its wording may change between versions;
	// act on Code.
	Detail string
}

// ReasonCode classifies a Reason. The set is closed: a host may rely on
// seeing no other codes, and a new one comes with a new protocol minor
// version's documentation.
type ReasonCode string

// The plugin's reasons: each outcome comes with the one that explains it.
const (
	// ReasonRejectPassthrough: the downstream decision rejected the step
	// (OutcomeRejectPassthrough).
	ReasonRejectPassthrough ReasonCode = "reject-passthrough"
	// ReasonToolRestricted: the tool name `skill` resolves to no tool for
	// the calling agent, so its view of the skills is empty: no catalog,
	// or a tombstone retiring the one it had.
	ReasonToolRestricted ReasonCode = "tool-restricted"
	// ReasonToolShadowed: the tool name `skill` resolves, for the calling
	// agent, to a definition other than the mount's, with the same effect.
	ReasonToolShadowed ReasonCode = "tool-shadowed"
	// ReasonSnapshotIncomplete: the host's skill snapshot was incomplete
	// (OutcomeIncomplete): the catalog the model sees is kept, and the next
	// step tries again.
	ReasonSnapshotIncomplete ReasonCode = "snapshot-incomplete"
	// ReasonCurrent: the newest visible catalog in the session log is the
	// current one (OutcomeUnchanged).
	ReasonCurrent ReasonCode = "current"
	// ReasonProposed: the downstream decision already proposes the current
	// catalog, which is kept (OutcomeUnchanged).
	ReasonProposed ReasonCode = "proposed"
	// ReasonEmpty: no catalog was ever published in the session and there
	// is nothing to list (OutcomeUnchanged).
	ReasonEmpty ReasonCode = "empty"
	// ReasonPublishedInitial: the session's first catalog was published
	// (OutcomeInitial).
	ReasonPublishedInitial ReasonCode = "published-initial"
	// ReasonPublishedReplacement: a complete replacement was published
	// (OutcomeReplacement), because the skills changed or compaction hid
	// the catalog; Detail says which.
	ReasonPublishedReplacement ReasonCode = "published-replacement"
	// ReasonPublishedTombstone: the empty catalog retiring every earlier
	// name was published (OutcomeTombstone).
	ReasonPublishedTombstone ReasonCode = "published-tombstone"
	// ReasonBudget: the catalog budget shortened descriptions or left
	// skills out of the published catalog; Detail is the diagnostic (see
	// StepResponse.Diagnostics).
	ReasonBudget ReasonCode = "budget"
	// ReasonInvoked: a skill the user invoked by name was added to the
	// step; Detail names it.
	ReasonInvoked ReasonCode = "invoked"
	// ReasonRelevant: the relevant-skills message was added at the user's
	// turn; Detail names the skills it describes.
	ReasonRelevant ReasonCode = "relevant"
	// ReasonPathsActivated: a file the session touched (StepRequest.
	// TouchedPaths) matched the `paths` of a skill scoped by them, which
	// enters the catalog at this step; Detail names the skill and the
	// file.
	ReasonPathsActivated ReasonCode = "paths-activated"
	// ReasonReattached: a compaction hid the instructions of skills the
	// model or the user loaded (or the host preloaded), and the step
	// attached them again; Detail names them (StepResponse.Reattached).
	ReasonReattached ReasonCode = "reattached"
	// ReasonPreloaded: the session's first step added the skills the host
	// preloads, or said why one could not be; Detail names them
	// (StepResponse.Preloaded).
	ReasonPreloaded ReasonCode = "preloaded"
)

// The host's reasons, which a host adds to the plugin's (package hostsdk
// does).
const (
	// ReasonNoMount: no plugin mount is in effect for the agent's scope.
	ReasonNoMount ReasonCode = "no-mount"
	// ReasonProviderIncomplete: a skill provider failed to list, or
	// reported an incomplete observation, which made the snapshot
	// incomplete; Detail names the provider and its error.
	ReasonProviderIncomplete ReasonCode = "provider-incomplete"
	// ReasonProviderDegraded: a best-effort skill provider failed to
	// list, or reported an incomplete observation, and the snapshot was
	// complete without it: its last-good listing stood in for it, or its
	// skills were left out. Detail names the provider, its scope and its
	// error, and says which. It comes with any outcome, while the provider
	// fails.
	ReasonProviderDegraded ReasonCode = "provider-degraded"
	// ReasonLockMismatch: the host's skill lock names a skill whose
	// content no longer has the locked digest, so it was left out of the
	// snapshot (and is not loaded) rather than served changed; Detail
	// names the skill and both digests. It comes with any outcome.
	ReasonLockMismatch ReasonCode = "lock-mismatch"
	// ReasonNotLocked: the host's skill lock does not name a skill, and
	// the host leaves such skills out; Detail names the skill.
	ReasonNotLocked ReasonCode = "not-locked"
	// ReasonNameCollision: skills of more than one origin share a name,
	// and the remote ones are listed under qualified names; Detail says
	// which.
	ReasonNameCollision ReasonCode = "name-collision"
	// ReasonHostError: the host's side failed (a provider past the
	// deadline, the session store, a working directory that is not
	// absolute); the step proceeded without the plugin.
	ReasonHostError ReasonCode = "host-error"
	// ReasonPluginError: the plugin failed; the step proceeded without it.
	ReasonPluginError ReasonCode = "plugin-error"
	// ReasonCanceled: the caller's own context ended the step.
	ReasonCanceled ReasonCode = "canceled"
)

// ReasonCodes returns every reason code, the plugin's then the host's, in
// the order documented above.
func ReasonCodes() []ReasonCode {
	return []ReasonCode{
		ReasonRejectPassthrough, ReasonToolRestricted, ReasonToolShadowed, ReasonSnapshotIncomplete,
		ReasonCurrent, ReasonProposed, ReasonEmpty,
		ReasonPublishedInitial, ReasonPublishedReplacement, ReasonPublishedTombstone,
		ReasonBudget, ReasonInvoked, ReasonRelevant, ReasonPathsActivated, ReasonReattached, ReasonPreloaded,
		ReasonNoMount, ReasonProviderIncomplete, ReasonProviderDegraded, ReasonLockMismatch, ReasonNotLocked, ReasonNameCollision, ReasonHostError, ReasonPluginError, ReasonCanceled,
	}
}

// Known reports whether c is one of the documented codes.
func (c ReasonCode) Known() bool {
	return slices.Contains(ReasonCodes(), c)
}
