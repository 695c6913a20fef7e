package mcpskills

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

var testEntryLimits = entryLimits{MaxDescriptionBytes: 1024}

func digestOfText(s string) string {
	_, sum := digestOf(&Content{Text: s})
	return fmt.Sprintf("sha256:%x", sum)
}

// res is a manifest element.
func res(uri string, size int) string {
	return fmt.Sprintf(`{"uri":%q,"digest":%q,"size":%d}`, uri, digestOfText(uri), size)
}

func entryOf(uri, frontmatter, resources string) string {
	return fmt.Sprintf(`{"uri":%q,"frontmatter":%s,"resources":%s}`, uri, frontmatter, resources)
}

const fmX = `{"name":"x","description":"d"}`

func TestDecodeEntryInvalid(t *testing.T) {
	sk := res("skill://x/SKILL.md", 1)
	for _, tc := range []struct{ raw, why string }{
		{`"x"`, "not a JSON object"},
		{`null`, "not a JSON object"},
		{`[]`, "not a JSON object"},
		{`{`, "not a JSON object"},
		{`{"frontmatter":{},"resources":[]}`, `no "uri"`},
		{`{"uri":7}`, `"uri" is not a string`},
		{`{"uri":null}`, `"uri" is not a string`},
		{entryOf("skill://x/skill.md", fmX, "[]"), `uri "skill://x/skill.md" is not the URI of a SKILL.md: it does not end in /SKILL.md`},
		{entryOf("skill://SKILL.md", fmX, "[]"), `uri "skill://SKILL.md" is not the URI of a SKILL.md: it does not end in /SKILL.md`},
		{entryOf("x/SKILL.md", fmX, "[]"), `uri "x/SKILL.md" is not the URI of a SKILL.md: no scheme://`},
		{entryOf("1x://x/SKILL.md", fmX, "[]"), `uri "1x://x/SKILL.md" is not the URI of a SKILL.md: no scheme://`},
		{entryOf("skill://a//x/SKILL.md", fmX, "[]"), `uri "skill://a//x/SKILL.md" is not the URI of a SKILL.md: an empty, "." or ".." segment`},
		{entryOf("skill://a/../x/SKILL.md", fmX, "[]"), `uri "skill://a/../x/SKILL.md" is not the URI of a SKILL.md: an empty, "." or ".." segment`},
		{entryOf("skill://x/SKILL.md?v=1", fmX, "[]"), `uri "skill://x/SKILL.md?v=1" is not the URI of a SKILL.md: a query, fragment, backslash, space or control character`},
		{entryOf("skill://u@x/SKILL.md", fmX, "[]"), `uri "skill://u@x/SKILL.md" is not the URI of a SKILL.md: userinfo or a port`},
		{entryOf("skill://x:1/SKILL.md", fmX, "[]"), `uri "skill://x:1/SKILL.md" is not the URI of a SKILL.md: userinfo or a port`},
		{entryOf("skill://x%zz/SKILL.md", fmX, "[]"), `uri "skill://x%zz/SKILL.md" is not the URI of a SKILL.md: a malformed percent-encoding`},
		{entryOf("skill://"+strings.Repeat("a/", 1100)+"x/SKILL.md", fmX, "[]"), "longer than 2048 bytes"},
		{`{"uri":"skill://x/SKILL.md","resources":[]}`, `no "frontmatter"`},
		{entryOf("skill://x/SKILL.md", `null`, "[]"), `"frontmatter" is not a JSON object`},
		{entryOf("skill://x/SKILL.md", `[]`, "[]"), `"frontmatter" is not a JSON object`},
		{entryOf("skill://x/SKILL.md", `{"description":"d"}`, "[]"), `frontmatter "name" is not a string`},
		{entryOf("skill://X/SKILL.md", `{"name":"X","description":"d"}`, "[]"), `frontmatter name "X" is not a skill name`},
		{entryOf("skill://x/SKILL.md", `{"name":"y","description":"d"}`, "[]"), `frontmatter name "y" is not the last segment of the skill path "x"`},
		{entryOf("skill://x/SKILL.md", `{"name":"x"}`, "[]"), `frontmatter "description" is not a string`},
		{entryOf("skill://x/SKILL.md", `{"name":"x","description":3}`, "[]"), `frontmatter "description" is not a string`},
		{entryOf("skill://x/SKILL.md", `{"name":"x","description":" \u00a0\t"}`, "[]"), "empty description"},
		{`{"uri":"skill://x/SKILL.md","frontmatter":` + fmX + `}`, `no "resources"`},
		{entryOf("skill://x/SKILL.md", fmX, `null`), `"resources" is neither an array nor "dynamic"`},
		{entryOf("skill://x/SKILL.md", fmX, `"static"`), `"resources" is neither an array nor "dynamic"`},
		{entryOf("skill://x/SKILL.md", fmX, `"Dynamic"`), `"resources" is neither an array nor "dynamic"`},
		{entryOf("skill://x/SKILL.md", fmX, `{}`), `"resources" is neither an array nor "dynamic"`},
		{entryOf("skill://x/SKILL.md", fmX, `17`), `"resources" is neither an array nor "dynamic"`},
		{entryOf("skill://x/SKILL.md", fmX, `[]`), "resources does not list the SKILL.md"},
		{entryOf("skill://x/SKILL.md", fmX, `[`+res("skill://x/a.md", 1)+`]`), "resources does not list the SKILL.md"},
		{entryOf("skill://x/SKILL.md", fmX, `[null]`), "resources[0]: not a JSON object"},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+sk+`]`), `resources[1]: "skill://x/SKILL.md" is listed twice`},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+res("skill://x/a%2Eb", 1)+`,`+res("skill://x/a.b", 1)+`]`), `resources[2]: "skill://x/a.b" is listed twice`},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+res("skill://y/a.md", 1)+`]`), `resources[1]: uri "skill://y/a.md" is not a file inside the skill's directory "skill://x"`},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+res("skill://xy/a.md", 1)+`]`), `is not a file inside the skill's directory`},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+res("skill://x", 1)+`]`), `is not a file inside the skill's directory`},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+res("skill://x/", 1)+`]`), `has a segment that is empty`},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+res("skill://x/a/../b", 1)+`]`), `has a segment that is empty, ".", ".."`},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+res("skill://x/%2E%2E/b", 1)+`]`), `has a segment that is empty, ".", ".."`},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+res("skill://x/a%2Fb", 1)+`]`), `holds a separator`},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+res("skill://x/a%00", 1)+`]`), `control character`},
		{entryOf("skill://x/SKILL.md", fmX, `[`+sk+`,`+res("skill://x/a?q", 1)+`]`), `has a query, fragment or backslash`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","size":1}]`), `resources[0]: no "digest"`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha256:00","size":1}]`), `digest "sha256:00" is not`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha512:`+strings.Repeat("0", 64)+`","size":1}]`), `is not "sha256:" and 64`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha256:`+strings.Repeat("A", 64)+`","size":1}]`), `is not "sha256:" and 64`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha256:`+strings.Repeat("g", 64)+`","size":1}]`), `is not "sha256:" and 64`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha256:`+strings.Repeat("0", 64)+`"}]`), `no "size"`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha256:`+strings.Repeat("0", 64)+`","size":-1}]`), `"size" is not a non-negative integer`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha256:`+strings.Repeat("0", 64)+`","size":1.5}]`), `"size" is not a non-negative integer`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha256:`+strings.Repeat("0", 64)+`","size":1e3}]`), `"size" is not a non-negative integer`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha256:`+strings.Repeat("0", 64)+`","size":"1"}]`), `"size" is not a non-negative integer`},
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha256:`+strings.Repeat("0", 64)+`","size":01}]`), "not a JSON object"}, // not JSON at all
		{entryOf("skill://x/SKILL.md", fmX, `[{"uri":"skill://x/SKILL.md","digest":"sha256:`+strings.Repeat("0", 64)+`","size":null}]`), `"size" is not a non-negative integer`},
	} {
		e, _, why := decodeEntry(json.RawMessage(tc.raw), testEntryLimits)
		if !strings.Contains(why, tc.why) {
			t.Errorf("decodeEntry(%s) = %q, want a reason containing %q", tc.raw, why, tc.why)
		}
		if why != "" && e != nil && e.declined != "" {
			t.Errorf("decodeEntry(%.120s) declined an invalid entry", tc.raw)
		}
	}
}

func TestDecodeEntryValid(t *testing.T) {
	raw := entryOf("skill://acme/billing/refunds/SKILL.md",
		`{"name":"refunds","description":"  Refund\tpolicy. ","metadata":{"v":1},"disable-model-invocation":true,"user-invocable":false}`,
		`[`+res("skill://acme/billing/refunds/SKILL.md", 10)+`,`+res("skill://acme/billing/refunds/my%20docs/Q&A.md", 0)+`,`+res("skill://acme/billing/refunds/nested/SKILL.md", 3)+`]`)
	e, notes, why := decodeEntry(json.RawMessage(raw), testEntryLimits)
	if why != "" || len(notes) != 0 {
		t.Fatalf("decodeEntry = %q %q", why, notes)
	}
	if e.Name != "refunds" || e.Description != "Refund policy." || e.Root != "skill://acme/billing/refunds" || e.Path != "acme/billing/refunds" || e.TotalBytes != 13 || e.declined != "" {
		t.Errorf("entry = %+v", e)
	}
	if e.Invocation != (skill.InvocationPolicy{}) {
		t.Errorf("invocation = %+v, want both narrowed by the frontmatter", e.Invocation)
	}
	for path, uri := range map[string]string{
		"SKILL.md":        "skill://acme/billing/refunds/SKILL.md",
		"my docs/Q&A.md":  "skill://acme/billing/refunds/my%20docs/Q&A.md",
		"nested/SKILL.md": "skill://acme/billing/refunds/nested/SKILL.md",
	} {
		if f, ok := e.file(path); !ok || f.URI != uri {
			t.Errorf("file(%q) = %+v, %v", path, f, ok)
		}
	}
	if e.skillFileEntry().Size != 10 {
		t.Errorf("SKILL.md entry = %+v", e.skillFileEntry())
	}

	// Another scheme: the skill path starts with the scheme.
	raw = entryOf("github://owner/repo/refunds/SKILL.md", `{"name":"refunds","description":"d"}`, `[`+res("github://owner/repo/refunds/SKILL.md", 1)+`]`)
	if e, _, why := decodeEntry(json.RawMessage(raw), testEntryLimits); why != "" || e.Path != "github/owner/repo/refunds" {
		t.Errorf("github entry = %+v, %q", e, why)
	}
	// A single-segment path: the authority is the name.
	raw = entryOf("skill://git-workflow/SKILL.md", `{"name":"git-workflow","description":"d"}`, `[`+res("skill://git-workflow/SKILL.md", 1)+`]`)
	if e, _, why := decodeEntry(json.RawMessage(raw), testEntryLimits); why != "" || e.Path != "git-workflow" || e.Root != "skill://git-workflow" {
		t.Errorf("flat entry = %+v, %q", e, why)
	}
	// A long description is truncated with a note.
	raw = entryOf("skill://x/SKILL.md", `{"name":"x","description":"`+strings.Repeat("é", 600)+`"}`, `[`+res("skill://x/SKILL.md", 1)+`]`)
	e, notes, why = decodeEntry(json.RawMessage(raw), testEntryLimits)
	if why != "" || len(e.Description) > 1024 || !utf8.ValidString(e.Description) || len(notes) != 1 || notes[0] != "description truncated from 1200 to 1024 bytes" {
		t.Errorf("long description: %d bytes, notes %q, %q", len(e.Description), notes, why)
	}
}

// TestDecodeEntryLimits: a skill at the extension's limits is accepted;
// one past either is declined with the reason.
func TestDecodeEntryLimits(t *testing.T) {
	files := func(n int, last int64) string {
		items := []string{res("skill://x/SKILL.md", 1)}
		for i := 1; i < n; i++ {
			size := int64(0)
			if i == n-1 {
				size = last
			}
			items = append(items, fmt.Sprintf(`{"uri":"skill://x/f%d","digest":%q,"size":%d}`, i, digestOfText(""), size))
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	for _, tc := range []struct {
		name     string
		res      string
		declined string
	}{
		{"512 files", files(512, 0), ""},
		{"513 files", files(513, 0), "its entry lists 513 files, more than the 512 a skill may have"},
		{"16 MiB", files(2, skillsext.MaxSkillBytes-1), ""},
		{"16 MiB and a byte", files(2, skillsext.MaxSkillBytes), "its files total 16777217 bytes, more than the 16777216 bytes (16 MiB) a skill may have"},
		{"a huge size", files(2, 1<<62), "its files total 16777218 bytes, more than the 16777216 bytes (16 MiB) a skill may have"},
		{"a SKILL.md over 8 MiB", `[{"uri":"skill://x/SKILL.md","digest":"` + digestOfText("") + `","size":8388609}]`, "its SKILL.md is 8388609 bytes, more than the 8388608 bytes (8 MiB) a SKILL.md may have"},
		{"dynamic", `"dynamic"`, `its resources are "dynamic", with no digests to verify them against`},
	} {
		e, _, why := decodeEntry(json.RawMessage(entryOf("skill://x/SKILL.md", fmX, tc.res)), testEntryLimits)
		if why != "" || e.declined != tc.declined {
			t.Errorf("%s: declined %q (invalid %q), want declined %q", tc.name, e.declined, why, tc.declined)
		}
	}
}

func FuzzDecodeEntry(f *testing.F) {
	f.Add(entryOf("skill://acme/billing/refunds/SKILL.md", `{"name":"refunds","description":"d","allowed-tools":"Bash"}`, `[`+res("skill://acme/billing/refunds/SKILL.md", 10)+`,`+res("skill://acme/billing/refunds/a%20b.md", 2)+`]`))
	f.Add(entryOf("skill://x/SKILL.md", fmX, `"dynamic"`))
	f.Add(entryOf("github://o/r/x/SKILL.md", fmX, `[`+res("github://o/r/x/SKILL.md", 1)+`]`))
	f.Add(`{"uri":"skill://x/SKILL.md","frontmatter":{"name":"x","description":"d"},"resources":[{"uri":"skill://x/SKILL.md","digest":"sha256:` + strings.Repeat("0", 64) + `","size":99999999999999999999}]}`)
	f.Add(`{"uri":"skill://x/../SKILL.md"}`)
	f.Add(`null`)
	f.Fuzz(func(t *testing.T, raw string) {
		e, notes, why := decodeEntry(json.RawMessage(raw), entryLimits{MaxDescriptionBytes: 64})
		if why != "" {
			if !utf8.ValidString(why) && utf8.ValidString(raw) {
				t.Errorf("reason is not UTF-8: %q", why)
			}
			return
		}
		// An accepted entry satisfies every rule the decoder promises.
		if !skill.ValidBoundedName(e.Name) || e.Description == "" || len(e.Description) > 64 {
			t.Fatalf("accepted name %q description %q", e.Name, e.Description)
		}
		if !strings.HasSuffix(e.URI, "/SKILL.md") || e.Root+"/SKILL.md" != e.URI || len(e.URI) > maxSkillURIBytes {
			t.Fatalf("accepted uri %q root %q", e.URI, e.Root)
		}
		if len(notes) > 1 {
			t.Fatalf("notes %q", notes)
		}
		if e.Dynamic {
			if len(e.Files) != 0 || e.declined == "" {
				t.Fatalf("dynamic entry with files or loadable: %+v", e)
			}
			return
		}
		if e.declined != "" && len(e.Files) == 0 {
			return // declined by count before decoding files
		}
		if e.skillFileEntry().URI != e.URI {
			t.Fatalf("SKILL.md entry %q", e.skillFileEntry().URI)
		}
		seen := map[string]bool{}
		var total int64
		for _, f := range e.Files {
			if seen[f.URI] || (f.URI != e.URI && !strings.HasPrefix(f.URI, e.Root+"/")) {
				t.Fatalf("file %q repeated or outside %q", f.URI, e.Root)
			}
			seen[f.URI] = true
			for seg := range strings.SplitSeq(f.Path, "/") {
				if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "\\\x00") {
					t.Fatalf("file path %q", f.Path)
				}
			}
			if g, ok := e.file(f.Path); !ok || g.URI != f.URI {
				t.Fatalf("file(%q) does not find %q", f.Path, f.URI)
			}
			if f.Size < 0 || f.Size > skillsext.MaxSkillBytes+1 {
				t.Fatalf("size %d", f.Size)
			}
			total += f.Size
		}
		if total != e.TotalBytes || (e.declined == "") != (len(e.Files) <= skillsext.MaxSkillResources && total <= skillsext.MaxSkillBytes && e.skillFileEntry().Size <= skill.MaxSkillFileBytes) {
			t.Fatalf("total %d (%d), %d files, declined %q", total, e.TotalBytes, len(e.Files), e.declined)
		}
	})
}

// TestDecodeEntryArgumentHint: a remote skill's argument-hint reaches its
// summary, as a string or as the list a YAML flow sequence became, on one
// line and bounded; anything else is no hint.
func TestDecodeEntryArgumentHint(t *testing.T) {
	tests := []struct{ hint, want string }{
		{`"[issue-number] [priority]"`, "[issue-number] [priority]"},
		{`["issue-number"]`, "[issue-number]"},
		{`["from","to"]`, "[from, to]"},
		{`"two\nlines\t here"`, "two lines here"},
		{`"` + strings.Repeat("h", 300) + `"`, strings.Repeat("h", 256)},
		{`[1]`, ""},
		{`{"a":"b"}`, ""},
		{`true`, ""},
	}
	for _, tt := range tests {
		raw := entryOf("skill://fix/SKILL.md", `{"name":"fix","description":"d","argument-hint":`+tt.hint+`}`, `[`+res("skill://fix/SKILL.md", 1)+`]`)
		e, _, why := decodeEntry(json.RawMessage(raw), testEntryLimits)
		if why != "" {
			t.Fatalf("hint %s: declined: %s", tt.hint, why)
		}
		if got := entrySummary("docs", e).ArgumentHint; got != tt.want {
			t.Errorf("hint %s: summary hint %q, want %q", tt.hint, got, tt.want)
		}
	}
}

// TestDecodeEntrySearchFields: a remote skill's when_to_use, keywords and
// tags reach its summary, bounded, for the plugin's skill search; values of
// another type are none.
func TestDecodeEntrySearchFields(t *testing.T) {
	tests := []struct{ fields, when, keywords string }{
		{`"when_to_use":"After a deploy fails.","keywords":["deploy","rollback"],"tags":"ops, deploy"`, "After a deploy fails.", "deploy, rollback, ops"},
		{`"when_to_use":3,"keywords":{"a":1}`, "", ""},
		{`"when_to_use":"` + strings.Repeat("w", 3000) + `"`, strings.Repeat("w", skill.MaxWhenToUseBytes), ""},
	}
	for _, tt := range tests {
		raw := entryOf("skill://fix/SKILL.md", `{"name":"fix","description":"d",`+tt.fields+`}`, `[`+res("skill://fix/SKILL.md", 1)+`]`)
		e, _, why := decodeEntry(json.RawMessage(raw), testEntryLimits)
		if why != "" {
			t.Fatalf("%s: declined: %s", tt.fields, why)
		}
		if s := entrySummary("docs", e); s.WhenToUse != tt.when || s.Keywords != tt.keywords {
			t.Errorf("%s: when_to_use %q, keywords %q; want %q, %q", tt.fields[:min(len(tt.fields), 40)], s.WhenToUse, s.Keywords, tt.when, tt.keywords)
		}
	}
}

// TestDecodeEntryPaths: a remote skill's paths reach its summary as the
// disk provider reads them; what the parser leaves out is a note.
func TestDecodeEntryPaths(t *testing.T) {
	tests := []struct {
		fields, paths string
		notes         int
	}{
		{`"paths":"src/**/*.{ts,tsx}, docs/**"`, "src/**/*.ts\nsrc/**/*.tsx\ndocs/**", 0},
		{`"paths":["*.go",3,"[bad"]`, "*.go", 1},
		{`"paths":{"a":1}`, "", 0},
	}
	for _, tt := range tests {
		raw := entryOf("skill://fix/SKILL.md", `{"name":"fix","description":"d",`+tt.fields+`}`, `[`+res("skill://fix/SKILL.md", 1)+`]`)
		e, notes, why := decodeEntry(json.RawMessage(raw), testEntryLimits)
		if why != "" {
			t.Fatalf("%s: declined: %s", tt.fields, why)
		}
		if s := entrySummary("docs", e); s.Paths != tt.paths || len(notes) != tt.notes {
			t.Errorf("%s: paths %q, notes %q; want %q and %d notes", tt.fields, s.Paths, notes, tt.paths, tt.notes)
		}
	}
}
