package mcpskills

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unsafe"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// maxSkillURIBytes bounds the URI of a skill's SKILL.md and of its files.
const maxSkillURIBytes = 2048

// skillFileName ends the URI of every skill's SKILL.md.
const skillFileName = "SKILL.md"

// remoteEntry is a validated skill entry of the MCP Skills extension: what
// skills/list or skills/get said about one skill. It is immutable once
// decoded and shared by every session that lists or holds it.
type remoteEntry struct {
	// URI is the SKILL.md's URI as the server wrote it; Root is the skill's
	// root directory (URI without "/SKILL.md").
	URI, Root string
	// Path is the skill path a qualified name is built from (see
	// skillPathOf).
	Path string
	// Name is frontmatter.name, equal to the last segment of the skill
	// path; Description is frontmatter.description, normalized and bounded.
	Name, Description string
	// Invocation narrows the default policy by the frontmatter's
	// disable-model-invocation and user-invocable booleans.
	Invocation skill.InvocationPolicy
	// ArgumentHint is the frontmatter's argument-hint, bounded
	// (skill.Summary.ArgumentHint).
	ArgumentHint string
	// WhenToUse and Keywords are the frontmatter's when_to_use and its
	// keywords and tags, bounded (skill.Summary.WhenToUse, Keywords), for
	// the plugin's skill search.
	WhenToUse, Keywords string
	// Paths are the frontmatter's `paths` patterns (skill.ParsePaths, as
	// skill.Summary.Paths): the skill enters a session's catalog once the
	// session touched a file they match.
	Paths string
	// Frontmatter is the entry's frontmatter, verbatim, and fields its
	// decoded form (numbers as json.Number), for comparing with a fetched
	// SKILL.md.
	Frontmatter json.RawMessage
	fields      map[string]any
	// Dynamic is set when resources is "dynamic"; Files is empty then.
	Dynamic bool
	// Files is the manifest in the server's order; skillFile indexes the
	// SKILL.md among them and byPath maps each file's path relative to Root
	// (percent-decoded) to its index.
	Files     []fileEntry
	skillFile int
	byPath    map[string]int
	// TotalBytes is the sum of the files' sizes.
	TotalBytes int64
	// declined says why the skill is listed in no catalog and not loaded
	// although its entry is well formed (limits, dynamic resources).
	declined string
}

// estimate returns the bytes the entry keeps alive: its struct, strings
// and manifest, its frontmatter as received and decoded (the decoded form
// counted as twice the bytes received: a map slot and an interface per
// value besides the text).
func (e *remoteEntry) estimate() int {
	n := int(unsafe.Sizeof(*e)) + len(e.URI) + len(e.Root) + len(e.Path) + len(e.Name) + len(e.Description) +
		len(e.ArgumentHint) + len(e.WhenToUse) + len(e.Keywords) + len(e.Paths) + len(e.declined) + 3*len(e.Frontmatter) + len(e.fields)*mapSlot
	for _, f := range e.Files {
		n += int(unsafe.Sizeof(f)) + len(f.URI) + len(f.Path) + mapSlot + len(f.Path)
	}
	return n
}

// fileEntry is one file of a skill's manifest.
type fileEntry struct {
	URI    string
	Path   string // relative to the skill's root, percent-decoded
	Digest [32]byte
	Size   int64
}

// skillFileEntry returns the manifest's SKILL.md.
func (e *remoteEntry) skillFileEntry() *fileEntry { return &e.Files[e.skillFile] }

// file returns the manifest entry of the file at path (relative to the
// skill's root), if the manifest lists it.
func (e *remoteEntry) file(path string) (*fileEntry, bool) {
	i, ok := e.byPath[path]
	if !ok {
		return nil, false
	}
	return &e.Files[i], true
}

// entryLimits are the bounds applied while decoding an entry.
type entryLimits struct {
	MaxDescriptionBytes int
}

// decodeEntry validates one entry of skills/list or skills/get. It returns
// the entry, or why it is invalid; an entry that is well formed but over
// the extension's limits, or "dynamic", is returned with declined set.
// notes are diagnostics about an accepted entry (a truncated description).
//
// An entry is valid when it is a JSON object with
//   - "uri": the URI of a SKILL.md (see parseSkillURI) whose last skill-path
//     segment equals frontmatter.name;
//   - "frontmatter": a JSON object whose "name" is a skill name (lower-case
//     letters, digits and single hyphens, at most 64 bytes) and whose
//     "description" is a string that is not empty once whitespace is
//     normalized;
//   - "resources": the string "dynamic", or an array of objects
//     {"uri": string, "digest": "sha256:<64 lower-case hex digits>",
//     "size": integer >= 0}, each uri the SKILL.md or a file inside the
//     skill's root directory, each listed once, the SKILL.md among them.
//
// Unknown members are ignored.
func decodeEntry(raw json.RawMessage, lim entryLimits) (e *remoteEntry, notes []string, why string) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, nil, "not a JSON object"
	}
	e = &remoteEntry{}
	uri, why := jsonString(obj, "uri")
	if why != "" {
		return nil, nil, why
	}
	loc, why := parseSkillURI(uri)
	if why != "" {
		return nil, nil, why
	}
	e.URI, e.Root, e.Path = uri, loc.root, loc.path
	if why := e.decodeFrontmatter(obj, loc, lim, &notes); why != "" {
		return e, nil, why
	}
	res, ok := obj["resources"]
	if !ok {
		return e, nil, `no "resources"`
	}
	if why := e.decodeResources(res); why != "" {
		return e, nil, why
	}
	return e, notes, ""
}

// jsonString returns the string member key of obj, or why it is not one.
func jsonString(obj map[string]json.RawMessage, key string) (string, string) {
	raw, ok := obj[key]
	if !ok {
		return "", fmt.Sprintf("no %q", key)
	}
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", fmt.Sprintf("%q is not a string", key)
	}
	return s, ""
}

// decodeFrontmatter checks and keeps the entry's frontmatter.
func (e *remoteEntry) decodeFrontmatter(obj map[string]json.RawMessage, loc skillLocation, lim entryLimits, notes *[]string) string {
	raw, ok := obj["frontmatter"]
	if !ok {
		return `no "frontmatter"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var fields map[string]any
	if err := dec.Decode(&fields); err != nil || fields == nil {
		return `"frontmatter" is not a JSON object`
	}
	name, ok := fields["name"].(string)
	if !ok {
		return `frontmatter "name" is not a string`
	}
	if !skill.ValidBoundedName(name) {
		return fmt.Sprintf("frontmatter name %q is not a skill name (lower-case letters, digits and single hyphens, at most %d bytes)", clip(name, skill.MaxNameLength), skill.MaxNameLength)
	}
	e.Name = name
	if loc.name != name {
		return fmt.Sprintf("frontmatter name %q is not the last segment of the skill path %q", name, clip(loc.name, skill.MaxNameLength))
	}
	desc, ok := fields["description"].(string)
	if !ok {
		return `frontmatter "description" is not a string`
	}
	// Bound the work before normalizing an arbitrarily long description.
	if max := 4*lim.MaxDescriptionBytes + 1024; len(desc) > max {
		desc = truncateUTF8(desc, max)
	}
	e.Description = normalizeDescription(desc)
	if e.Description == "" {
		return "empty description"
	}
	if n := len(e.Description); n > lim.MaxDescriptionBytes {
		e.Description = truncateUTF8(e.Description, lim.MaxDescriptionBytes)
		*notes = append(*notes, fmt.Sprintf("description truncated from %d to %d bytes", n, len(e.Description)))
	}
	e.Invocation = skill.DefaultPolicy()
	if v, ok := fields["disable-model-invocation"].(bool); ok && v {
		e.Invocation.ModelInvocable = false
	}
	if v, ok := fields["user-invocable"].(bool); ok && !v {
		e.Invocation.UserInvocable = false
	}
	e.ArgumentHint = argumentHint(fields["argument-hint"])
	if v, ok := fields["when_to_use"].(string); ok {
		e.WhenToUse = skill.CutText(v, skill.MaxWhenToUseBytes)
	}
	e.Keywords = skill.CleanKeywords(append(words(fields["keywords"]), words(fields["tags"])...))
	if v, ok := fields["paths"]; ok {
		var diags []string
		e.Paths, diags = entryPaths(v)
		*notes = append(*notes, diags...)
	}
	e.Frontmatter, e.fields = raw, fields
	return ""
}

// entryPaths reads a frontmatter `paths` value (one string or a list of
// strings) as skill.Summary.Paths, with what skill.ParsePaths left out.
func entryPaths(v any) (string, []string) {
	var values []string
	switch v := v.(type) {
	case string:
		values = []string{v}
	case []any:
		for _, w := range v {
			if s, ok := w.(string); ok {
				values = append(values, s)
			}
		}
	}
	patterns, diags := skill.ParsePaths(values)
	return skill.JoinPaths(patterns), diags
}

// words reads a frontmatter list of words: a list of strings, or one
// string of words separated by commas. Anything else is none.
func words(v any) []string {
	switch v := v.(type) {
	case string:
		return strings.Split(v, ",")
	case []any:
		var out []string
		for _, w := range v {
			if s, ok := w.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// maxArgumentHintBytes bounds a remote skill's argument hint: text from an
// untrusted origin that a host shows in its completion menu.
const maxArgumentHintBytes = 256

// argumentHint reads a frontmatter argument-hint: a string, or the list a
// YAML flow sequence (`argument-hint: [issue-number]`) became, written back
// as "[issue-number]". Anything else is no hint.
func argumentHint(v any) string {
	var hint string
	switch v := v.(type) {
	case string:
		hint = v
	case []any:
		parts := make([]string, len(v))
		for i, p := range v {
			s, ok := p.(string)
			if !ok {
				return ""
			}
			parts[i] = s
		}
		hint = "[" + strings.Join(parts, ", ") + "]"
	}
	hint = strings.Join(strings.Fields(hint), " ") // one line
	return truncateUTF8(hint, maxArgumentHintBytes)
}

// decodeResources checks and keeps the entry's manifest, and declines an
// entry over the extension's limits or with dynamic resources.
func (e *remoteEntry) decodeResources(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil || s != skillsext.DynamicResources {
			return `"resources" is neither an array nor "dynamic"`
		}
		e.Dynamic = true
		e.declined = fmt.Sprintf("its resources are %q, with no digests to verify them against", skillsext.DynamicResources)
		return ""
	}
	var items []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return `"resources" is neither an array nor "dynamic"`
	}
	if len(items) > skillsext.MaxSkillResources {
		// Counted from the entry alone: nothing more is decoded.
		e.declined = fmt.Sprintf("its entry lists %d files, more than the %d a skill may have", len(items), skillsext.MaxSkillResources)
		return ""
	}
	e.Files = make([]fileEntry, 0, len(items))
	e.byPath = make(map[string]int, len(items))
	e.skillFile = -1
	for i, item := range items {
		f, why := e.decodeFile(item)
		if why != "" {
			return fmt.Sprintf("resources[%d]: %s", i, why)
		}
		if _, dup := e.byPath[f.Path]; dup {
			return fmt.Sprintf("resources[%d]: %q is listed twice", i, clip(f.URI, 128))
		}
		if f.URI == e.URI {
			e.skillFile = len(e.Files)
		}
		e.byPath[f.Path] = len(e.Files)
		e.Files = append(e.Files, f)
		// Each size is at most MaxSkillBytes+1 (decodeFile), so the sum
		// cannot overflow.
		e.TotalBytes += f.Size
	}
	if e.skillFile < 0 {
		return "resources does not list the SKILL.md"
	}
	switch sk := e.skillFileEntry(); {
	case e.TotalBytes > skillsext.MaxSkillBytes:
		e.declined = fmt.Sprintf("its files total %d bytes, more than the %d bytes (16 MiB) a skill may have", e.TotalBytes, skillsext.MaxSkillBytes)
	case sk.Size > skill.MaxSkillFileBytes:
		e.declined = fmt.Sprintf("its SKILL.md is %d bytes, more than the %d bytes (8 MiB) a SKILL.md may have", sk.Size, skill.MaxSkillFileBytes)
	}
	return ""
}

// decodeFile validates one element of a manifest.
func (e *remoteEntry) decodeFile(raw json.RawMessage) (fileEntry, string) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return fileEntry{}, "not a JSON object"
	}
	var f fileEntry
	var why string
	if f.URI, why = jsonString(obj, "uri"); why != "" {
		return f, why
	}
	if f.Path, why = fileWithin(e.Root, e.URI, f.URI); why != "" {
		return f, why
	}
	digest, why := jsonString(obj, "digest")
	if why != "" {
		return f, why
	}
	if f.Digest, why = parseDigest(digest); why != "" {
		return f, why
	}
	size, ok := obj["size"]
	if !ok {
		return f, `no "size"`
	}
	if f.Size, why = parseSize(size); why != "" {
		return f, why
	}
	return f, ""
}

// parseDigest decodes "sha256:" and 64 lower-case hexadecimal digits.
func parseDigest(s string) ([32]byte, string) {
	d, ok := skillsext.ParseDigest(s)
	if !ok {
		return d, fmt.Sprintf("digest %q is not \"sha256:\" and 64 lower-case hexadecimal digits", clip(s, 80))
	}
	return d, ""
}

// parseSize decodes a size: a JSON integer literal, at least 0. A size
// above the per-skill limit is kept as one more than the limit, which is
// all any check needs and keeps sums from overflowing.
func parseSize(raw json.RawMessage) (int64, string) {
	const bad = `"size" is not a non-negative integer`
	if len(raw) == 0 {
		return 0, bad
	}
	var n int64
	for i, c := range raw {
		if c < '0' || c > '9' || (i == 0 && c == '0' && len(raw) > 1) {
			return 0, bad
		}
		if n <= skillsext.MaxSkillBytes {
			n = n*10 + int64(c-'0')
		}
	}
	return min(n, skillsext.MaxSkillBytes+1), ""
}

// skillLocation is what a SKILL.md URI says about its skill.
type skillLocation struct {
	root string // the URI without "/SKILL.md"
	name string // the last skill-path segment, percent-decoded
	path string // the skill path of a qualified name (see skillPathOf)
}

// parseSkillURI checks that uri names a SKILL.md: "<scheme>://<skill-path>/SKILL.md",
// at most 2048 bytes, where <skill-path> is one or more non-empty segments
// (the first is the URI's authority) none of which is "." or "..", without
// userinfo, port, query or fragment. It returns why not otherwise.
func parseSkillURI(uri string) (skillLocation, string) {
	bad := func(why string) (skillLocation, string) {
		return skillLocation{}, fmt.Sprintf("uri %q is not the URI of a SKILL.md: %s", clip(uri, 128), why)
	}
	if len(uri) > maxSkillURIBytes {
		return bad(fmt.Sprintf("longer than %d bytes", maxSkillURIBytes))
	}
	if strings.ContainsAny(uri, "?#\\") || strings.ContainsFunc(uri, isControlOrSpace) {
		return bad("a query, fragment, backslash, space or control character")
	}
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok || !validScheme(scheme) {
		return bad("no scheme://")
	}
	root, ok := strings.CutSuffix(rest, "/"+skillFileName)
	if !ok {
		return bad("it does not end in /SKILL.md")
	}
	segs := strings.Split(root, "/")
	if strings.ContainsAny(segs[0], "@:") {
		return bad("userinfo or a port")
	}
	for _, s := range segs {
		if s == "" || s == "." || s == ".." {
			return bad("an empty, \".\" or \"..\" segment")
		}
	}
	name, err := url.PathUnescape(segs[len(segs)-1])
	if err != nil {
		return bad("a malformed percent-encoding")
	}
	return skillLocation{root: scheme + "://" + root, name: name, path: skillPathOf(scheme, root)}, ""
}

// skillPathOf is the skill path of a qualified name: for a skill:// URI,
// the segments between "skill://" and "/SKILL.md" (skill://acme/billing/refunds/SKILL.md
// → acme/billing/refunds); for any other scheme, the scheme followed by
// those segments (github://owner/repo/refunds/SKILL.md →
// github/owner/repo/refunds), so that skills of two schemes on one server
// cannot take each other's qualified names.
func skillPathOf(scheme, root string) string {
	if scheme == "skill" {
		return root
	}
	return scheme + "/" + root
}

// fileWithin returns the path, relative to root and percent-decoded, of
// uri, which must be skillURI or a file strictly inside root: non-empty
// segments, none "." or ".." or decoding to a name holding "/", "\" or a
// control character, no query or fragment.
func fileWithin(root, skillURI, uri string) (string, string) {
	if uri == skillURI {
		return skillFileName, ""
	}
	rest, ok := strings.CutPrefix(uri, root+"/")
	if !ok || len(uri) > maxSkillURIBytes {
		return "", fmt.Sprintf("uri %q is not a file inside the skill's directory %q", clip(uri, 128), clip(root, 128))
	}
	if strings.ContainsAny(rest, "?#\\") {
		return "", fmt.Sprintf("uri %q has a query, fragment or backslash", clip(uri, 128))
	}
	segs := strings.Split(rest, "/")
	for i, s := range segs {
		d, err := url.PathUnescape(s)
		if err != nil || d == "" || d == "." || d == ".." || strings.ContainsAny(d, "/\\") || strings.ContainsFunc(d, isControl) {
			return "", fmt.Sprintf("uri %q has a segment that is empty, \".\", \"..\", malformed or holds a separator or control character", clip(uri, 128))
		}
		segs[i] = d
	}
	return strings.Join(segs, "/"), ""
}

func validScheme(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func isControlOrSpace(r rune) bool { return r <= 0x20 || r == 0x7f }
