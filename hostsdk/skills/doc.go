// Package skills is the host's skill registry: the place where a runtime
// registers skills and attaches providers, and from which the skill catalog
// plugin obtains a session's snapshot of skill summaries and, on demand, a
// single skill's definition.
//
// Sources are attached to scopes (for example "global" or an agent's scope).
// A Query names the scopes to consider, nearest first; for every skill name
// the nearest scope wins, then the higher rank, then the earlier registration.
//
// Providers are listed concurrently for each snapshot. A provider that fails
// or reports an incomplete observation makes the whole snapshot incomplete,
// which callers treat as "no authoritative answer this time". Complete
// snapshots are cached per (session, cwd, scope chain, registry revision);
// any registration change, an explicit Invalidate, or a provider's own
// invalidation bumps the revision and drops the cache. Providers that cannot
// announce their own changes (they do not implement Invalidator) are listed
// on every snapshot that involves them, so their snapshots are never cached.
//
// ReadResource reads one file of a skill's resources for the model's
// resource-read tool: below the skill's directory for a directory resource
// base (os.OpenRoot: no link leads out; the directory as the provider opens
// it when it implements DirectoryOpener), through the winning provider's
// optional ResourceReader for a URL base or provider-managed resources, and
// never for opaque guidance.
package skills
