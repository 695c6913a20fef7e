// Package skills is the host's skill registry: the place where a runtime
// registers skills and attaches providers, and from which the skill catalog
// plugin obtains a session's snapshot of skill summaries and, on demand, a
// single skill's definition.
//
// Sources are attached to scopes (for example "global" or an agent's scope).
// A [Query] names the scopes to consider, nearest first; for every skill name
// the nearest scope wins, then the higher rank, then the earlier registration.
//
// Providers are listed concurrently for each snapshot. A strict provider
// that fails or reports an incomplete observation makes the whole snapshot
// incomplete, which callers treat as "no authoritative answer this time".
// Complete snapshots are cached per (session, cwd, scope chain, registry
// revision); any registration change, an explicit Invalidate, or a
// provider's own invalidation bumps the revision and drops the cache.
// Providers that cannot announce their own changes (they do not implement
// [Invalidator]) are listed on every snapshot that involves them, so their
// snapshots are never cached.
//
// # Best-effort providers
//
// A provider attached with [ProviderOptions.Availability] [BestEffort] (or, by
// default, one that declares itself so through [AvailabilityDeclarer], as
// remote providers such as mcpskills.Provider do) cannot hold back the
// others. While it cannot list (List fails, or its observation is
// incomplete) the snapshot stays complete: its own last-good listing for the
// same session and working directory stands in for it, and a provider that
// never listed there is left out. [Snapshot.Degraded] says so, one line per
// such provider (its label, scope and error, and "its last-good listing of N
// skills kept" or "left out until it lists"), and the host turns each line
// into a step reason (contract.ReasonProviderDegraded). A degraded snapshot
// is not cached, so the next snapshot lists the provider again and, when it
// answers, replaces the stand-in; until then the token, derived from content
// alone, is unchanged by a provider that flaps without changing its skills,
// so nothing is republished. A skill of a last-good listing is loaded from
// its provider, whose error Get returns; a name the snapshot does not list
// is not found, as for any complete snapshot.
//
// A best-effort provider also cannot hold a snapshot up for long. Its
// listing runs apart from the snapshot's, which waits for it at most
// 1/[BestEffortShare] (a quarter) of the time that was left before the
// snapshot's context deadline when the listing started (7.5 s of a 30 s
// step), or [DefaultBestEffortWait] (10 s) when the context has none. Past
// that the provider is degraded with [ErrStillListing] (its last-good
// listing stands in, or it is left out), and the listing goes on: it is
// not cancelled with the snapshot's context, keeps that context's deadline
// (a minute when it had none), and is shared by every snapshot of the same
// session and working directory while it runs, each waiting only for what
// is left of its share since the listing started, so a provider that
// hangs costs one share per listing, not one per step. Its answer, however
// late, becomes the provider's last-good listing, so a later snapshot
// shows it even if the provider is slow again.
//
// Memory and staleness are bounded per attachment: at most 256 listings,
// one per (session, working directory), the least recently listed dropped
// first, and equal listings share one copy. A listing is kept until the
// provider lists again for that pair, the session ends (EndSession) or the
// provider is detached; an outage does not age it out. Local providers
// (agentskills) and runtime skills are strict: a skill root that cannot be
// read keeps the whole catalog waiting, as before.
//
// # Locked skills
//
// A registry with [RegistryOptions.Lock] (package skilllock) digests every
// skill a snapshot lists, as the lock defines the digest for the skill's
// kind (a provider computes it through [ContentDigester], from its files
// or from the digests its source publishes; any other through Load), and
// sets [skill.Summary.ContentDigest]. A skill whose digest is not the
// locked one, or cannot be computed, is left out of the snapshot (never
// replaced by another version: no source offers one by digest), and Get
// checks a definition it loads again, so content changed after the
// listing is refused with a [LoadError]. [Snapshot.LockedOut] names each
// skill left out and why ([ReasonLockMismatch], [ReasonNotLocked]), and
// the host turns each into a step reason. A snapshot that left a skill
// out is not cached, so every step says so until the skill matches again.
// A skill the lock does not name is left out or listed as
// [RegistryOptions.Unlocked] says. [RegistryOptions.RecordDigests]
// digests the listed skills without a lock, for the session's records.
// Digesting costs a read of each local skill's files whenever a snapshot
// is computed rather than taken from the cache.
//
// A host that sent a snapshot and is asked for the next one can ask
// [Registry.SnapshotChanges] for what changed since, rather than for the whole
// snapshot. When a query sees only runtime skills of one scope the registry
// answers from a short journal of that scope's changes, without building
// the snapshot: a change to one skill costs the same at 100 skills as at
// 10,000, apart from hashing the new token once.
//
// [Registry.ReadResource] reads one file of a skill's resources for the model's
// resource-read tool: below the skill's directory for a directory resource
// base (os.OpenRoot: no link leads out; the directory as the provider opens
// it when it implements [DirectoryOpener]), through the winning provider's
// optional [ResourceReader] for a URL base or provider-managed resources, and
// never for opaque guidance.
//
// With [RegistryOptions.TracerProvider] every provider call is a span, a child
// of the caller's: skillcatalog.provider.List, .Load, .ReadSkillResource and
// .OpenSkillDirectory, with the attributes skillcatalog.provider (the
// provider's label, [ProviderOptions.Label]), skillcatalog.operation,
// skillcatalog.result and, for a skill's calls, skillcatalog.skill. With
// [RegistryOptions.MeterProvider] the registry records, with bounded
// attributes only:
//
//   - skillcatalog.provider.duration, histogram, s: skillcatalog.provider,
//     skillcatalog.operation (List, Load, ReadSkillResource,
//     OpenSkillDirectory) and skillcatalog.result: ok; refused (an answer
//     the interface defines: a skill or file not found, a path refused);
//     error; canceled (the caller's context ended).
//   - skillcatalog.provider.errors, counter, {error}: the calls whose
//     result is error, by skillcatalog.provider and skillcatalog.operation.
//     An incomplete observation is not an error; it makes the step's
//     outcome incomplete.
package skills
