// Package triggereval runs trigger evals: requests that should, or should
// not, make a model use a skill, in the files skill repositories ship
// (ParseFile reads them). Run sends each request, with the session's
// catalog and tools, to a Model some number of times and reports whether
// the model called the `skill` tool with the right name, the trigger rate
// of each request and its pass or fail at a threshold. The Model is the
// host's: the adapters of the model APIs live in their own module
// (hostsdk/modelapi), which this package does not depend on.
package triggereval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Bounds on a trigger-eval file: a larger file, more cases or a longer
// request is refused rather than read in part.
const (
	MaxFileSize = 1 << 20
	MaxCases    = 10000
	MaxRequest  = 16 << 10
)

// Case is one trigger case: a request and whether it should make the
// model use Skill.
type Case struct {
	// Skill is the skill the case is about; "" when the file does not say
	// (the command fills it in from -skill or the skill's folder).
	Skill         string
	Request       string
	ShouldTrigger bool
}

// jsonCase is one case of the JSON formats: {"query", "should_trigger"}
// or {"prompt", "should_trigger"}, with an optional "skill".
type jsonCase struct {
	Query         *string `json:"query"`
	Prompt        *string `json:"prompt"`
	ShouldTrigger *bool   `json:"should_trigger"`
	Skill         string  `json:"skill"`
}

// ParseFile reads the trigger cases of a file (name is its path, for
// errors and its extension): a JSON array of cases,
// an object {"skill_name", "evals": [cases]}, or (by the .md extension)
// the markdown form of parseMarkdown. A case without should_trigger
// or without a request is not a trigger case (an output eval, say) and is
// left out; a file that is none of these is an error.
func ParseFile(name string, data []byte) ([]Case, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, MaxFileSize)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%s: not UTF-8 text", name)
	}
	if strings.EqualFold(filepath.Ext(name), ".md") {
		return parseMarkdown(name, data)
	}
	trimmed := bytes.TrimSpace(data)
	var raw []jsonCase
	skillName := ""
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		if err := json.Unmarshal(trimmed, &raw); err != nil {
			return nil, fmt.Errorf("%s: not a JSON array of {\"query\", \"should_trigger\"}: %w", name, err)
		}
	case len(trimmed) > 0 && trimmed[0] == '{':
		var obj struct {
			SkillName string     `json:"skill_name"`
			Evals     []jsonCase `json:"evals"`
		}
		if err := json.Unmarshal(trimmed, &obj); err != nil {
			return nil, fmt.Errorf("%s: not a JSON object {\"evals\": [{\"prompt\", \"should_trigger\"}]}: %w", name, err)
		}
		raw, skillName = obj.Evals, obj.SkillName
	default:
		return nil, fmt.Errorf("%s: neither JSON nor markdown (.md)", name)
	}
	if len(raw) > MaxCases {
		return nil, fmt.Errorf("%s: more than %d cases", name, MaxCases)
	}
	var out []Case
	for _, c := range raw {
		req := c.Query
		if req == nil {
			req = c.Prompt
		}
		if req == nil || c.ShouldTrigger == nil {
			continue
		}
		if err := checkRequest(*req); err != nil {
			return nil, fmt.Errorf("%s: case %d: %w", name, len(out)+1, err)
		}
		out = append(out, Case{Skill: firstOf(c.Skill, skillName), Request: strings.TrimSpace(*req), ShouldTrigger: *c.ShouldTrigger})
	}
	return out, nil
}

// checkRequest refuses a request no model step could be given.
func checkRequest(r string) error {
	switch {
	case strings.TrimSpace(r) == "":
		return errors.New("empty request")
	case len(r) > MaxRequest:
		return fmt.Errorf("request longer than %d bytes", MaxRequest)
	}
	return nil
}

// parseMarkdown reads the markdown form: one case per task-list item,
// "- [x] request" for a request that should trigger the skill and
// "- [ ] request" for one that should not ("*" for "-", "X" for "x"), and
// an optional line "skill: NAME" naming the skill. Every other line
// (headings, prose) is ignored.
func parseMarkdown(name string, data []byte) ([]Case, error) {
	var out []Case
	skillName := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, MaxFileSize+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, "skill:"); ok && skillName == "" {
			skillName = strings.TrimSpace(v)
			continue
		}
		if len(line) < 2 || (line[0] != '-' && line[0] != '*') {
			continue
		}
		item := strings.TrimSpace(line[1:])
		var should bool
		switch {
		case strings.HasPrefix(item, "[x]"), strings.HasPrefix(item, "[X]"):
			should = true
		case strings.HasPrefix(item, "[ ]"):
		default:
			continue
		}
		req := strings.TrimSpace(item[3:])
		if err := checkRequest(req); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if len(out) == MaxCases {
			return nil, fmt.Errorf("%s: more than %d cases", name, MaxCases)
		}
		out = append(out, Case{Request: req, ShouldTrigger: should})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i := range out {
		out[i].Skill = skillName
	}
	return out, nil
}

// firstOf is the first of a and b that is not empty.
func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
