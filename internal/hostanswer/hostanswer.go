// Package hostanswer is the one answerer of the plugin's skill callbacks
// from a skill registry (Answerer: Snapshot, GetSkill, ReadResource), and
// turns what a skills.Registry says beside its skills into the host's own
// reasons of a step (Notes, Mailbox, AddNotes). Both ends that answer from
// a registry use it: the Go host SDK (package hostsdk), and the plugin when
// it discovers a mount's skills itself (package plugin/discovery). The two
// therefore give the model and the host's operators the same answers and
// texts, byte for byte.
package hostanswer

import (
	"context"
	"errors"
	"slices"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// MaxProviderErrorBytes bounds provider error text that reaches the model,
// and each line of a snapshot's account of its providers.
const MaxProviderErrorBytes = 1024

// BoundText cuts s to at most max bytes on a character boundary, ending it
// with "..." when it was cut.
func BoundText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len("...")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// BoundLines returns ls with each line bounded (see BoundText). It never
// changes ls, which may be a registry's shared slice.
func BoundLines(ls []string, max int) []string {
	if len(ls) == 0 {
		return nil
	}
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = BoundText(l, max)
	}
	return out
}

// LoadFailure is the answer to a GetSkill whose load failed with err: the
// caller's own cancellation as an error, anything else as the provider's
// own text (not the registry's wrapping), bounded.
func LoadFailure(ctx context.Context, err error) (contract.SkillLookup, error) {
	if ctx.Err() != nil {
		return contract.SkillLookup{}, ctx.Err()
	}
	return contract.SkillLookup{Error: providerMessage(err)}, nil
}

// Found is the answer to a GetSkill that found def. A body the load may not
// use never leaves the host, nor its directives: the model's only if it may
// invoke the skill, a user invocation's only if the user may.
func Found(def skill.Definition, userInvocation bool) contract.SkillLookup {
	if !def.Invocation.ModelInvocable && !(userInvocation && def.Invocation.UserInvocable) {
		def.Content, def.ResourceBase, def.Directives = "", nil, nil
	}
	return contract.SkillLookup{Found: true, Skill: def}
}

// Resource is the answer to a ReadResource from a registry's window and
// error (skills.Registry.ReadResourceWindow). Everything but the caller's
// cancellation is an answer, not an error; a file that is not text is
// answered as binary whatever the window.
func Resource(ctx context.Context, w skills.ResourceWindow, err error) (contract.ResourceRead, error) {
	if err != nil {
		if ctx.Err() != nil {
			return contract.ResourceRead{}, ctx.Err()
		}
		st := ResourceStatus(err)
		read := contract.ResourceRead{Status: st}
		if st == contract.ResourceProviderError {
			read.Error = providerMessage(err)
		}
		return read, nil
	}
	if w.Binary {
		return contract.ResourceRead{Status: contract.ResourceBinary, Total: w.Total}, nil
	}
	return contract.ResourceRead{Status: contract.ResourceOK, Total: w.Total, Data: w.Data}, nil
}

// ResourceStatus maps a registry error to the ReadResource status.
func ResourceStatus(err error) contract.ResourceStatus {
	switch {
	case errors.Is(err, skills.ErrSkillNotFound):
		return contract.ResourceSkillNotFound
	case errors.Is(err, skills.ErrNotModelInvocable):
		return contract.ResourceNotModelInvocable
	case errors.Is(err, skills.ErrResourceNotReadable):
		return contract.ResourceNotReadable
	case errors.Is(err, skills.ErrInvalidResourcePath):
		return contract.ResourceInvalidPath
	case errors.Is(err, skills.ErrResourceNotFound):
		return contract.ResourceNotFound
	case errors.Is(err, skills.ErrResourceTooLarge):
		return contract.ResourceTooLarge
	}
	return contract.ResourceProviderError
}

// providerMessage is the text the model sees for a provider failure: the
// provider's own, not the registry's wrapping, bounded.
func providerMessage(err error) string {
	msg := err.Error()
	var le *skills.LoadError
	if errors.As(err, &le) && le.Err != nil {
		msg = le.Err.Error()
	}
	return BoundText(msg, MaxProviderErrorBytes)
}

// Notes are what the snapshot a step's callback answered with said beside
// its skills: names shared across origins (skills.Snapshot.Diagnostics),
// why it was incomplete (Incomplete) and which best-effort providers could
// not list (Degraded), each line bounded.
type Notes struct {
	Shared, Incomplete, Degraded []string
	// Locked are the skills the registry's lock left out (LockedOut).
	Locked []skills.LockedOut
}

// SnapshotNotes returns the notes of a registry's snapshot.
func SnapshotNotes(s skills.Snapshot) Notes {
	return Notes{
		Shared:     s.Diagnostics,
		Incomplete: BoundLines(s.Incomplete, MaxProviderErrorBytes),
		Degraded:   BoundLines(s.Degraded, MaxProviderErrorBytes),
		Locked:     s.LockedOut,
	}
}

// AddNotes adds the host's own notes to a step's diagnostics and reasons:
// names shared across origins on a publishing step, why an incomplete
// snapshot was incomplete, and which best-effort providers could not list.
func AddNotes(resp contract.StepResponse, n Notes) (diagnostics []string, reasons []contract.Reason) {
	diagnostics, reasons = resp.Diagnostics, slices.Clip(resp.Reasons)
	if len(n.Shared) > 0 && publishes(resp.Outcome) {
		diagnostics = append(slices.Clip(diagnostics), n.Shared...)
		for _, s := range n.Shared {
			reasons = append(reasons, contract.Reason{Code: contract.ReasonNameCollision, Detail: s})
		}
	}
	if resp.Outcome == contract.OutcomeIncomplete {
		// The plugin says the snapshot was incomplete; the registry said why.
		for _, why := range n.Incomplete {
			reasons = append(reasons, contract.Reason{Code: contract.ReasonProviderIncomplete, Detail: why})
		}
	}
	for _, why := range n.Degraded {
		reasons = append(reasons, contract.Reason{Code: contract.ReasonProviderDegraded, Detail: why})
	}
	for _, lo := range n.Locked {
		code := contract.ReasonLockMismatch
		if lo.Reason == skills.ReasonNotLocked {
			code = contract.ReasonNotLocked
		}
		reasons = append(reasons, contract.Reason{Code: code, Detail: BoundText(lo.String(), MaxProviderErrorBytes)})
	}
	return diagnostics, reasons
}

// publishes reports whether a step with outcome o published a catalog.
func publishes(o contract.Outcome) bool {
	return o == contract.OutcomeInitial || o == contract.OutcomeReplacement || o == contract.OutcomeTombstone
}
