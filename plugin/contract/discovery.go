package contract

import "encoding/json"

// Discovery asks the plugin to discover a mount's skills itself, from skill
// directories and MCP skill servers, instead of calling the host's
// Snapshot, GetSkill and ReadResource (proto/HOSTS.md, "The short path").
// Its JSON form is a ConfigureRequest's Discovery: a Go host builds one and
// sends JSON(); a host in another language writes the object itself. The
// plugin refuses an invalid one with a *ConfigError naming the option and
// its bound (see package plugin/discovery for the bounds and for what the
// plugin then reads and connects to).
type Discovery struct {
	// SkillRoots are directories of skills (each holds one directory per
	// skill, with its SKILL.md): absolute paths, scanned as user-level
	// roots below the home directory's.
	SkillRoots []string `json:"skillRoots,omitempty"`
	// Presets name the skill layouts scanned: "agent-skills" (.agents/skills,
	// always scanned, so naming it changes nothing), "claude-code"
	// (.claude/skills, and the leniencies of Claude Code) and "codex"
	// (.codex/skills, and /etc/codex/skills), as agentskills.Preset says.
	Presets []string `json:"presets,omitempty"`
	// HomeDir is the home directory whose client directories
	// (<home>/.agents/skills and the presets') are user-level roots: an
	// absolute path. Empty means the plugin process's home directory, the
	// HOME of the environment the host started it with.
	HomeDir string `json:"homeDir,omitempty"`
	// TrustProjects loads the project skills of every step's working
	// directory: the .agents/skills (and the presets' directories) of each
	// directory from the project root (the nearest ancestor holding .git)
	// down to the working directory.
	TrustProjects bool `json:"trustProjects,omitempty"`
	// TrustedProjects trusts only the projects whose root is one of these
	// absolute directories or lies below one. Set it or TrustProjects, not
	// both; neither loads no project's skills.
	TrustedProjects []string `json:"trustedProjects,omitempty"`
	// MCPServers are MCP skill servers reached over streamable HTTP.
	MCPServers []DiscoveryServer `json:"mcpServers,omitempty"`
	// Websites are sites that publish skills under the Agent Skills
	// Discovery RFC (/.well-known/agent-skills/), as package webskills
	// reads them.
	Websites []DiscoveryWebsite `json:"websites,omitempty"`
	// HonourDirectives names the kinds of directive the host acts on when
	// a trusted skill asks for them: "context" (a fork), "model",
	// "allowed-tools" (skill.DirectiveSet's names). The plugin marks them
	// honoured in the definitions it loads, and states every other kind a
	// skill asks for as not acted on. Empty: the host acts on none.
	HonourDirectives []string `json:"honourDirectives,omitempty"`
	// LockFile is a skill lock (an absolute path to a lock file in
	// package skilllock's format, or to a skills CLI skills-lock.json),
	// read when the sources open: every skill is pinned to the content
	// digest it records, and one whose content changed is left out
	// (reason lock-mismatch), never served changed. Empty: no lock.
	LockFile string `json:"lockFile,omitempty"`
	// Unlocked says what a LockFile does with a skill it does not name:
	// "leave-out" (the default; reason not-locked) or "allow".
	Unlocked string `json:"unlocked,omitempty"`
}

// The values of Discovery.Unlocked.
const (
	UnlockedLeaveOut = "leave-out"
	UnlockedAllow    = "allow"
)

// DiscoveryServer is one MCP skill server of a Discovery: a server that
// declares the MCP Skills extension, or one that publishes
// skill://index.json, as package mcpskills reads them.
type DiscoveryServer struct {
	// URL is the server's streamable HTTP endpoint: https, or http to a
	// loopback address (or with AllowHTTP).
	URL string `json:"url"`
	// Headers are sent with every request to URL's origin, typically
	// Authorization. Their values never appear in errors or logs.
	Headers map[string]string `json:"headers,omitempty"`
	// Label is the name the host gives the server: the provider and
	// origin of its skills and the first part of their qualified names
	// (skill.ValidLabel). Empty means "mcp"; two servers may not share one.
	Label string `json:"label,omitempty"`
	// Rank orders same-name skills of the host's own, as a provider's
	// skills.ProviderOptions.Rank does: higher wins.
	Rank int `json:"rank,omitempty"`
	// Availability is "best-effort" (empty means it: a server that cannot
	// list keeps its last-good listing and holds back nothing else) or
	// "strict" (a server that cannot list makes the snapshot incomplete).
	Availability string `json:"availability,omitempty"`
	// AllowHTTP permits a plain http URL to a host that is not a loopback
	// address.
	AllowHTTP bool `json:"allowHttp,omitempty"`
	// SkillURIs are SKILL.md URIs fetched even when the server's listing
	// leaves them out (mcpskills.Options.SkillURIs).
	SkillURIs []string `json:"skillUris,omitempty"`
	// RequestTimeoutMs bounds each request, in milliseconds; 0 means 30 s.
	RequestTimeoutMs int `json:"requestTimeoutMs,omitempty"`
	// IndexMaxAgeMs is how long a session reuses its copy of a server's
	// index, in milliseconds; 0 means 30 s.
	IndexMaxAgeMs int `json:"indexMaxAgeMs,omitempty"`
	// TrustDirectives is the host's opt-in to act on the directives of
	// this server's skills (skills.ProviderOptions.TrustDirectives):
	// without it, they are requests the host never acts on.
	TrustDirectives bool `json:"trustDirectives,omitempty"`
}

// DiscoveryWebsite is one website of a Discovery, read as
// webskills.Options says: its label names it as an MCP server's does, and
// the two share one set of labels.
type DiscoveryWebsite struct {
	// URL is the site (or the URL of its index): https, or http to a
	// loopback address (or with AllowHTTP).
	URL string `json:"url"`
	// Label is the name the host gives the site (skill.ValidLabel). Empty
	// means "web"; no two websites or MCP servers may share one.
	Label string `json:"label,omitempty"`
	// Rank orders same-name skills of the host's own: higher wins.
	Rank int `json:"rank,omitempty"`
	// Availability is "best-effort" (empty means it) or "strict", as a
	// server's.
	Availability string `json:"availability,omitempty"`
	// AllowHTTP permits plain http to the site's own origin when it is
	// not a loopback address.
	AllowHTTP bool `json:"allowHttp,omitempty"`
	// RequireDigests refuses a v0.1.0 index, whose skills carry no
	// digests to verify them by.
	RequireDigests bool `json:"requireDigests,omitempty"`
	// RequestTimeoutMs bounds each request, in milliseconds; 0 means 30 s.
	RequestTimeoutMs int `json:"requestTimeoutMs,omitempty"`
	// TrustDirectives is the host's opt-in to act on the directives of
	// this site's skills, as a server's.
	TrustDirectives bool `json:"trustDirectives,omitempty"`
}

// JSON returns the discovery's JSON form, the object a ConfigureRequest's
// Discovery carries.
func (d Discovery) JSON() string {
	b, err := json.Marshal(d)
	if err != nil {
		// Strings, integers, booleans and maps of strings always encode.
		panic("contract: encode discovery: " + err.Error())
	}
	return string(b)
}
