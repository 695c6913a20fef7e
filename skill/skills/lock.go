package skills

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skilllock"
)

// UnlockedPolicy says what a registry with a lock does with a skill the
// lock does not name.
type UnlockedPolicy uint8

const (
	// UnlockedLeaveOut, the zero value, leaves a skill the lock does not
	// name out of every snapshot (LockedOut says so, ReasonNotLocked).
	UnlockedLeaveOut UnlockedPolicy = iota
	// UnlockedAllow lists a skill the lock does not name as it would be
	// listed without a lock.
	UnlockedAllow
)

// The reasons of a LockedOut skill.
const (
	// ReasonLockMismatch: the lock names the skill, and its content's
	// digest is not the locked one (or could not be computed).
	ReasonLockMismatch = "lock-mismatch"
	// ReasonNotLocked: the lock does not name the skill, and
	// RegistryOptions.Unlocked leaves such skills out.
	ReasonNotLocked = "not-locked"
)

// LockedOut is a skill a registry's lock kept out of a snapshot.
type LockedOut struct {
	// Name is the skill's name as it would have been listed; Origin and
	// OriginKind say where it comes from, as a Summary does.
	Name       string
	Origin     string
	OriginKind skill.OriginKind
	// Reason is ReasonLockMismatch or ReasonNotLocked.
	Reason string
	// Detail says which digests differ, or why none was computed.
	Detail string
}

// String is the line a host's step reason carries.
func (l LockedOut) String() string {
	where := "local skill"
	if l.Origin != "" {
		where = l.OriginKind.String() + " " + l.Origin + "'s skill"
	}
	return fmt.Sprintf("%s %q left out: %s", where, l.Name, l.Detail)
}

// ContentDigester is implemented by providers that know a skill's content
// digest (skilllock's definition for the skill's kind) without loading it,
// or more cheaply: from a digest their source publishes, or by hashing a
// directory. found is false when the provider does not offer the skill. A
// provider without it is digested through Load: FilesDigest of one file,
// SKILL.md, holding the instructions Load returns.
type ContentDigester interface {
	ContentDigest(ctx context.Context, req LoadRequest) (digest string, found bool, err error)
}

// SkillsCLIDigester is implemented by providers of skills on disk that
// digest a skill as the skills CLI does (skilllock.SkillsCLITreeDigest):
// what a lock read from a skills-lock.json (skilllock.OrderSkillsCLI)
// compares with.
type SkillsCLIDigester interface {
	SkillsCLIDigest(ctx context.Context, req LoadRequest) (digest string, found bool, err error)
}

// lockedDigest is digestOf in the form the lock entry e records.
func lockedDigest(ctx context.Context, q Query, sum skill.Summary, src source, e skilllock.Entry) (string, bool, error) {
	if e.Order != skilllock.OrderSkillsCLI || src.runtime != nil {
		return digestOf(ctx, q, sum, src)
	}
	d, ok := src.provider.p.(SkillsCLIDigester)
	if !ok {
		return "", false, fmt.Errorf("provider %s cannot digest a skill as the skills CLI does", src.provider.label)
	}
	return d.SkillsCLIDigest(ctx, LoadRequest{SessionID: q.SessionID, Cwd: q.Cwd, Name: sum.Name})
}

// LockKey is the key a lock files a listed skill under: its kind, its
// origin, and its plain name (a remote skill listed under its qualified
// name is locked by its plain one).
func LockKey(s skill.Summary) skilllock.Key {
	if s.Origin == "" {
		return skilllock.Key{Kind: skilllock.KindLocal, Name: s.Name}
	}
	kind := skilllock.KindMCP
	if s.OriginKind == skill.OriginWebsite {
		kind = skilllock.KindWebsite
	}
	name := strings.TrimPrefix(s.Name, s.Origin+string(skill.QualifierSeparator))
	return skilllock.Key{Kind: kind, Origin: s.Origin, Name: name}
}

// ContentDigest returns the content digest of the skill a snapshot for q
// lists under name, as a lock records it; found is false when q's snapshot
// does not list it. A registry with a lock digests only the skills it
// lists, so a skill it left out is not found.
func (r *Registry) ContentDigest(ctx context.Context, q Query, name string) (string, bool, error) {
	v, err := r.view(ctx, q)
	if err != nil {
		return "", false, err
	}
	i, ok := slices.BinarySearchFunc(v.skills, name, func(s skill.Summary, n string) int { return strings.Compare(s.Name, n) })
	if !ok {
		return "", false, nil
	}
	if d := v.skills[i].ContentDigest; d != "" {
		return d, true, nil
	}
	return digestOf(ctx, q, v.skills[i], v.sources[i])
}

// digestOf computes the content digest of one listed skill.
func digestOf(ctx context.Context, q Query, sum skill.Summary, src source) (string, bool, error) {
	if src.runtime != nil {
		return skilllock.FilesDigest([]skilllock.File{{Path: "SKILL.md", Content: []byte(src.runtime.def.Content)}}), true, nil
	}
	req := LoadRequest{SessionID: q.SessionID, Cwd: q.Cwd, Name: sum.Name}
	if d, ok := src.provider.p.(ContentDigester); ok {
		return d.ContentDigest(ctx, req)
	}
	def, found, err := src.provider.loadChecked(ctx, req)
	if err != nil || !found {
		return "", found, err
	}
	return skilllock.FilesDigest([]skilllock.File{{Path: "SKILL.md", Content: []byte(def.Content)}}), true, nil
}

// applyLock returns v with every skill's ContentDigest set, without the
// skills r's lock keeps out, and the skills it kept out. A complete view
// stays complete: the lock decides, not an outage.
func (r *Registry) applyLock(ctx context.Context, q Query, v *view) (*view, error) {
	out := &view{complete: v.complete, unlisted: v.unlisted, diagnostics: v.diagnostics,
		incomplete: v.incomplete, degraded: v.degraded}
	for i, s := range v.skills {
		d, lo, err := r.lockVerdict(ctx, q, s, v.sources[i])
		if err != nil {
			return nil, err
		}
		if lo != nil {
			out.locked = append(out.locked, *lo)
			continue
		}
		s.ContentDigest = d
		out.skills = append(out.skills, s)
		out.sources = append(out.sources, v.sources[i])
	}
	if out.complete {
		out.token = snapshotToken(out.skills)
	}
	return out, nil
}

// lockVerdict returns s's content digest ("" when it could not be
// computed) and whether the lock keeps s out, and why; nil lets it in.
// Only the caller's ending context is an error: a digest that cannot be
// computed keeps a locked skill out, and leaves an unlocked one's unknown.
func (r *Registry) lockVerdict(ctx context.Context, q Query, s skill.Summary, src source) (string, *LockedOut, error) {
	e, locked := r.lock.Lookup(LockKey(s))
	if !locked {
		if r.lock != nil && r.unlocked != UnlockedAllow {
			return "", &LockedOut{Name: s.Name, Origin: s.Origin, OriginKind: s.OriginKind, Reason: ReasonNotLocked,
				Detail: "the lock does not name it"}, nil
		}
		d, found, err := digestOf(ctx, q, s, src)
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
		if err != nil || !found {
			d = ""
		}
		return d, nil, nil
	}
	got, found, err := lockedDigest(ctx, q, s, src, e)
	if ctx.Err() != nil {
		return "", nil, ctx.Err()
	}
	if lo := mismatch(s, e, got, found, err); lo != nil {
		return "", lo, nil
	}
	return got, nil, nil
}

// mismatch is the verdict on a locked skill whose digest is got: nil when
// it is the locked one.
func mismatch(s skill.Summary, e skilllock.Entry, got string, found bool, err error) *LockedOut {
	var detail string
	switch {
	case err != nil:
		detail = fmt.Sprintf("its content digest could not be computed (%v); the lock has %s", err, e.Digest)
	case !found:
		detail = "its source no longer offers it; the lock has " + e.Digest
	case got != e.Digest:
		detail = fmt.Sprintf("its content is %s, the lock has %s", got, e.Digest)
	default:
		return nil
	}
	return &LockedOut{Name: s.Name, Origin: s.Origin, OriginKind: s.OriginKind, Reason: ReasonLockMismatch, Detail: detail}
}

// checkLoaded checks def, loaded from a provider for the listed skill sum,
// against the lock again: the content may have changed since the listing.
// It returns the mismatch as an error, nil when def may be served.
func (r *Registry) checkLoaded(ctx context.Context, q Query, sum skill.Summary, src source, def skill.Definition) error {
	e, locked := r.lock.Lookup(LockKey(sum))
	if !locked {
		return nil // listed, so the policy allows it
	}
	var got string
	found, err := true, error(nil)
	_, digester := src.provider.p.(ContentDigester)
	if digester || e.Order == skilllock.OrderSkillsCLI {
		got, found, err = lockedDigest(ctx, q, sum, src, e)
	} else {
		got = skilllock.FilesDigest([]skilllock.File{{Path: "SKILL.md", Content: []byte(def.Content)}})
	}
	if lo := mismatch(sum, e, got, found, err); lo != nil {
		return fmt.Errorf("%s: %s", ReasonLockMismatch, lo.Detail)
	}
	return nil
}

// lockUnlisted holds a skill an incomplete snapshot did not list, loaded
// from a provider whose listing failed, to the lock as a listed one is: not
// found when the lock leaves unlocked skills out and does not name it, a
// LoadError when its content is not the locked version.
func (r *Registry) lockUnlisted(ctx context.Context, q Query, def skill.Definition, src source) (skill.Definition, source, bool, error) {
	if _, locked := r.lock.Lookup(LockKey(def.Summary)); !locked && r.unlocked != UnlockedAllow {
		return skill.Definition{}, source{}, false, nil
	}
	if err := r.checkLoaded(ctx, q, def.Summary, src, def); err != nil {
		return skill.Definition{}, source{}, false, &LoadError{Name: def.Name, Provider: def.Provider, Err: err}
	}
	return def, src, true, nil
}
