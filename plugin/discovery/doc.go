// Package discovery lets the plugin discover a mount's skills itself, for
// hosts that ask for it in a ConfigureRequest (contract.Discovery, the
// protocol's discovery_json): skill directories with the presets of the Go
// host SDK, project trust, and MCP skill servers. The host then serves
// only the session log (ReadEvents) and the tools' identities; the working
// directory and the agent still come with each step. This is the short
// path of proto/HOSTS.md.
//
// The plugin runs the very providers a Go host attaches to its registry
// (agentskills, mcpskills, skills.Registry) and answers its own Snapshot,
// GetSkill and ReadResource from them as the Go host SDK answers the
// plugin's callbacks (internal/hostanswer), so a discovering mount
// publishes the same catalogs under the same tokens, answers tools with
// the same texts and gives a step the same diagnostics and reasons as a Go
// host whose registry holds, in its global scope:
//
//	agentskills.New(DiskOptions(d, logger)), attached with Label DiskLabel
//	mcpskills.New(ServerOptions(s, logger)) for each server s, attached with
//	Label s.Label ("mcp" when empty), Rank s.Rank and Availability
//	best-effort (or strict)
//	webskills.New(WebsiteOptions(w, logger)) for each website w, attached
//	with Label w.Label ("web" when empty), Rank w.Rank and Availability
//	best-effort (or strict)
//
// Skill directories are watched (live refresh), so a skill added, changed
// or removed on disk is published at the next step; a server's skills are
// read again as its index ages or it says they changed.
//
// # What the plugin touches
//
// Reads, never writes:
//
//   - each of SkillRoots, and what lies below it;
//   - the user-level roots: <homeDir>/.agents/skills and, per preset,
//     <homeDir>/.claude/skills (claude-code) or <homeDir>/.codex/skills and
//     /etc/codex/skills (codex), where homeDir is Discovery.HomeDir or, when
//     empty, the home directory of the plugin process's environment;
//   - for a step's working directory: its ancestors, up to 32 of them, are
//     looked at (not read) to find the project root, the nearest holding
//     .git; in a trusted project (TrustProjects, or a root at or below one
//     of TrustedProjects) the same client directories (.agents/skills and
//     the presets') of every directory from the project root down to the
//     working directory are read too. An untrusted project's are only
//     looked at, to warn that they are ignored. A working directory that is
//     not absolute is refused.
//
// Symbolic links are followed as package agentskills says; a resource read
// stays below its skill's directory (os.OpenRoot). Directories are watched
// with the system's file notifications, one watcher per configuration.
//
// Connects only to the URL of each MCP server, sending its headers only to
// that origin and following no redirect: https, or plain http to a
// loopback address (localhost, 127.0.0.0/8, ::1), or to any address with
// allowHttp. The plugin starts no program: a server configured with a
// command is refused, since the plugin would run it with the host's
// privileges from a configuration that crossed a connection, outside the
// host's supervision of its own processes; a host that needs a stdio
// server runs it itself and serves its own snapshots, or serves it over
// HTTP on loopback.
//
// # Bounds
//
// A configuration is at most MaxConfigBytes of JSON, with at most
// MaxSkillRoots roots, MaxTrustedProjects trusted directories and
// MaxServers servers of at most MaxHeaders headers each; paths are
// absolute and at most MaxPathBytes. Unknown options are refused.
//
// Each of SkillRoots must be, when a mount opens the configuration's
// providers, a directory the plugin can read, or not exist yet (it is
// then empty until it appears). A root that is a file, a FIFO, a device, a
// symbolic link loop or a link to nothing, or a directory the plugin may
// not read, refuses the Configure with a *contract.ConfigError naming
// skillRoots[i] and the path: the skill directories' provider would find
// it unlistable at every step, making every listing incomplete, so no
// root's skills would ever be published. A root that turns into such a
// thing later makes the listings incomplete (with a reason naming it)
// until it is repaired, and the mount keeps the catalog it published
// last, as for any root that cannot be read. One
// plugin process serves at most MaxConfigurations distinct configurations
// at a time: mounts whose configurations are the same share one set of
// providers, which is closed when the last of them is unmounted, and all
// are closed when the plugin stops (Service.Close). Each provider keeps
// its own bounds (agentskills: 10,000 entries a listing, 32 levels up;
// mcpskills: its entry, size, cache and timeout limits).
//
// # Skill locks
//
// LockFile (a skillcatalog lock file, or a skills CLI skills-lock.json by
// its name) is read when the configuration's providers open
// (LockOptions), and pins every discovered skill through the registry's
// lock, the same code a Go host's skills.RegistryOptions.Lock runs: a
// skill whose content is not the locked version is left out and refused
// at load, and every step says so with the reasons lock-mismatch and
// not-locked (Unlocked "allow" lists the skills the lock does not name).
// A lock file that cannot be read or parsed refuses the Configure. The
// file is read once: a changed lock takes a new configuration.
package discovery
