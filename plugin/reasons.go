package plugin

import (
	"strconv"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
)

// The reasons of the steps that publish nothing, the same text every time:
// a steady step formats none.
func reasonRejected() contract.Reason {
	return contract.Reason{Code: contract.ReasonRejectPassthrough, Detail: "the downstream decision rejected the step; it passes through untouched"}
}

func reasonIncomplete() contract.Reason {
	return contract.Reason{Code: contract.ReasonSnapshotIncomplete, Detail: "the host's skill snapshot is incomplete: the catalog the model sees stays as it is until a complete snapshot, tried again at the next step"}
}

func reasonCurrent() contract.Reason {
	return contract.Reason{Code: contract.ReasonCurrent, Detail: "the newest visible catalog in the session log lists the current skills"}
}

func reasonProposed() contract.Reason {
	return contract.Reason{Code: contract.ReasonProposed, Detail: "the downstream decision already proposes the current catalog"}
}

func reasonEmpty() contract.Reason {
	return contract.Reason{Code: contract.ReasonEmpty, Detail: "there are no skills to list, and the session has no earlier catalog to retire"}
}

// hiddenReason says why the step's agent sees no skills of the mount: its
// `skill` tool name resolves to nothing, or to another definition.
func hiddenReason(req contract.StepRequest) contract.Reason {
	if req.SkillToolIdentity == "" {
		return contract.Reason{Code: contract.ReasonToolRestricted,
			Detail: "the tool name `skill` resolves to no tool for agent scope " + strconv.Quote(req.AgentScope) + " (restricted away): it sees no skills of this mount"}
	}
	return contract.Reason{Code: contract.ReasonToolShadowed,
		Detail: "the tool name `skill` resolves, for agent scope " + strconv.Quote(req.AgentScope) + ", to a definition other than this mount's (shadowed): it sees no skills of this mount"}
}

// publishReasons says what a publishing step published and why, then what
// a catalog budget changed in it.
func publishReasons(outcome contract.Outcome, cur *view.View, base events.Baseline) []contract.Reason {
	reasons := make([]contract.Reason, 0, 1+len(cur.Diagnostics()))
	listed := strconv.Itoa(cur.NumEntries()) + " skills"
	if cur.NumEntries() == 1 {
		listed = "1 skill"
	}
	switch outcome {
	case contract.OutcomeInitial:
		reasons = append(reasons, contract.Reason{Code: contract.ReasonPublishedInitial,
			Detail: "published the session's first catalog, listing " + listed})
	case contract.OutcomeTombstone:
		reasons = append(reasons, contract.Reason{Code: contract.ReasonPublishedTombstone,
			Detail: "no skills are left to list: published the empty catalog that retires every earlier name"})
	default:
		why := "the skills changed since the newest visible catalog"
		if !base.Found {
			why = "no catalog is visible any more (compaction hid it)"
		}
		reasons = append(reasons, contract.Reason{Code: contract.ReasonPublishedReplacement,
			Detail: why + ": published a complete replacement listing " + listed})
	}
	for _, d := range cur.Diagnostics() {
		reasons = append(reasons, contract.Reason{Code: contract.ReasonBudget, Detail: d})
	}
	return reasons
}
