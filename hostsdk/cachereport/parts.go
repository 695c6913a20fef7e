package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/hostsdk/cachereport/measure"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/render"
)

// The parts of a request the breakdown names. Every byte of a request's
// prompt belongs to one: the text of a string to the part its content
// says, the rest of a tool's definition to the tool, and everything else
// (the JSON of the API's messages, blocks and members) to partJSON.
const (
	partSystem         = "the runtime's system prompt"
	partFixed          = "catalog: fixed text"
	partEntries        = "catalog: entries"
	partReplaceFixed   = "catalog replacements: fixed text"
	partReplaceEntries = "catalog replacements: entries"
	partRelevant       = "relevant-skills messages"
	partInstructions   = "skill results: the instructions"
	partWrapper        = "skill results: wrapper and directory"
	partUser           = "the user's messages"
	partAnswers        = "the model's answers"
	partCalls          = "the model's tool calls"
	partOther          = "other text"
	partJSON           = measure.Unnamed
)

// partTool is the part of a tool's definition, but for the catalog an
// alternative writes into it.
func partTool(name string) string { return "tool definition: `" + name + "`" }

// The texts that tell the parts apart.
const (
	catalogOpen      = "<available_skills>\n"
	catalogClose     = "</available_skills>"
	reminderOpen     = "<system-reminder>\n"
	replacementStart = reminderOpen + "The available skills have changed."
	relevantStart    = reminderOpen + "These skills best match"
	instructionsOpen = "<skill_instructions>\n"
	instructionsEnd  = "</skill_instructions>"
	launching        = "Launching skill: "
)

// labeler divides a scenario's requests into their parts. It keeps what
// it found in the previous request: the lines a request repeats are
// labelled as they were.
type labeler struct {
	users, answers map[string]bool
	names          []string // a part's index in a label is its place here
	// What it found in the previous request: its bytes, their labels,
	// its spans, and the lines that name its parts.
	prev       []byte
	prevLabels []uint8
	prevSpans  []measure.Span
	sections   []section
}

// section is a line of a prompt that names the part of the request its
// next lines hold ("tools", "messages").
type section struct {
	at   int
	name string
}

func newLabeler(sc *scenario) *labeler {
	l := &labeler{users: map[string]bool{}, answers: map[string]bool{}, names: []string{partJSON}}
	for _, t := range sc.turns {
		l.users[t.user], l.answers[t.answer] = true, true
	}
	return l
}

// index returns a part's label.
func (l *labeler) index(part string) uint8 {
	if i := slices.Index(l.names, part); i >= 0 {
		return uint8(i)
	}
	l.names = append(l.names, part)
	return uint8(len(l.names) - 1)
}

// spans returns the parts of a request's prompt, in order; each request
// is labelled after the one before (its lines never span a part, and
// the lines it repeats keep their labels).
func (l *labeler) spans(p modelapi.Prompt) []measure.Span {
	from := bytes.LastIndexByte(p.Bytes[:modelapi.CommonPrefix(modelapi.Prompt{Bytes: l.prev}, p)], '\n') + 1
	labels := make([]uint8, len(p.Bytes))
	copy(labels, l.prevLabels[:from])
	for len(l.sections) > 0 && l.sections[len(l.sections)-1].at >= from {
		l.sections = l.sections[:len(l.sections)-1]
	}
	out := slices.Clone(l.prevSpans)
	for len(out) > 0 && out[len(out)-1].End > from {
		out = out[:len(out)-1]
	}
	for start := from; start < len(p.Bytes); {
		end := bytes.IndexByte(p.Bytes[start:], '\n')
		if end < 0 {
			end = len(p.Bytes)
		} else {
			end += start
		}
		l.line(p.Bytes[start:end], start, labels[start:end])
		start = end + 1
	}
	for i := from; i < len(labels); {
		j := i
		for j < len(labels) && labels[j] == labels[i] {
			j++
		}
		if labels[i] != 0 {
			out = append(out, measure.Span{Part: l.names[labels[i]], Start: i, End: j})
		}
		i = j
	}
	l.prev, l.prevLabels, l.prevSpans = p.Bytes, labels, out
	return out
}

// line labels one line of a prompt, which starts at offset at.
func (l *labeler) line(line []byte, at int, labels []uint8) {
	current := ""
	if n := len(l.sections); n > 0 {
		current = l.sections[n-1].name
	}
	switch {
	case len(line) == 0 || (line[0] != '{' && line[0] != '"' && line[0] != '['):
		l.sections = append(l.sections, section{at: at, name: string(line)})
	case current == "tools":
		l.tool(line, labels)
	default:
		walkStrings(line, func(member string, s, e int) {
			text, offsets := decodeString(line[s:e])
			for _, sub := range l.classify(member, text) {
				l.label(labels[s:e], offsets, sub)
			}
		})
	}
}

// tool labels a tool's definition: all of it the tool's, but for a
// catalog in its strings.
func (l *labeler) tool(item []byte, labels []uint8) {
	var name string
	walkStrings(item, func(member string, s, e int) {
		if member == "name" && name == "" {
			name, _ = decodeString(item[s:e])
		}
	})
	own := l.index(partTool(name))
	for i := range labels {
		labels[i] = own
	}
	walkStrings(item, func(_ string, s, e int) {
		text, offsets := decodeString(item[s:e])
		for _, sub := range catalogBlock(text, partFixed, partEntries) {
			l.label(labels[s:e], offsets, sub)
		}
	})
}

// label gives the bytes of a string's raw text that encode its decoded
// text [sub.start, sub.end) the part sub names.
func (l *labeler) label(labels []uint8, offsets []int, sub sub) {
	idx := l.index(sub.part)
	for i := offsets[sub.start]; i < offsets[sub.end]; i++ {
		labels[i] = idx
	}
}

// sub is a part of a string: its decoded text [start, end).
type sub struct {
	start, end int
	part       string
}

// classify returns the parts of a string of a message or a system prompt,
// the value of member, by its content; later parts override earlier ones.
func (l *labeler) classify(member, text string) []sub {
	all := func(part string) []sub { return []sub{{0, len(text), part}} }
	switch member {
	case "id", "call_id", "tool_use_id", "tool_call_id", "name", "arguments":
		return all(partCalls)
	case "text", "content", "output", "":
	default:
		return nil // the API's own values: types, roles
	}
	switch {
	case text == systemPrompt:
		return all(partSystem)
	case strings.HasPrefix(text, systemPrompt):
		// An alternative's: the runtime's prompt, its skills text, the
		// catalog.
		return append([]sub{{0, len(systemPrompt), partSystem}, {len(systemPrompt), len(text), partFixed}},
			catalogBlock(text, partFixed, partEntries)...)
	case strings.HasPrefix(text, replacementStart):
		return append(all(partReplaceFixed), catalogBlock(text, partReplaceFixed, partReplaceEntries)...)
	case strings.HasPrefix(text, reminderOpen) && strings.Contains(text, catalogOpen):
		return append(all(partFixed), catalogBlock(text, partFixed, partEntries)...)
	case strings.HasPrefix(text, relevantStart):
		return all(partRelevant)
	case strings.Contains(text, instructionsOpen):
		start := strings.Index(text, instructionsOpen) + len(instructionsOpen)
		end := start + max(strings.Index(text[start:], instructionsEnd), 0)
		return []sub{{0, len(text), partWrapper}, {start, end, partInstructions}}
	case strings.HasPrefix(text, launching):
		start := strings.Index(text, "\n\n") + len("\n\n")
		return []sub{{0, len(text), partWrapper}, {start, len(text), partInstructions}}
	case l.users[text]:
		return all(partUser)
	case l.answers[text]:
		return all(partAnswers)
	}
	return all(partOther)
}

// catalogBlock returns the parts of an <available_skills> block in text:
// its tags fixed, what they enclose entries. None when text has no block.
func catalogBlock(text string, fixed, entries string) []sub {
	open := strings.Index(text, catalogOpen)
	if open < 0 {
		return nil
	}
	inside := open + len(catalogOpen)
	end := strings.Index(text[inside:], catalogClose)
	if end < 0 {
		return nil
	}
	end += inside
	return []sub{{open, inside, fixed}, {inside, end, entries}, {end, end + len(catalogClose), fixed}}
}

// walkStrings calls f for every string value of a compact JSON value, with
// the name of the member it is the value of (of the nearest one, for a
// string in an array) and the offsets of its raw text, quotes excluded.
// Member names are not values.
func walkStrings(item []byte, f func(member string, start, end int)) {
	type frame struct {
		object bool
		member string
	}
	var stack []frame
	expectName := false
	for i := 0; i < len(item); {
		switch c := item[i]; c {
		case '"':
			end := stringEnd(item, i)
			if n := len(stack); n > 0 && stack[n-1].object && expectName {
				stack[n-1].member, expectName = string(item[i+1:end-1]), false
			} else if n > 0 {
				f(stack[n-1].member, i+1, end-1)
			} else {
				f("", i+1, end-1)
			}
			i = end
			continue
		case '{', '[':
			member := ""
			if n := len(stack); n > 0 {
				member = stack[n-1].member
			}
			stack = append(stack, frame{object: c == '{', member: member})
			expectName = c == '{'
		case '}', ']':
			stack = stack[:len(stack)-1]
			expectName = false
		case ',':
			expectName = len(stack) > 0 && stack[len(stack)-1].object
		}
		i++
	}
}

// stringEnd returns the offset just after the JSON string that starts at
// b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// decodeString decodes the raw text of a JSON string (quotes excluded),
// and returns with it, for each byte of the text, the offset in raw of the
// escape or byte it comes from, and len(raw) after the last.
func decodeString(raw []byte) (string, []int) {
	var text []byte
	var offsets []int
	for i := 0; i < len(raw); {
		from := i
		if raw[i] != '\\' || i+1 >= len(raw) {
			text = append(text, raw[i])
			offsets = append(offsets, from)
			i++
			continue
		}
		var r rune
		switch c := raw[i+1]; c {
		case 'u':
			r, i = unicodeEscape(raw, i)
		default:
			r, i = rune(simpleEscape(c)), i+2
		}
		n := len(text)
		text = utf8.AppendRune(text, r)
		for range len(text) - n {
			offsets = append(offsets, from)
		}
	}
	return string(text), append(offsets, len(raw))
}

// simpleEscape returns the byte a one-character escape stands for.
func simpleEscape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	}
	return c // ", \ and /
}

// unicodeEscape decodes the \u escape at raw[i] (with the low half of a
// surrogate pair that follows it), and returns the offset after it.
func unicodeEscape(raw []byte, i int) (rune, int) {
	hex := func(at int) (rune, bool) {
		if at+6 > len(raw) || raw[at] != '\\' || raw[at+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(raw[at+2:at+6]), 16, 32)
		return rune(v), err == nil
	}
	r, ok := hex(i)
	if !ok {
		return utf8.RuneError, i + 2
	}
	if 0xD800 <= r && r < 0xDC00 {
		if lo, ok := hex(i + 6); ok && 0xDC00 <= lo && lo < 0xE000 {
			return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), i + 12
		}
	}
	return r, i + 6
}

// outputSchemaTexts returns the descriptions in the output schemas of the
// plugin's tools: texts a request holds only if it carries one of those
// schemas, which the model does not need (it reads a tool's result as
// text).
func outputSchemaTexts() []string {
	var out []string
	for _, schema := range []string{render.SkillToolOutputSchema, render.ResourceToolOutputSchema, render.SearchToolOutputSchema} {
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				if d, ok := v["description"].(string); ok {
					out = append(out, d)
				}
				for _, x := range v {
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		var v any
		if json.Unmarshal([]byte(schema), &v) == nil {
			walk(v)
		}
	}
	return out
}

// encodings returns texts as JSON strings encode them, quotes and all, so
// that a text is found only as a whole string; with and without HTML
// escapes (the SDKs differ).
func encodings(texts []string) [][]byte {
	var out [][]byte
	for _, t := range texts {
		for _, html := range []bool{true, false} {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(html)
			if enc.Encode(t) == nil {
				out = append(out, bytes.TrimSpace(b.Bytes()))
			}
		}
	}
	return out
}

// toolsHold reports whether the tool definitions of a request's prompt
// (the items of its first part) hold one of encoded.
func toolsHold(p modelapi.Prompt, encoded [][]byte) bool {
	rest, ok := bytes.CutPrefix(p.Bytes, []byte("tools\n"))
	if !ok {
		return false
	}
	end := 0
	for end < len(rest) && rest[end] == '{' {
		j := bytes.IndexByte(rest[end:], '\n')
		if j < 0 {
			end = len(rest)
			break
		}
		end += j + 1
	}
	for _, e := range encoded {
		if bytes.Contains(rest[:end], e) {
			return true
		}
	}
	return false
}

// relevantNames returns the names of the skills a relevant-skills message
// names in what cur adds to prev, or nil when it adds none. It reads the
// request's JSON, where an entry's "-`name`" is never escaped.
func relevantNames(prev, cur modelapi.Prompt) []string {
	added := cur.Bytes[modelapi.CommonPrefix(prev, cur):]
	open := bytes.Index(added, []byte("relevant_skills"))
	if open < 0 {
		return nil
	}
	block := added[open+1:]
	if end := bytes.Index(block, []byte("/relevant_skills")); end >= 0 {
		block = block[:end]
	} else {
		return nil
	}
	var names []string
	for {
		i := bytes.Index(block, []byte("-`"))
		if i < 0 {
			return names
		}
		block = block[i+2:]
		j := bytes.IndexByte(block, '`')
		if j < 0 {
			return names
		}
		names = append(names, string(block[:j]))
		block = block[j+1:]
	}
}
