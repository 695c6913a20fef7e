package hostsdk

import "github.com/skillcatalog/skillcatalog/plugin/contract"

// The reason codes a StepResult carries, re-exported from package contract
// so that a host reads its results through this package alone. Each is
// documented at its definition in contract; the set is closed.
const (
	ReasonRejectPassthrough    = contract.ReasonRejectPassthrough
	ReasonToolRestricted       = contract.ReasonToolRestricted
	ReasonToolShadowed         = contract.ReasonToolShadowed
	ReasonSnapshotIncomplete   = contract.ReasonSnapshotIncomplete
	ReasonCurrent              = contract.ReasonCurrent
	ReasonProposed             = contract.ReasonProposed
	ReasonEmpty                = contract.ReasonEmpty
	ReasonPublishedInitial     = contract.ReasonPublishedInitial
	ReasonPublishedReplacement = contract.ReasonPublishedReplacement
	ReasonPublishedTombstone   = contract.ReasonPublishedTombstone
	ReasonBudget               = contract.ReasonBudget
	ReasonInvoked              = contract.ReasonInvoked
	ReasonRelevant             = contract.ReasonRelevant
	ReasonReattached           = contract.ReasonReattached
	ReasonPreloaded            = contract.ReasonPreloaded
	ReasonNoMount              = contract.ReasonNoMount
	ReasonProviderIncomplete   = contract.ReasonProviderIncomplete
	ReasonProviderDegraded     = contract.ReasonProviderDegraded
	ReasonLockMismatch         = contract.ReasonLockMismatch
	ReasonNotLocked            = contract.ReasonNotLocked
	ReasonNameCollision        = contract.ReasonNameCollision
	ReasonHostError            = contract.ReasonHostError
	ReasonPluginError          = contract.ReasonPluginError
	ReasonCanceled             = contract.ReasonCanceled
)

// ReasonCodes returns every reason code, in a stable order: the closed set a
// StepResult's Reasons are drawn from.
func ReasonCodes() []ReasonCode { return contract.ReasonCodes() }
