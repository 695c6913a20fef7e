package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/internal/golden"
)

type entries = []digest.Entry

func en(name, description string) digest.Entry {
	return digest.Entry{Name: name, Description: description}
}

// remote is the entry of a skill served by the remote server labelled origin.
func remote(name, description, origin string) digest.Entry {
	return digest.Entry{Name: name, Description: description, Origin: origin}
}

// website is the entry of a skill published by the website labelled origin.
func website(name, description, origin string) digest.Entry {
	return digest.Entry{Name: name, Description: description, Origin: origin, OriginKind: digest.OriginWebsite}
}

func TestParseCatalogReadable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		source  string
		entries entries
		update  bool
	}{
		{
			name:    "reference first publication",
			source:  `{"kind": "skill-catalog", "form": "catalog", "entries": [{"name": "a-skill", "description": "..."}]}`,
			entries: entries{en("a-skill", "...")},
		},
		{
			name:    "reference tombstone",
			source:  `{"kind": "skill-catalog", "form": "catalog", "update": true, "entries": []}`,
			entries: entries{},
			update:  true,
		},
		{
			name:    "compact",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x"},{"name":"b","description":""}]}`,
			entries: entries{en("a", "x"), en("b", "")},
		},
		{
			name:    "member order and extra members are free",
			source:  `{"entries":[{"extra":[1,{"n":null}],"description":"d","name":"n"}],"form":"catalog","v":2,"kind":"skill-catalog"}`,
			entries: entries{en("n", "d")},
		},
		{
			name:    "surrounding whitespace",
			source:  " \t\r\n{\"kind\":\"skill-catalog\",\"form\":\"catalog\",\"entries\":[]}\n\r\t ",
			entries: entries{},
		},
		{
			name:    "update false",
			source:  `{"kind":"skill-catalog","form":"catalog","update":false,"entries":[]}`,
			entries: entries{},
		},
		{name: "update string", source: `{"kind":"skill-catalog","form":"catalog","update":"true","entries":[]}`, entries: entries{}},
		{name: "update one", source: `{"kind":"skill-catalog","form":"catalog","update":1,"entries":[]}`, entries: entries{}},
		{name: "update null", source: `{"kind":"skill-catalog","form":"catalog","update":null,"entries":[]}`, entries: entries{}},
		{name: "update object", source: `{"kind":"skill-catalog","form":"catalog","update":{"true":true},"entries":[]}`, entries: entries{}},
		{
			name:    "duplicate update: last wins",
			source:  `{"kind":"skill-catalog","form":"catalog","update":false,"update":true,"entries":[]}`,
			entries: entries{},
			update:  true,
		},
		{
			name:    "duplicate entries: last wins",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"old","description":"o"}],"entries":[{"name":"new","description":"n"}]}`,
			entries: entries{en("new", "n")},
		},
		{
			name:    "earlier unreadable entries replaced",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[null],"entries":[{"name":"x","description":""}]}`,
			entries: entries{en("x", "")},
		},
		{
			name:    "duplicate name within entry: last wins",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":1,"description":"d","name":"late"}]}`,
			entries: entries{en("late", "d")},
		},
		{
			name:    "duplicate kind: last wins",
			source:  `{"kind":"other","kind":"skill-catalog","form":"catalog","entries":[]}`,
			entries: entries{},
		},
		{
			name:    "escaped member names",
			source:  `{"kind":"skill-catalog","\u0066orm":"catalog","entrie\u0073":[{"n\u0061me":"a","descr\u0069ption":"b"}]}`,
			entries: entries{en("a", "b")},
		},
		{
			// The literal is only a prefilter: once present anywhere, the kind is decoded.
			name:    "escaped kind with the literal elsewhere",
			source:  `{"kind":"skill\u002dcatalog","form":"catalog","entries":[],"note":"skill-catalog"}`,
			entries: entries{},
		},
		{
			name:    "escapes decoded",
			source:  `{"kind":"skill-catalog","form":"cat\u0061log","entries":[{"name":"a\"b\\c\/d","description":"\b\f\n\r\t\u00e9\u2028\ud83d\ude00 <&>"}]}`,
			entries: entries{en("a\"b\\c/d", "\b\f\n\r\t\u00e9\u2028\U0001F600 <&>")},
		},
		{
			name:    "hexadecimal digits in either case",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"\u00E9\u00e9","description":"\uABCD\uabcd\uD83D\uDE00\u0AfF"}]}`,
			entries: entries{en("éé", "\uABCD\uABCD\U0001F600\u0AFF")},
		},
		{
			// The escape after a high surrogate is no low surrogate escape, although
			// hexadecimal digits follow it.
			name:    "high surrogate followed by another escape",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"\ud800\nDC00","description":"\uD800\\DC00\ud800\"dc00"}]}`,
			entries: entries{en("\uFFFD\nDC00", "\uFFFD\\DC00\uFFFD\"dc00")},
		},
		{
			name:    "unpaired surrogates become U+FFFD",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"\ud800x","description":"\udc00\ud800\u0041\ud83d\ud83d\ude00"}]}`,
			entries: entries{en("\uFFFDx", "\uFFFD\uFFFDA\uFFFD\U0001F600")},
		},
		{
			name:    "invalid UTF-8 becomes U+FFFD",
			source:  "{\"kind\":\"skill-catalog\",\"form\":\"catalog\",\"entries\":[{\"name\":\"a\xffb\",\"description\":\"\xc3\x28\xe2\x82\"}]}",
			entries: entries{en("a\uFFFDb", "\uFFFD(\uFFFD\uFFFD")},
		},
		{
			// A byte that can only continue a sequence cannot start one.
			name:    "lone continuation bytes become U+FFFD",
			source:  "{\"kind\":\"skill-catalog\",\"form\":\"catalog\",\"entries\":[{\"name\":\"a\x80\",\"description\":\"\x7f\x80\xbf\xc3\xa9\x80\"}]}",
			entries: entries{en("a\uFFFD", "\x7f\uFFFD\uFFFDé\uFFFD")},
		},
		{
			name:    "non-empty whitespace name is still a name",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":" ","description":""}]}`,
			entries: entries{en(" ", "")},
		},
		{
			name:    "a remote skill's origin",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x"},{"name":"b","description":"y","origin":"docs"}]}`,
			entries: entries{en("a", "x"), remote("b", "y", "docs")},
		},
		{
			name:    "an empty origin is no origin",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":""}]}`,
			entries: entries{en("a", "x")},
		},
		{
			name:    "duplicate origin: last wins",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"origin":1,"name":"a","origin":"one","description":"x","origin":"two"}]}`,
			entries: entries{remote("a", "x", "two")},
		},
		{
			name:    "escaped origin key and value",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","\u006frigin":"d\u006fcs"}]}`,
			entries: entries{remote("a", "x", "docs")},
		},
		{
			name:    "a website's skill beside an MCP server's",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":"docs"},{"name":"b","description":"y","origin":"docs","origin_kind":"website"}]}`,
			entries: entries{remote("a", "x", "docs"), website("b", "y", "docs")},
		},
		{
			name:    "origin kind before origin",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"origin_kind":"website","name":"b","description":"y","origin":"docs"}]}`,
			entries: entries{website("b", "y", "docs")},
		},
		{
			name:    "escaped origin kind key and value",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"b","description":"y","origin":"docs","origin\u005fkind":"websit\u0065"}]}`,
			entries: entries{website("b", "y", "docs")},
		},
		{
			name:    "duplicate origin kind: last wins",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"b","description":"y","origin":"docs","origin_kind":"git","origin_kind":"website"}]}`,
			entries: entries{website("b", "y", "docs")},
		},
		{
			name:    "origin kind key differs in case: another member",
			source:  `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"b","description":"y","origin":"docs","Origin_Kind":"git"}]}`,
			entries: entries{remote("b", "y", "docs")},
		},
		{
			name:    "numbers in ignored members",
			source:  `{"kind":"skill-catalog","form":"catalog","n":[0,-0,1.5,-2e10,3E+2,4e-2,1e400,12345678901234567890],"entries":[]}`,
			entries: entries{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, ok := ParseCatalog([]byte(tt.source))
			if !ok {
				t.Fatalf("ParseCatalog(%s) unreadable", tt.source)
			}
			if c.Entries == nil || !slices.Equal(c.Entries, tt.entries) {
				t.Errorf("Entries = %q, want %q", c.Entries, tt.entries)
			}
			if c.Update != tt.update {
				t.Errorf("Update = %v, want %v", c.Update, tt.update)
			}
			if c.Digest != digest.Of(tt.entries) {
				t.Errorf("Digest = %s, want digest.Of(entries) = %s", c.Digest, digest.Of(tt.entries))
			}
			if !IsCatalogKind([]byte(tt.source)) {
				t.Error("IsCatalogKind = false for a readable record")
			}
			if r, rok := referenceParse([]byte(tt.source)); !rok || !sameCatalog(r, c) {
				t.Errorf("encoding/json reference = %+v, %v", r, rok)
			}
		})
	}
}

// malformed lists sources that must be skipped. catalogKind says whether IsCatalogKind
// recognizes them as this plugin's (damaged) records.
var malformed = []struct {
	name        string
	source      string
	catalogKind bool
}{
	// The forms seen in real resumed sessions.
	{"no entries", `{"kind": "skill-catalog", "form": "catalog"}`, true},
	{"entries null", `{"kind": "skill-catalog", "form": "catalog", "entries": null}`, true},
	{"entries not an array", `{"kind": "skill-catalog", "form": "catalog", "entries": "not-an-array"}`, true},
	{"entries [null]", `{"kind": "skill-catalog", "form": "catalog", "entries": [null]}`, true},
	{"entry without description", `{"kind": "skill-catalog", "form": "catalog", "entries": [{"name": "x"}]}`, true},
	{"entry without name", `{"kind": "skill-catalog", "form": "catalog", "entries": [{"description": "no name"}]}`, true},
	{"invalid JSON", `{"kind": "skill-catalog", "form": "catalog", "entries": [`, false},

	// A remote skill's origin that is not a string.
	{"origin a number", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":1}]}`, true},
	{"origin null", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":null}]}`, true},
	{"origin an object", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":{"label":"docs"}}]}`, true},
	{"origin string then number", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":"docs","origin":false}]}`, true},

	// An origin kind this reader does not know, or one that labels no origin.
	{"origin kind unknown", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":"docs","origin_kind":"git"}]}`, true},
	{"origin kind mcp_server", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":"docs","origin_kind":"mcp_server"}]}`, true},
	{"origin kind empty", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":"docs","origin_kind":""}]}`, true},
	{"origin kind differs in case", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":"docs","origin_kind":"Website"}]}`, true},
	{"origin kind a number", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":"docs","origin_kind":1}]}`, true},
	{"origin kind null", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":"docs","origin_kind":null}]}`, true},
	{"origin kind website then unknown", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":"docs","origin_kind":"website","origin_kind":"git"}]}`, true},
	{"origin kind without origin", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin_kind":"website"}]}`, true},
	{"origin kind with empty origin", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x","origin":"","origin_kind":"website"}]}`, true},
	{"origin kind unknown among good entries", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"x"},{"name":"b","description":"y","origin":"docs","origin_kind":"websites"}]}`, true},

	// Element shapes.
	{"entries object", `{"kind":"skill-catalog","form":"catalog","entries":{"name":"a","description":"b"}}`, true},
	{"entries number", `{"kind":"skill-catalog","form":"catalog","entries":0}`, true},
	{"entries true", `{"kind":"skill-catalog","form":"catalog","entries":true}`, true},
	{"element string", `{"kind":"skill-catalog","form":"catalog","entries":["a-skill"]}`, true},
	{"element array", `{"kind":"skill-catalog","form":"catalog","entries":[["a","b"]]}`, true},
	{"element number", `{"kind":"skill-catalog","form":"catalog","entries":[1]}`, true},
	{"one bad element among good", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"b"},null]}`, true},
	{"empty name", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"","description":"b"}]}`, true},
	{"name number", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":1,"description":"b"}]}`, true},
	{"name null", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":null,"description":"b"}]}`, true},
	{"name array", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":["a"],"description":"b"}]}`, true},
	{"name object", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":{},"description":"b"}]}`, true},
	{"description null", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":null}]}`, true},
	{"description number", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":3}]}`, true},
	{"description false", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":false}]}`, true},
	{"name key differs in case", `{"kind":"skill-catalog","form":"catalog","entries":[{"Name":"a","description":"b"}]}`, true},
	{"description key differs in case", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","Description":"b"}]}`, true},
	{"later name invalidates", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"b","name":null}]}`, true},
	{"later entries invalidates", `{"kind":"skill-catalog","form":"catalog","entries":[],"entries":null}`, true},

	// Kind, form and top level.
	{"other form", `{"kind":"skill-catalog","form":"delta","entries":[]}`, true},
	{"no form", `{"kind":"skill-catalog","entries":[]}`, true},
	{"form null", `{"kind":"skill-catalog","form":null,"entries":[]}`, true},
	{"form differs in case", `{"kind":"skill-catalog","form":"Catalog","entries":[]}`, true},
	{"form key differs in case", `{"kind":"skill-catalog","Form":"catalog","entries":[]}`, true},
	{"other kind", `{"kind":"plugin","form":"catalog","entries":[],"note":"skill-catalog"}`, false},
	{"kind key differs in case", `{"Kind":"skill-catalog","form":"catalog","entries":[]}`, false},
	{"kind array", `{"kind":["skill-catalog"],"form":"catalog","entries":[]}`, false},
	{"later kind overrides", `{"kind":"skill-catalog","kind":"other","form":"catalog","entries":[]}`, false},
	{"kind spelled with escapes", `{"kind":"skill\u002dcatalog","form":"catalog","entries":[]}`, false},
	{"kind in nested object only", `{"meta":{"kind":"skill-catalog"},"form":"catalog","entries":[]}`, false},
	{"foreign prose", `{"kind":"plugin-message","text":"<available_skills>\n-` + "`a`" + `: skill-catalog\n</available_skills>"}`, false},
	{"top-level array", `[{"kind":"skill-catalog","form":"catalog","entries":[]}]`, false},
	{"top-level string", `"{\"kind\":\"skill-catalog\"}"`, false},
	{"top-level null", `null`, false},
	{"empty", ``, false},
	{"whitespace", " \n", false},
	{"byte order mark", "\ufeff{\"kind\":\"skill-catalog\",\"form\":\"catalog\",\"entries\":[]}", false},

	// Invalid JSON around otherwise readable records.
	{"trailing garbage", `{"kind":"skill-catalog","form":"catalog","entries":[]}x`, false},
	{"two objects", `{"kind":"skill-catalog","form":"catalog","entries":[]}{}`, false},
	{"trailing comma in object", `{"kind":"skill-catalog","form":"catalog","entries":[],}`, false},
	{"trailing comma in array", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":""},]}`, false},
	{"single quotes", `{'kind':'skill-catalog','form':'catalog','entries':[]}`, false},
	{"unquoted key", `{kind:"skill-catalog",form:"catalog",entries:[]}`, false},
	{"missing colon", `{"kind" "skill-catalog","form":"catalog","entries":[]}`, false},
	{"missing comma", `{"kind":"skill-catalog" "form":"catalog","entries":[]}`, false},
	{"truncated", `{"kind":"skill-catalog","form":"catalog","entries":[]`, false},
	{"raw newline in string", "{\"kind\":\"skill-catalog\",\"form\":\"catalog\",\"entries\":[{\"name\":\"a\",\"description\":\"x\ny\"}]}", false},
	{"raw tab in string", "{\"kind\":\"skill-catalog\",\"form\":\"catalog\",\"entries\":[{\"name\":\"a\",\"description\":\"x\ty\"}]}", false},
	{"bad escape", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"\x41"}]}`, false},
	{"single-quote escape", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"\'"}]}`, false},
	{"short unicode escape", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"\u12"}]}`, false},
	{"bad hex in escape", `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"a","description":"\u12g4"}]}`, false},
	{"bad number", `{"kind":"skill-catalog","form":"catalog","n":01,"entries":[]}`, false},
	{"bad number dot", `{"kind":"skill-catalog","form":"catalog","n":1.,"entries":[]}`, false},
	{"bad number exponent", `{"kind":"skill-catalog","form":"catalog","n":1e,"entries":[]}`, false},
	{"plus number", `{"kind":"skill-catalog","form":"catalog","n":+1,"entries":[]}`, false},
	{"NaN", `{"kind":"skill-catalog","form":"catalog","n":NaN,"entries":[]}`, false},
	{"bad literal", `{"kind":"skill-catalog","form":"catalog","update":tru,"entries":[]}`, false},
	{"literal with suffix", `{"kind":"skill-catalog","form":"catalog","update":truex,"entries":[]}`, false},
	{"comment", `{"kind":"skill-catalog","form":"catalog","entries":[]} // note`, false},
	{"NUL after object", "{\"kind\":\"skill-catalog\",\"form\":\"catalog\",\"entries\":[]}\x00", false},
}

func TestParseCatalogUnreadable(t *testing.T) {
	t.Parallel()
	for _, tt := range malformed {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := []byte(tt.source)
			if c, ok := ParseCatalog(src); ok {
				t.Errorf("ParseCatalog(%s) = %+v, want unreadable", tt.source, c)
			}
			if got := IsCatalogKind(src); got != tt.catalogKind {
				t.Errorf("IsCatalogKind(%s) = %v, want %v", tt.source, got, tt.catalogKind)
			}
			if _, ok := referenceParse(src); ok {
				t.Errorf("encoding/json reference reads %s", tt.source)
			}
			if got := referenceIsCatalogKind(src); got != tt.catalogKind {
				t.Errorf("encoding/json reference IsCatalogKind = %v", got)
			}
		})
	}
}

func TestDepthLimitMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, depth := range []int{9998, 9999, 10000, 10001, 20000} {
		// The record object itself is one level.
		inner := strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1)
		src := []byte(`{"kind":"skill-catalog","form":"catalog","entries":[],"deep":` + inner + `}`)
		_, got := ParseCatalog(src)
		if want := json.Valid(src); got != want {
			t.Errorf("depth %d: readable = %v, json.Valid = %v", depth, got, want)
		}
		if got := IsCatalogKind(src); got != json.Valid(src) {
			t.Errorf("depth %d: IsCatalogKind = %v, json.Valid = %v", depth, got, json.Valid(src))
		}
	}
}

// TestFastPathDoesNotAllocate is not parallel: AllocsPerRun counts the
// allocations of every goroutine, and sequential tests never overlap parallel
// ones.
func TestFastPathDoesNotAllocate(t *testing.T) {
	src := []byte(`{"kind":"tool-result","text":"` + strings.Repeat("<available_skills> x ", 100) + `"}`)
	if a := testing.AllocsPerRun(100, func() { ParseCatalog(src) }); a != 0 {
		t.Errorf("ParseCatalog of a foreign source allocates %v times", a)
	}
	if a := testing.AllocsPerRun(100, func() { IsCatalogKind(src) }); a != 0 {
		t.Errorf("IsCatalogKind of a foreign source allocates %v times", a)
	}
	own := EncodeCatalog(manyEntries(100), true)
	if a := testing.AllocsPerRun(100, func() { IsCatalogKind(own) }); a != 0 {
		t.Errorf("IsCatalogKind of a catalog record allocates %v times", a)
	}
}

// TestParseAllocationsDoNotScaleWithStrings is not parallel, for the same
// reason as TestFastPathDoesNotAllocate.
func TestParseAllocationsDoNotScaleWithStrings(t *testing.T) {
	src := EncodeCatalog(manyEntries(1000), false)
	// One arena, one string, one entry slice, and the geometric growth of the span list.
	if a := testing.AllocsPerRun(10, func() { ParseCatalog(src) }); a > 20 {
		t.Errorf("ParseCatalog of 1,000 entries allocates %v times, want at most 20", a)
	}
}

func TestEncodeCatalogGolden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		entries entries
		update  bool
	}{
		{"first publication", entries{en("a-skill", "Does a thing."), en("b-skill", "Does another.")}, false},
		{"replacement", entries{en("a-skill", "Does a thing, better.")}, true},
		{"tombstone", entries{}, true},
		{"nil entries", nil, false},
		{"empty description", entries{en("a-skill", "")}, false},
		{"escaping", entries{en("a-skill", "quote \" backslash \\ slash / <tag> & amp \u2028\u2029 \x00\x01\x1f\x7f \b\f\n\r\t")}, false},
		{"unicode", entries{en("a-skill", "naïve — “quoted” 日本語 \U0001F600")}, false},
		{"invalid UTF-8", entries{en("a-skill", "a\xffb\xc3")}, false},
		{"remote skills", entries{en("a-skill", "Local."), remote("b-skill", "Remote.", "docs"), remote("c-skill", "<Remote> & \"quoted\".", "mcp-2")}, true},
		{"website skills", entries{en("a-skill", "Local."), remote("b-skill", "Remote.", "docs"), website("c-skill", "From a <site>.", "docs"), website("d-skill", "From another.", "web-2")}, false},
	}
	var b bytes.Buffer
	for _, c := range cases {
		fmt.Fprintf(&b, "# %s\n%s\n", c.name, EncodeCatalog(c.entries, c.update))
	}
	golden.Check(t, filepath.Join("testdata", "encode.golden"), b.Bytes())
}

func TestEncodeCatalogMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, es := range []entries{
		nil,
		{},
		{en("a", "b")},
		{en("a-skill", "quote \" backslash \\ <tag> & \u2028\u2029 \x00\x1f\x7f\b\f\n\r\t \xff\xc3 \xed\xa0\x80")},
		{remote("a", "b", "docs"), en("c", "d"), remote("e", "f", "quote \" <x>")},
		manyEntries(20),
	} {
		for _, u := range []bool{false, true} {
			got := EncodeCatalog(es, u)
			if want := referenceEncode(es, u); !bytes.Equal(got, want) {
				t.Errorf("EncodeCatalog(%q, %v):\n got %s\nwant %s", es, u, got, want)
			}
		}
	}
}

func TestEncodeParseRoundTrip(t *testing.T) {
	t.Parallel()
	for _, es := range []entries{
		{},
		{en("a", "")},
		{en("a-skill", "quote \" backslash \\ <tag> & \u2028\u2029 \x00\x1f\x7f\b\f\n\r\t \U0001F600")},
		{en("a", "x"), remote("b", "y", "docs"), remote("b", "y", "other")},
		manyEntries(1000),
	} {
		for _, u := range []bool{false, true} {
			c, ok := ParseCatalog(EncodeCatalog(es, u))
			if !ok {
				t.Fatalf("EncodeCatalog(%d entries, %v) is unreadable", len(es), u)
			}
			if !slices.Equal(c.Entries, es) || c.Update != u || c.Digest != digest.Of(es) {
				t.Errorf("round trip of %d entries, update %v: got %d entries, update %v", len(es), u, len(c.Entries), c.Update)
			}
		}
	}
	if c, ok := ParseCatalog(EncodeCatalog(nil, false)); !ok || c.Entries == nil || len(c.Entries) != 0 {
		t.Errorf("nil entries round trip = %+v, %v; want empty non-nil entries", c, ok)
	}
}

func TestEntriesDoNotAliasSource(t *testing.T) {
	t.Parallel()
	src := EncodeCatalog(entries{en("a-skill", "text")}, false)
	c, ok := ParseCatalog(src)
	if !ok {
		t.Fatal("unreadable")
	}
	for i := range src {
		src[i] = 'x'
	}
	if c.Entries[0] != (digest.Entry{Name: "a-skill", Description: "text"}) {
		t.Errorf("entries changed with the source: %q", c.Entries)
	}
}

func manyEntries(n int) entries {
	es := make(entries, n)
	for i := range es {
		es[i] = digest.Entry{
			Name:        fmt.Sprintf("skill-%05d", i),
			Description: fmt.Sprintf("Handles task family %d: reads <inputs> & validates them, then writes a short \"report\".", i),
		}
	}
	return es
}

func BenchmarkParseCatalog(b *testing.B) {
	for _, n := range []int{10, 1000} {
		src := EncodeCatalog(manyEntries(n), true)
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := ParseCatalog(src); !ok {
					b.Fatal("unreadable")
				}
			}
		})
	}
	b.Run("foreign", func(b *testing.B) {
		src := []byte(`{"kind":"tool-result","text":"` + strings.Repeat("<available_skills> x ", 20) + `"}`)
		b.ReportAllocs()
		for b.Loop() {
			ParseCatalog(src)
		}
	})
}

func BenchmarkIsCatalogKind(b *testing.B) {
	src := EncodeCatalog(manyEntries(1000), true)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if !IsCatalogKind(src) {
			b.Fatal("not recognized")
		}
	}
}

func BenchmarkEncodeCatalog(b *testing.B) {
	es := manyEntries(1000)
	b.ReportAllocs()
	for b.Loop() {
		EncodeCatalog(es, true)
	}
}

// TestOmittedCount: a budgeted catalog's record says how many skills it
// left out; only a plain integer counts, anything else reads as 0 and the
// record stays readable; the count is part of the digest.
func TestOmittedCount(t *testing.T) {
	const head = `{"kind":"skill-catalog","form":"catalog",`
	const tail = `"entries":[{"name":"a","description":"x"}]}`
	for _, tc := range []struct {
		member string
		want   int
	}{
		{``, 0},
		{`"omitted":3,`, 3},
		{`"omitted":0,`, 0},
		{`"omitted":9,`, 9},
		{`"omitted":10,`, 10},
		{`"omitted":1234567890,`, 1234567890},
		{`"omitted":0.5,`, 0},
		{`"omitted":0e1,`, 0},
		{`"omitted":9999999999,`, 0},
		{`"omitted":2147483647,`, 2147483647},
		{`"omitted":2147483648,`, 0},
		{`"omitted":-1,`, 0},
		{`"omitted":1.5,`, 0},
		{`"omitted":1e2,`, 0},
		{`"omitted":"3",`, 0},
		{`"omitted":null,`, 0},
		{`"omitted":3,"omitted":4,`, 4},
		{`"omitted":3,"omitted":"x",`, 0},
	} {
		c, ok := ParseCatalog([]byte(head + tc.member + tail))
		if !ok {
			t.Errorf("%s: unreadable", tc.member)
			continue
		}
		if c.Omitted != tc.want || c.Digest != digest.OfOmitting(c.Entries, tc.want) {
			t.Errorf("%s: omitted %d, want %d (digest must follow)", tc.member, c.Omitted, tc.want)
		}
	}
	enc := assembleCatalog([][]byte{AppendEntry(nil, digest.Entry{Name: "a", Description: "x"})}, true, 7)
	if want := `{"kind":"skill-catalog","form":"catalog","update":true,"omitted":7,"entries":[{"name":"a","description":"x"}]}`; string(enc) != want {
		t.Errorf("AssembleCatalog = %s, want %s", enc, want)
	}
}
