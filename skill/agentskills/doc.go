// Package agentskills is a skills.Provider over Agent Skills directories on
// disk: every direct subdirectory of a skill root that holds a file named
// exactly SKILL.md is a skill. It lets a host offer the skills its users
// already keep in .agents/skills (and client directories such as
// .claude/skills) without writing a provider of its own.
//
// # Roots
//
// For a working directory cwd the roots are, in precedence order:
//
//  1. Project roots. Starting at cwd, the provider walks upward to the
//     repository root, the nearest directory holding .git (a directory or
//     a file, as in worktrees and submodules), examining at most
//     Options.MaxDepth directories. At every level from cwd up to the
//     repository root it reads <level>/.agents/skills and then
//     <level>/<client>/skills for each of Options.ClientDirs in order.
//     Without a repository root within reach the project is cwd alone.
//     So skill folders nested below the repository root (a monorepo's
//     packages/web/.claude/skills) are found while the session works in
//     that directory or below it, and not elsewhere: a listing is per
//     working directory, and a session whose working directory moves
//     asks for the listing of the new one (its snapshot is per cwd and
//     agent scope), each level under the repository root's trust.
//  2. User roots: <home>/.agents/skills, <home>/<client>/skills for each
//     client directory, then Options.ExtraRoots in order, then the roots
//     a preset adds (PresetCodex: /etc/codex/skills). An extra root that
//     itself holds a SKILL.md is one skill's own directory, that skill
//     alone.
//
// Options.Presets add an ecosystem's layout: PresetClaudeCode the client
// directory .claude (so ~/.claude/skills and <level>/.claude/skills),
// PresetCodex the client directory .codex and /etc/codex/skills. Without
// a preset or ClientDirs only .agents/skills is scanned.
//
// A project root that is also a user root (cwd is the home directory) is
// read once, as a user root. Roots that resolve to the same directory
// through symbolic links count once, at the first rank.
//
// # Precedence
//
// Skills are named by the name field of their frontmatter. When two skills
// share a name the first in this order wins: project before user, a nearer
// project level before a farther one, .agents before client directories,
// client directories in option order, then directory names in byte order
// within one root. Every shadowed skill is reported as a diagnostic.
// Shadowing is decided before invocation flags apply, so a project skill
// with disable-model-invocation still hides a user skill of the same name.
//
// # Trust
//
// Project skills come from repositories that may not be trustworthy, so
// they load only when Options.TrustProject returns true for the project
// root. The default (nil) trusts no project: only user-level skills are
// offered. To change it, pass a TrustProject function that consults the
// host's own trust store; after a decision changes, call
// Provider.Invalidate so cached listings are dropped and the registry
// lists again. An untrusted project's roots are not read at all; each
// existing one is reported as a warning, its skills never reach a listing,
// and Load does not find them.
//
// # Parsing
//
// The `paths` field (Claude Code's: glob patterns, a list or one
// comma-separated string) is read by skill.ParsePaths into
// Frontmatter.Paths and skill.Summary.Paths; a malformed pattern is left
// out with a warning. The plugin offers such a skill once the session
// touched a matching file (see package plugin).
//
// See ParseSkillFile and Frontmatter.Validate. Loading is lenient, as in
// other hosts: a name that differs from the directory name or is longer
// than 64 characters is a warning; a missing name is the directory's name
// (when that is a valid skill name), as Claude Code names such a skill,
// with a warning; a name outside the kebab-case grammar, a missing or
// empty description, a missing or unclosed frontmatter block, and YAML
// that does not parse even after the colon retry skip the skill with an
// error diagnostic. With PresetClaudeCode a missing description is the
// first paragraph of the body (the first run of non-blank lines that is
// not a heading, a code fence, an HTML comment or a rule), and a file
// without frontmatter loads, named after its directory; each is reported
// as a warning. CheckSkillFile checks a file against the specification
// itself and says which of these leniencies loading it takes. Descriptions are passed on as decoded; the
// catalog normalizes them. Listing reads at most the frontmatter of each
// file; Load reads the whole file again, so the body is never cached and a
// body-only edit is visible to the next load.
//
// Each provider keeps the parsed frontmatter of the SKILL.md files it has
// read, together with the diagnostics the parse produced, keyed by path
// and valid only for the file version it was read from: the same device
// and inode, size, modification time and status change time. A rescan
// therefore only stats an unchanged SKILL.md, while an edit, a file renamed
// over it, or a restored modification time (which moves the change time)
// makes it read again. Because time stamps are coarse, a file changed less
// than a few seconds before it was read is not cached until it has aged,
// as git does with racily clean index entries. This relies on the file
// system updating those times, as local file systems do. Where the
// platform reports no inode or change time (Windows, for one) nothing is
// cached. The cache
// holds at most 16,384 files and about 32 MiB of frontmatter, evicting the
// least recently used; a set of roots with more skills than that is read
// in full on every scan.
//
// # Limits
//
// Scanning never descends below a root's direct subdirectories. .git and
// node_modules entries are skipped. Symbolic links to skill directories are
// followed after resolving them; a link that points at its root or an
// ancestor of it, a cycle of links, or a dangling link is skipped with a
// warning, and a directory reached through several links is listed once.
//
// Load, and the host's reads of a skill's files for the model (the
// provider is a skills.DirectoryOpener), open the skill's directory once
// and read its SKILL.md and the file through that opened directory: the
// file is served only if the SKILL.md next to it still declares the skill,
// so a skill directory swapped for a link to a directory that holds no
// such skill serves nothing from there.
// Options.MaxDirs bounds the entries examined per List across all roots;
// past it the listing is incomplete and an error diagnostic says so.
// Frontmatter is limited to MaxFrontmatterBytes and SKILL.md files to
// MaxSkillFileBytes.
//
// # Refresh and completeness
//
// Without Options.Watch every List scans every root (reading directories
// and stat'ing each SKILL.md; see Parsing), and each List ends by
// calling the invalidate callback: the provider cannot tell when the
// directories change, so a registry must not cache its snapshots.
//
// With Options.Watch the provider watches, with fsnotify, every root, every
// skill directory (for SKILL.md only), and the directories above each root
// up to its level (the project level directory, the home directory, or an
// extra root's parent), so roots that do not exist yet are noticed when
// they appear; when even those are missing, the nearest existing ancestor
// is watched. Changes to other files of a skill (its resources) and to
// unrelated entries of watched ancestors are ignored. A relevant change
// drops the cached scans at once, and the invalidate callback fires after
// Options.Debounce of quiet, so a burst of changes (a checkout, a copy)
// becomes one invalidation. Between changes List is answered from cache.
// The watches of every working directory listed stay in place for the
// provider's lifetime, since a registry may still hold a snapshot for it;
// Close releases them.
//
// A listing is incomplete (skills.Observation.Complete false) when a root
// could not be listed, when a root this provider found earlier is gone
// (see below), when a SKILL.md could not be read for a reason that may
// pass, when MaxDirs ran out, or, for the first List after it, when the
// watcher reported an error (events may have been lost).
//
// A root that does not exist and never did is an empty root: user-level
// directories such as ~/.claude/skills often do not exist, and that is no
// failure. A root that some earlier scan of this provider found, and that
// is gone now (renamed away, an unmounted volume, a checkout being
// switched), makes the listing incomplete, with an error diagnostic
// naming the root, until it is back: a vanished root is far more often a
// passing state than every skill in it removed on purpose. A root emptied
// of skills is an authoritative empty listing. To accept that a root is
// gone, call Provider.Invalidate, which forgets the roots seen. An incomplete
// listing is never cached, so the next List tries again, and the plugin
// keeps its last good catalog meanwhile instead of taking an unreadable
// root for an empty one. Load of a name that is not found in an incomplete
// listing is an error rather than "not found".
//
// Errors reading one skill's SKILL.md are classified. Those that describe
// the file and last until someone changes it (permission denied, not a
// regular file, a symbolic link loop, a name too long) skip that skill with
// an error diagnostic naming the file; the listing stays complete, so one
// bad file does not hold back every other skill, and repairing it is a
// change like any other. Every other error (an I/O error, EAGAIN, EINTR,
// running out of file descriptors or memory, a canceled context, or an
// error not known to last) makes the listing incomplete.
//
// Provider.Survey says in one line (Survey.Summary) which roots a
// working directory's listing read, how many skills it offers, which it
// skipped and why (counted by SkipReason), and which directories of
// skills it left unread: an untrusted project's, and .claude/skills or
// .codex/skills where their preset is not configured. A YAML error names
// the line of the SKILL.md, counted from its opening '---'.
//
// Diagnostics from the latest scan of every working directory are
// available from Provider.Diagnostics, and reach Options.Logger when they
// first appear for a working directory (errors, such as a SKILL.md whose
// YAML does not parse, at warning level with the path and the reason;
// warnings at info level), not again while they persist; Provider.Skills exposes each
// skill's full frontmatter (license, compatibility, metadata,
// allowed-tools and unknown fields), which is never rendered into a
// catalog.
//
// # Directives
//
// A skill's `context`, `agent`, `model` and `allowed-tools` fields are
// what it asks of the runtime (skill.Directives): they are read as Claude
// Code writes them in every layout (skill.ParseDirectives: `context: fork`
// or Eino's `fork_with_context`, `model: inherit` as nothing asked,
// allowed-tools as a list or a string of tools separated by spaces or
// commas outside parentheses). Frontmatter.Directives holds them, and a
// loaded Definition carries them marked Trusted, the file being the host's
// own; a malformed or unknown value is a warning diagnostic and is not
// read, and the skill loads. Load reads the file each time, so a changed
// directive reaches the next load.
package agentskills
