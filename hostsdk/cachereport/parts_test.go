package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/cachereport/measure"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
)

// TestWalkStrings: every string value, with the member it is the value of,
// and never a member's name.
func TestWalkStrings(t *testing.T) {
	item := `{"content":[{"text":"a\"b","type":"text"}],"role":"user","input":{"name":"x"},"required":["name"],"n":1}`
	var got []string
	walkStrings([]byte(item), func(member string, s, e int) {
		got = append(got, member+"="+item[s:e])
	})
	want := []string{`text=a\"b`, "type=text", "role=user", "name=x", "required=name"}
	if !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
	got = nil
	walkStrings([]byte(`"a system prompt"`), func(member string, s, e int) { got = append(got, member+"="+`"a system prompt"`[s:e]) })
	if !slices.Equal(got, []string{"=a system prompt"}) {
		t.Errorf("a top-level string: %q", got)
	}
}

// TestDecodeString: the text of a JSON string, and for each of its bytes
// the offset of the escape or byte it comes from.
func TestDecodeString(t *testing.T) {
	for _, tc := range []struct {
		raw, text string
		offsets   []int
	}{
		{`ab`, "ab", []int{0, 1, 2}},
		{`\u003cb\n`, "<b\n", []int{0, 6, 7, 9}},
		{`\u00e9`, "é", []int{0, 0, 6}},
		{`\ud83d\ude00!`, "😀!", []int{0, 0, 0, 0, 12, 13}},
		{`\"\\\/`, `"\/`, []int{0, 2, 4, 6}},
	} {
		text, offsets := decodeString([]byte(tc.raw))
		if text != tc.text || !slices.Equal(offsets, tc.offsets) {
			t.Errorf("%s: %q %v, want %q %v", tc.raw, text, offsets, tc.text, tc.offsets)
		}
		var want string
		if err := json.Unmarshal([]byte(`"`+tc.raw+`"`), &want); err != nil || want != text {
			t.Errorf("%s: %q, encoding/json reads %q (%v)", tc.raw, text, want, err)
		}
	}
}

// TestClassify: what each kind of string of a request is.
func TestClassify(t *testing.T) {
	sc := shortScenario()
	l := newLabeler(sc)
	catalog := reminderOpen + "A skill is ...:\n\n" + catalogOpen + "-`a`: b\n" + catalogClose + "\n\nIf ...\n</system-reminder>"
	replacement := replacementStart + " ...:\n\n" + catalogOpen + "-`a`: c\n" + catalogClose + "\n\nIf ...\n</system-reminder>"
	result := "<skill_content name=\"a\">\n<skill_resources>\nResource base directory: /x\n</skill_resources>\n" + instructionsOpen + "# A\n" + instructionsEnd + "\n</skill_content>"
	alternative := systemPrompt + "\n\n" + skillsSystemText + "\n\n" + catalogOpen + "<skill>x</skill>\n" + catalogClose
	for _, tc := range []struct {
		name, member, text string
		want               string // the parts of each byte, a letter each
	}{
		{"the runtime's system prompt", "text", systemPrompt, strings.Repeat("s", len(systemPrompt))},
		{"a user's message", "content", sc.turns[0].user, strings.Repeat("u", len(sc.turns[0].user))},
		{"an answer", "text", sc.turns[0].answer, strings.Repeat("a", len(sc.turns[0].answer))},
		{"a call's id", "id", "call_01", "ccccccc"},
		{"a type", "type", "text", "...."},
		{"unknown text", "text", "hello", "ooooo"},
		{"a catalog", "text", catalog, parts(catalog, "F", catalogOpen+"-`a`: b\n"+catalogClose, "F", "-`a`: b\n", "E")},
		{"a replacement", "text", replacement, parts(replacement, "R", catalogOpen+"-`a`: c\n"+catalogClose, "R", "-`a`: c\n", "N")},
		{"a relevant-skills message", "text", relevantStart + " x", strings.Repeat("v", len(relevantStart)+2)},
		{"a skill result", "output", result, parts(result, "W", "# A\n", "I")},
		{"an alternative's skill result", "content", launching + "a\ndir\n\n# A\n", parts(launching+"a\ndir\n\n# A\n", "W", "# A\n", "I")},
		{"an alternative's system prompt", "text", alternative,
			strings.Repeat("s", len(systemPrompt)) + parts(alternative[len(systemPrompt):], "F", "<skill>x</skill>\n", "E")},
	} {
		letters := []byte(strings.Repeat(".", len(tc.text)))
		for _, s := range l.classify(tc.member, tc.text) {
			for i := s.start; i < s.end; i++ {
				letters[i] = letter(s.part)
			}
		}
		if string(letters) != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, letters, tc.want)
		}
	}
}

// parts returns a letter per byte of text: fill, but the first of each
// inner text (pairs of a text and its letter) its letter, in order.
func parts(text, fill string, inner ...string) string {
	out := []byte(strings.Repeat(fill, len(text)))
	for i := 0; i < len(inner); i += 2 {
		at := strings.Index(text, inner[i])
		for j := range len(inner[i]) {
			out[at+j] = inner[i+1][0]
		}
	}
	return string(out)
}

func letter(part string) byte {
	switch part {
	case partSystem:
		return 's'
	case partUser:
		return 'u'
	case partAnswers:
		return 'a'
	case partCalls:
		return 'c'
	case partOther:
		return 'o'
	case partFixed:
		return 'F'
	case partEntries:
		return 'E'
	case partReplaceFixed:
		return 'R'
	case partReplaceEntries:
		return 'N'
	case partRelevant:
		return 'v'
	case partWrapper:
		return 'W'
	case partInstructions:
		return 'I'
	}
	return '?'
}

// TestSpans: a request's parts, from its prompt, escapes and all; the
// tools' definitions, an alternative's catalog in one, and the JSON
// between the texts.
func TestSpans(t *testing.T) {
	sc := shortScenario()
	l := newLabeler(sc)
	tool := `{"description":"Load.\n\n\u003cavailable_skills\u003e\nx\n\u003c/available_skills\u003e","name":"skill"}`
	user := `{"content":[{"text":"` + sc.turns[0].user + `","type":"text"}],"role":"user"}`
	p := modelapi.Prompt{Bytes: []byte("tools\n" + tool + "\nmessages\n" + user + "\n")}
	text := func(s measure.Span) string { return string(p.Bytes[s.Start:s.End]) }
	var got []string
	for _, s := range l.spans(p) {
		got = append(got, fmt.Sprintf("%s=%s", s.Part, text(s)))
	}
	want := []string{
		partTool("skill") + `=` + `{"description":"Load.\n\n`,
		partFixed + `=\u003cavailable_skills\u003e\n`,
		partEntries + `=x\n`,
		partFixed + `=\u003c/available_skills\u003e`,
		partTool("skill") + `=","name":"skill"}`,
		partUser + "=" + sc.turns[0].user,
	}
	if !slices.Equal(got, want) {
		t.Errorf("spans\n%q\nwant\n%q", got, want)
	}
}

// TestRelevantNames: the skills a relevant-skills message that a request
// adds names, in the JSON of either SDK.
func TestRelevantNames(t *testing.T) {
	prev := modelapi.Prompt{Bytes: []byte(`messages\n{"text":"-` + "`old`" + `: x"}`)}
	for _, tc := range []struct {
		added string
		want  []string
	}{
		{`{"text":"\u003crelevant_skills\u003e\n-` + "`kafka-debug`: Diagnose...\\n-`kafka-setup`: Set up" + `\n\u003c/relevant_skills\u003e"}`, []string{"kafka-debug", "kafka-setup"}},
		{`{"content":"<relevant_skills>\n-` + "`dns-setup`: Set up" + `\n</relevant_skills>\n-` + "`after`" + `"}`, []string{"dns-setup"}},
		{`{"text":"no message"}`, nil},
	} {
		cur := modelapi.Prompt{Bytes: append(append([]byte{}, prev.Bytes...), tc.added...)}
		if got := relevantNames(prev, cur); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.added, got, tc.want)
		}
	}
}

// TestToolsHold: an output schema's texts are found in a request's tool
// definitions, and only there.
func TestToolsHold(t *testing.T) {
	texts := outputSchemaTexts()
	if !slices.Contains(texts, "The loaded skill's exact name") {
		t.Fatalf("the skill tool's output schema's texts: %q", texts)
	}
	enc := encodings(texts)
	for _, tc := range []struct {
		prompt string
		want   bool
	}{
		{"tools\n" + `{"name":"skill","output_schema":{"description":"The loaded skill's exact name"}}` + "\nmessages\n", true},
		{"tools\n" + `{"name":"skill"}` + "\nmessages\n" + `{"text":"The loaded skill's exact name"}` + "\n", false},
		{"tools\n" + `{"name":"skill","description":"The loaded skill's exact name, and more"}` + "\n", false},
		{"messages\n" + `{"text":"x"}` + "\n", false},
	} {
		if got := toolsHold(modelapi.Prompt{Bytes: []byte(tc.prompt)}, enc); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.prompt, got, tc.want)
		}
	}
}

// TestSpansFollowPrevious: a labeler that saw the previous requests finds
// the same parts in a request as one that sees it alone, whether it
// repeats the previous request, extends it, or breaks it in its first
// line or in the middle of one.
func TestSpansFollowPrevious(t *testing.T) {
	sc := shortScenario()
	tool := func(desc string) string { return `{"description":"` + desc + `","name":"skill"}` }
	user := `{"content":[{"text":"` + sc.turns[0].user + `","type":"text"}],"role":"user"}`
	answer := `{"content":[{"text":"` + sc.turns[0].answer + `","type":"text"}],"role":"assistant"}`
	catalog := `{"content":[{"text":"\u003csystem-reminder\u003e\nA\n\n\u003cavailable_skills\u003e\n-` + "`a`: b" + `\n\u003c/available_skills\u003e","type":"text"}],"role":"user"}`
	prompts := []string{
		"tools\n" + tool("Load.") + "\nmessages\n" + user + "\n",
		"tools\n" + tool("Load.") + "\nmessages\n" + user + "\n" + catalog + "\n",
		"tools\n" + tool("Load.") + "\nmessages\n" + user + "\n" + catalog + "\n" + answer + "\n",
		"tools\n" + tool("Load.") + "\nmessages\n" + user + "\n" + catalog + "\n" + answer + "\n",
		"tools\n" + tool(`Load.\n\n\u003cavailable_skills\u003e\nx\n\u003c/available_skills\u003e`) + "\nmessages\n" + user + "\n" + answer + "\n",
		"tool\n" + tool("Load.") + "\nmessages\n" + user + "\n",
		"",
		"tools\n" + tool("Load.") + "\nmessages\n" + user + "\n",
	}
	l := newLabeler(sc)
	for i, s := range prompts {
		p := modelapi.Prompt{Bytes: []byte(s)}
		got, want := l.spans(p), newLabeler(sc).spans(p)
		if !slices.Equal(got, want) {
			t.Errorf("request %d: %v, want %v", i+1, got, want)
		}
	}
}
