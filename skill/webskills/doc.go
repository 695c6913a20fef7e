// Package webskills is a skills.Provider for the skills a website publishes
// under the Agent Skills Discovery RFC (/.well-known/agent-skills/), and
// the writer of such a site (Publish, behind `skillcatalog publish`).
//
// # The index
//
// One Provider reads one site (Options.URL): its v0.2.0 index at
// <site>/.well-known/agent-skills/index.json, or, when that answers 404 or
// 410, the v0.1.0 index at <site>/.well-known/skills/index.json; a URL
// whose path ends in /index.json is read as it is. A v0.2.0 index has
// "$schema" https://schemas.agentskills.io/discovery/0.2.0/schema.json and
// per skill a name, a type ("skill-md" or "archive"), a description, a url
// (resolved against the index's URL after redirects, per RFC 3986) and a
// digest "sha256:<64 lower-case hex digits>" of the artifact's exact
// bytes. An index with another $schema is not read (ErrUnknownSchema); one
// without is v0.1.0: per skill a name, a description and "files", paths
// relative to <index directory>/<name>/, SKILL.md among them, and no
// digests. Options.RequireDigests refuses v0.1.0 indexes. An entry that
// breaks a rule (a name outside the grammar, an unknown type, a malformed
// digest, a url that is not http or https, an unsafe file path) is
// dropped with a diagnostic (Diagnostics); unknown members are ignored;
// descriptions are whitespace-normalized and bounded.
//
// # Verification
//
// Listing reads the index alone. Loading a skill fetches its artifact and
// compares the SHA-256 of the exact bytes received with the index's digest
// before anything else is done with them: a mismatch is refused
// (ErrVerification) and nothing of it is used, cached or shown, and the
// index is read again at the next listing. An archive is unpacked only
// once verified, in memory, and refused (ErrArchive, and one of its kinds)
// when an entry's path is absolute or leaves the skill's directory, when it
// holds a link or a special file, more than MaxArchiveFiles (512)
// entries, more than MaxUnpackedBytes (16 MiB) of files, more than
// MaxCompressionRatio (100) times its own size once past RatioFloorBytes
// (1 MiB), or no SKILL.md at its root. Its format is chosen by its
// Content-Type (application/gzip, application/zip and their aliases), else
// by its URL's extension (.tar.gz, .tgz, .zip). The SKILL.md must then be
// UTF-8 (refused otherwise, matching skill.ErrInvalidUTF8, as a file on
// disk is; never repaired) and name the skill the index names. The errors
// name the skill and the site:
//
//	webskills: skill "pdf" from website "docs": SKILL.md does not match the digest in the index; not used
//	webskills: skill "pdf" from website "docs": the archive holds "../x", a path that leaves the skill's directory; not unpacked
//
// A v0.1.0 index has no digests: its skills are read as the RFC documents
// for compatibility, unverified, and their files are cached by URL under
// HTTP's rules: a file is used without asking the site while its
// Cache-Control max-age (less Age; Options.DefaultMaxAge when it says
// nothing) lasts and no newer index was read than the one it was fetched
// under; then it is asked for again, conditionally (If-None-Match,
// If-Modified-Since), and a 304 keeps the copy. Under no-cache or no-store
// every load asks again. A site that changes a file and its index is so
// loaded anew, in every session that loads it after it listed the new
// index.
//
// # Names and what the model sees
//
// Each skill is listed with its plain name, Provider and Origin the site's
// label (Options.Label, assigned by the host, never taken from the site),
// OriginKind skill.OriginWebsite and QualifiedName "<label>:<name>". As for
// any skill with an origin, the plugin names the origin, as a website, on
// the skill's catalog line (-`wrangler` (website `docs`): ...) and in its
// loaded content, shows every byte of it XML-escaped, and lists it under its
// qualified name when another origin's skill, or a local one, shares its
// name. Load and ReadSkillResource accept either name. A loaded skill's
// resource base is skill://<name>/: skill_resource reads an archive
// skill's files out of its verified archive (ReadSkillResource), a
// skill-md skill has its SKILL.md alone, and a v0.1.0 skill the files its
// entry lists.
//
// # HTTP
//
// Requests are GETs with a User-Agent of their own and Accept-Encoding:
// identity (the transport decodes nothing, so the bytes hashed are the
// bytes served). Each is bounded by Options.RequestTimeout, from connecting
// to its body's last byte, so a slow body fails it; by Options.MaxRedirects
// redirects, never to another scheme; and in size (the index by
// MaxIndexBytes, a SKILL.md by skill.MaxSkillFileBytes, an archive by
// MaxArtifactBytes), by Content-Length and while reading. Only https is
// spoken, except plain http to the configured site's own origin with
// Options.AllowHTTP. A status other than 200 is an error naming the status;
// a site's own words never reach an error text.
//
// The index is read again once it is no longer fresh: after its
// Cache-Control max-age (less Age), at once under no-cache or no-store,
// else after Options.DefaultMaxAge; never more often than MinRefresh (1 s)
// nor less often than MaxRefresh (24 h). The read is conditional
// (If-None-Match, If-Modified-Since), and a 304 keeps the listing. When the
// index it listed from stops being fresh, the provider invalidates, so a
// registry lists again.
//
// # Caches and sessions
//
// The index is shared by every session; each session pins the listing its
// catalog came from until it lists again or ends (EndSession), so a skill
// loads as it was listed. What sessions pin is bounded by
// Options.PinnedMaxBytes (32 MiB by default): a listing pinned by several
// sessions counts once, the newest not at all (the provider keeps it
// anyway), and each session its bookkeeping. Past the bound the least
// recently used sessions lose their pins, as an ended session does (the
// session that just listed keeps its own): such a session resolves its
// loads and reads in the newest listing, so a skill the site changed since
// loads as it is now and one it removed is not found, until the session
// lists again and pins what it is shown. A host that never ends its
// sessions is so bounded all the same. Verified artifacts (a SKILL.md, or an archive's
// unpacked files) are cached per provider, that is per site, keyed by
// their digest, and v0.1.0 files by their URL (see above), at most
// Options.CacheMaxBytes (64 MiB by default) and 4096 artifacts, least
// recently used dropped first; an artifact larger than the bound is used
// but not cached.
//
// # Failure
//
// A site that cannot be reached, times out, or serves a malformed index
// makes List return an incomplete observation and an error. The provider is
// best-effort (skills.AvailabilityDeclarer): a registry keeps publishing
// the other sources' skills with this site's last-good listing, or without
// its skills, and says so in skills.Snapshot.Degraded. A site that answers
// slowly (a trickling index) costs a snapshot at most a share of its
// caller's time (skills.BestEffortShare), whatever RequestTimeout is; the
// index read goes on under the provider's own context, shared by every
// caller, and what it reads is listed by a later step.
package webskills
