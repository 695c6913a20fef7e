package mcpskills

import (
	"encoding/json"
	"slices"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Entry is what a server that declares the MCP Skills extension says about
// one of its skills, as a session holds it: the entry the skill was loaded
// from. Everything in it comes from the server and is untrusted; it grants
// nothing.
type Entry struct {
	// Server is the label the host assigned to the server (Options.Label).
	Server string
	// URI is the skill's SKILL.md URI; the pair (Server, URI) identifies
	// the skill.
	URI string
	// Name is the skill's plain name, QualifiedName the name that is
	// unique among all skills (label:path).
	Name, QualifiedName string
	// Frontmatter is the entry's frontmatter as the server sent it (a
	// JSON object).
	Frontmatter json.RawMessage
	// RequestedTools is the frontmatter's allowed-tools (a string of tools
	// separated by spaces or commas, or a list of strings), at most 256 of
	// them: the tools the server asks to have pre-approved. It is a request
	// from an untrusted origin, never a grant. A host must not widen the
	// model's permissions from it unless the user explicitly approved that
	// grant for this skill, and should bind such an approval to Files
	// (every URI and digest), revoking it when they change. A loaded
	// Definition carries it among its Directives, which are not Trusted
	// unless the host attached the provider with
	// skills.ProviderOptions.TrustDirectives.
	RequestedTools []string
	// Dynamic is set when the entry lists no files ("dynamic"); such
	// skills are not loaded.
	Dynamic bool
	// Files is the entry's manifest.
	Files []EntryFile
}

// EntryFile is one file of an entry's manifest.
type EntryFile struct {
	URI string
	// Path is relative to the skill's root: what the resource tool reads.
	Path string
	// Digest is "sha256:" and 64 lower-case hexadecimal digits.
	Digest string
	Size   int64
}

// HeldEntry returns the entry the session holds for a skill it loaded
// from a server that declares the MCP Skills extension; name is its plain
// name (when no other skill the session holds has it) or its qualified
// name. found is false when the session loaded no such skill.
func (p *Provider) HeldEntry(sessionID, name string) (Entry, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.sessions[sessionID]
	if v == nil {
		return Entry{}, false
	}
	var found *remoteEntry
	for _, h := range v.held {
		e := h.entry
		if e == nil || (e.Name != name && skill.QualifiedName(p.cfg.Label, e.Path) != name) {
			continue
		}
		if found != nil && found != e {
			return Entry{}, false // a plain name two held skills share
		}
		found = e
	}
	if found == nil {
		return Entry{}, false
	}
	return p.publicEntry(found), true
}

func (p *Provider) publicEntry(e *remoteEntry) Entry {
	out := Entry{
		Server:         p.cfg.Label,
		URI:            e.URI,
		Name:           e.Name,
		QualifiedName:  skill.QualifiedName(p.cfg.Label, e.Path),
		Frontmatter:    slices.Clone(e.Frontmatter),
		RequestedTools: requestedTools(e.fields["allowed-tools"]),
		Dynamic:        e.Dynamic,
		Files:          make([]EntryFile, 0, len(e.Files)),
	}
	for _, f := range e.Files {
		out.Files = append(out.Files, EntryFile{URI: f.URI, Path: f.Path, Digest: skillsext.FormatDigest(f.Digest), Size: f.Size})
	}
	return out
}

// requestedTools reads allowed-tools as a skill's directives read it: a
// list of strings, or a string of tools separated by spaces or commas
// outside parentheses (skill.ParseDirectives), at most
// skill.MaxAllowedTools of them.
func requestedTools(v any) []string {
	if d := skill.ParseDirectives(map[string]any{skill.FieldAllowedTools: v}); d != nil {
		return d.AllowedTools
	}
	return nil
}
