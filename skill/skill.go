package skill

// InvocationPolicy says who may invoke a skill. The zero value forbids both;
// DefaultPolicy allows both.
type InvocationPolicy struct {
	// ModelInvocable lets the skill appear in the model's catalog and be
	// loaded with the `skill` tool.
	ModelInvocable bool
	// UserInvocable lets a user invoke the skill (for example as a slash
	// command). It does not restrict the model-facing catalog or tool.
	UserInvocable bool
}

// DefaultPolicy allows both the model and the user to invoke a skill.
func DefaultPolicy() InvocationPolicy {
	return InvocationPolicy{ModelInvocable: true, UserInvocable: true}
}

// Summary is what a listing says about one skill.
type Summary struct {
	Name        string
	Description string
	Invocation  InvocationPolicy
	// Provider labels where the skill came from, for example "runtime" or
	// "agentskills".
	Provider string
	// Origin is the host-assigned label of the remote source (an MCP
	// server, a website: OriginKind says which) that serves the skill, and
	// empty for the host's own skills (registered at runtime, on disk). A
	// skill with an origin is untrusted remote content: its catalog entry
	// and its loaded content name the source, and it never shadows, nor is
	// it substituted for, a skill of another origin.
	Origin string
	// OriginKind says what Origin labels; the zero value is an MCP server.
	// It is ignored for a skill without an Origin.
	OriginKind OriginKind
	// QualifiedName is set for a skill with an Origin: the name under which
	// it stays listed and loadable when Name collides with another skill
	// visible to the same session (see QualifiedName, ValidQualifiedName).
	QualifiedName string
	// ArgumentHint says what a user may write after `/name` (the
	// `argument-hint` frontmatter field, such as "[issue-number]"), for a
	// host's completion menu. It never reaches the model.
	ArgumentHint string
	// WhenToUse says when the skill applies, beyond its description (the
	// `when_to_use` frontmatter field Claude Code reads). A skill search
	// ranks by it; the catalog does not show it.
	WhenToUse string
	// Keywords are words a search should find the skill by (the
	// `keywords` or `tags` frontmatter field, top-level or in metadata),
	// as CleanKeywords writes them: separated by ", ". One string keeps a
	// Summary comparable.
	Keywords string
	// SearchText is more of the skill's own text for a skill search to
	// rank by, never shown to the model: the start of its instructions
	// (SearchTextOf), from a provider that reads them when it lists. At
	// most MaxSearchTextBytes.
	SearchText string
	// Paths scopes the skill to the files a session works with (the
	// `paths` frontmatter field Claude Code reads): glob patterns, one per
	// line (JoinPaths, PathPatterns), as ParsePaths keeps them. A skill
	// with patterns enters a session's catalog only once the session has
	// touched a file they match (MatchPaths); empty: always. One string
	// keeps a Summary comparable.
	Paths string
	// ContentDigest is the digest of the skill's content as a skill lock
	// records it ("sha256:" and 64 lower-case hexadecimal digits; package
	// skilllock defines it per kind of source), set by a registry that
	// computes digests (skills.RegistryOptions.Lock or RecordDigests);
	// empty when unknown. The catalog record names it, so a session's
	// log says which version of each skill its catalog listed.
	ContentDigest string
}

// Definition is a loaded skill: its summary, where its resources live and
// its instructions.
type Definition struct {
	Summary
	// ResourceBase is nil when the provider manages resources itself.
	ResourceBase *ResourceBase
	// Content is the skill's instructions, verbatim.
	Content string
	// Directives are what the skill asks of the runtime beyond its text
	// (where it runs, on which model, which tools it may use without
	// approval); nil when it asks for nothing.
	Directives *Directives
	// ArgumentNames name the positional arguments of `/name` (the
	// `arguments` frontmatter field, ParseArgumentNames): the instructions
	// write `$name` for the argument at the name's position.
	ArgumentNames []string
}

// Clone returns a copy of d that shares no pointer with it.
func (d Definition) Clone() Definition {
	d.ArgumentNames = append([]string(nil), d.ArgumentNames...)
	if len(d.ArgumentNames) == 0 {
		d.ArgumentNames = nil
	}
	d.ResourceBase = d.ResourceBase.Clone()
	d.Directives = d.Directives.Clone()
	return d
}

// ToolValue returns the `skill` tool's value for d.
func (d Definition) ToolValue() ToolValue {
	return ToolValue{Name: d.Name, Provider: d.Provider, ResourceBase: d.ResourceBase.Clone(), Content: d.Content, Origin: d.Origin, OriginKind: d.OriginKind}
}
