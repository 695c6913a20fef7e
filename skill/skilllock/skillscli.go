package skilllock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// SkillsCLIFileName is the lock file the skills CLI writes in a project.
const SkillsCLIFileName = "skills-lock.json"

// SkillsCLILock is a skills CLI skills-lock.json, every member of every
// entry kept as written, so that writing it back changes only what was
// meant to change.
type SkillsCLILock struct {
	// Version is the file's version, as written.
	Version json.RawMessage
	// Skills are its entries, sorted by name.
	Skills []SkillsCLIEntry
}

// SkillsCLIEntry is one skill of a skills-lock.json: its name (the key)
// and its members in the file's order.
type SkillsCLIEntry struct {
	Name    string
	Members []Member
}

// Member is one member of a JSON object: its key and its value, as
// written.
type Member struct {
	Key   string
	Value json.RawMessage
}

// String returns the entry's member key when it is a JSON string, "" otherwise.
func (e SkillsCLIEntry) String(key string) string {
	for _, m := range e.Members {
		if m.Key == key {
			var s string
			if json.Unmarshal(m.Value, &s) == nil {
				return s
			}
		}
	}
	return ""
}

// set replaces the value of key, or appends the member.
func (e *SkillsCLIEntry) set(key string, value json.RawMessage) {
	for i := range e.Members {
		if e.Members[i].Key == key {
			e.Members[i].Value = value
			return
		}
	}
	e.Members = append(e.Members, Member{key, value})
}

// ParseSkillsCLI reads a skills-lock.json: one object with a numeric
// "version" and a "skills" object whose members are objects. It fails on
// anything else, on a file over MaxFileBytes or more than MaxEntries
// skills; a skill's members are not otherwise checked (see ToLock).
func ParseSkillsCLI(data []byte) (*SkillsCLILock, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("skilllock: %s is %d bytes; at most %d", SkillsCLIFileName, len(data), MaxFileBytes)
	}
	top, err := members(data)
	if err != nil {
		return nil, fmt.Errorf("skilllock: %s: %w", SkillsCLIFileName, err)
	}
	var l SkillsCLILock
	var skills []Member
	for _, m := range top {
		switch m.Key {
		case "version":
			var v float64
			if json.Unmarshal(m.Value, &v) != nil {
				return nil, fmt.Errorf("skilllock: %s: version %s is not a number", SkillsCLIFileName, clip(string(m.Value)))
			}
			l.Version = m.Value
		case "skills":
			if skills, err = members(m.Value); err != nil {
				return nil, fmt.Errorf("skilllock: %s: skills: %w", SkillsCLIFileName, err)
			}
		}
	}
	if l.Version == nil || skills == nil {
		return nil, fmt.Errorf("skilllock: %s: want a version and a skills object", SkillsCLIFileName)
	}
	if len(skills) > MaxEntries {
		return nil, fmt.Errorf("skilllock: %s: %d skills; at most %d", SkillsCLIFileName, len(skills), MaxEntries)
	}
	for _, s := range skills {
		ms, err := members(s.Value)
		if err != nil {
			return nil, fmt.Errorf("skilllock: %s: skill %q: %w", SkillsCLIFileName, clip(s.Key), err)
		}
		l.put(SkillsCLIEntry{Name: s.Key, Members: ms})
	}
	return &l, nil
}

// put adds e in name order; a name already present takes e, as the last
// of a repeated key does in JavaScript.
func (l *SkillsCLILock) put(e SkillsCLIEntry) {
	i, found := slices.BinarySearchFunc(l.Skills, e.Name, func(s SkillsCLIEntry, n string) int { return strings.Compare(s.Name, n) })
	if found {
		l.Skills[i] = e
		return
	}
	l.Skills = slices.Insert(l.Skills, i, e)
}

// members decodes one JSON object into its members, in order; a repeated
// key is kept once, at its first place, with its last value.
func members(data []byte) ([]Member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []Member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if i := slices.IndexFunc(out, func(m Member) bool { return m.Key == key }); i >= 0 {
			out[i].Value = v
			continue
		}
		out = append(out, Member{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, fmt.Errorf("data after the JSON object")
	}
	if out == nil {
		out = []Member{}
	}
	return out, nil
}

// Encode writes the file as the skills CLI writes it (JSON.stringify with
// an indent of two spaces, and a newline): version, then skills by name,
// each entry's members in their order, values as they were written.
func (l *SkillsCLILock) Encode() []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"version\": ")
	b.Write(indented(l.Version, "  "))
	b.WriteString(",\n  \"skills\": {")
	for i, s := range l.Skills {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(jsonString(s.Name))
		b.WriteString(": {")
		for j, m := range s.Members {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n      ")
			b.Write(jsonString(m.Key))
			b.WriteString(": ")
			b.Write(indented(m.Value, "      "))
		}
		if len(s.Members) > 0 {
			b.WriteString("\n    ")
		}
		b.WriteByte('}')
	}
	if len(l.Skills) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("}\n}\n")
	return b.Bytes()
}

// indented is v indented by two spaces a level, its first line at the
// current position and the rest after prefix.
func indented(v json.RawMessage, prefix string) []byte {
	var b bytes.Buffer
	if json.Indent(&b, v, prefix, "  ") != nil {
		return v
	}
	return b.Bytes()
}

func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// ToLock returns the lock a skills-lock.json amounts to: for each skill
// with a computedHash of 64 lower-case hexadecimal digits, a KindLocal
// entry (the CLI's skills are installed on disk, where a host reads them)
// whose digest is "sha256:" and that hash. It also returns the names of
// the skills it left out, each with why.
func (l *SkillsCLILock) ToLock() (*Lock, []string, error) {
	var entries []Entry
	var skipped []string
	for _, s := range l.Skills {
		h := s.String("computedHash")
		if !ValidDigest("sha256:" + h) {
			skipped = append(skipped, fmt.Sprintf("%q: computedHash %q is not 64 lower-case hexadecimal digits", clip(s.Name), clip(h)))
			continue
		}
		entries = append(entries, Entry{Kind: KindLocal, Name: s.Name, Digest: "sha256:" + h, Order: OrderSkillsCLI})
	}
	lock, err := New(entries)
	return lock, skipped, err
}

// Merge writes the local entries of lock into l: an entry of the same name
// has its computedHash replaced; a new one is added with "source"
// sourceOf(name), "sourceType" "local" and the computedHash. Entries of
// other skills are kept as they are.
func (l *SkillsCLILock) Merge(lock *Lock, sourceOf func(name string) string) {
	if l.Version == nil {
		l.Version = json.RawMessage("1")
	}
	for _, e := range lock.Entries {
		if e.Kind != KindLocal {
			continue
		}
		hash := jsonString(strings.TrimPrefix(e.Digest, "sha256:"))
		i := slices.IndexFunc(l.Skills, func(s SkillsCLIEntry) bool { return s.Name == e.Name })
		if i >= 0 {
			l.Skills[i].set("computedHash", hash)
			continue
		}
		l.put(SkillsCLIEntry{Name: e.Name, Members: []Member{
			{"source", jsonString(sourceOf(e.Name))}, {"sourceType", jsonString("local")}, {"computedHash", hash},
		}})
	}
}

// ParseNamed reads the lock file named name (a path; only its base name
// counts): a skills CLI skills-lock.json as ToLock reads it, anything else
// as this package's own format (Parse).
func ParseNamed(name string, data []byte) (*Lock, error) {
	base := name[strings.LastIndexAny(name, `/\`)+1:]
	if base != SkillsCLIFileName {
		return Parse(data)
	}
	cli, err := ParseSkillsCLI(data)
	if err != nil {
		return nil, err
	}
	l, _, err := cli.ToLock()
	return l, err
}
