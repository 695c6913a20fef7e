package skillsext

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

func TestFrontmatterJSON(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
		warnings         int
	}{
		{name: "order and types kept", file: "---\nname: a\ndescription: D\nn: 3\nf: 1.5\nb: true\nz: ~\nlist: [x, 2]\nmeta:\n  k: v\n---\nbody",
			want: `{"name":"a","description":"D","n":3,"f":1.5,"b":true,"z":null,"list":["x",2],"meta":{"k":"v"}}`},
		{name: "YAML 1.2 core numbers", file: "---\na: 017\nb: 0o17\nc: 0x1F\nd: +5\ne: 1e3\nf: -0.0\ng: 99999999999999999999\n---\n",
			want: `{"a":17,"b":15,"c":31,"d":5,"e":1000,"f":-0,"g":99999999999999999999}`},
		{name: "YAML 1.1 forms stay strings", file: "---\na: yes\nb: 1_000\nc: 0b101\nd: 2024-01-01\ne: off\n---\n",
			want: `{"a":"yes","b":"1_000","c":"0b101","d":"2024-01-01","e":"off"}`},
		{name: "quoted and block scalars are strings", file: "---\na: \"1\"\nb: 'true'\nc: |\n  x\n  y\nd: >\n  folded\n  text\ne: !!str 12\n---\n",
			want: `{"a":"1","b":"true","c":"x\ny\n","d":"folded text\n","e":"12"}`},
		{name: "aliases are expanded", file: "---\na: &x [1, 2]\nb: *x\n---\n", want: `{"a":[1,2],"b":[1,2]}`},
		{name: "no HTML escaping", file: "---\na: <b> & \"q\"\n---\n", want: `{"a":"<b> & \"q\""}`},
		{name: "empty frontmatter", file: "---\n---\nbody", want: `{}`},
		{name: "BOM and CRLF", file: "\ufeff---\r\nname: a\r\ndescription: |\r\n  x\r\n---\r\n", want: `{"name":"a","description":"x\n"}`},
		{name: "colon value read as a plain string", file: "---\nname: a\ndescription: Use when: asked\n  and more\n---\n",
			want: `{"name":"a","description":"Use when: asked and more"}`, warnings: 1},
		{name: "a repeated key keeps its last value", file: "---\na: 1\nb: 2\na: 3\n---\n", want: `{"a":3,"b":2}`, warnings: 1},
		{name: "empty value is null", file: "---\na:\n---\n", want: `{"a":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings, err := FrontmatterJSON([]byte(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if len(warnings) != tc.warnings {
				t.Errorf("warnings = %q, want %d", warnings, tc.warnings)
			}
			if !json.Valid(got) {
				t.Errorf("%s is not JSON", got)
			}
		})
	}
}

func TestFrontmatterJSONErrors(t *testing.T) {
	for name, file := range map[string]string{
		"no frontmatter":  "# Title\n",
		"not closed":      "---\nname: a\n",
		"not a mapping":   "---\n- a\n---\n",
		"infinity":        "---\na: .inf\n---\n",
		"not a number":    "---\na: .nan\n---\n",
		"float overflow":  "---\na: 1e999\n---\n",
		"custom tag":      "---\na: !thing x\n---\n",
		"binary tag":      "---\na: !!binary aGk=\n---\n",
		"complex key":     "---\n? [a, b]\n: c\n---\n",
		"broken YAML":     "---\na: [\n---\n",
		"too large":       "---\na: " + strings.Repeat("x", MaxFrontmatterBytes) + "\n---\n",
		"alias expansion": "---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n---\n",
	} {
		if got, _, err := FrontmatterJSON([]byte(file)); err == nil {
			t.Errorf("%s: got %s, want an error", name, got)
		}
	}
}

// For every SKILL.md of the filesystem provider's corpus that it parses,
// the JSON carries the same name and description it reads.
func TestFrontmatterJSONAgreesWithTheFilesystemProvider(t *testing.T) {
	files, err := filepath.Glob("../../testdata/agentskills/corpus/*/SKILL.md")
	if err != nil || len(files) < 10 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	files = append(files, "../../testdata/skills/commit-messages/SKILL.md", "../../testdata/skills/pdf-forms/SKILL.md")
	compared := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fm, _, _, perr := agentskills.ParseSkillFile(data)
		obj, _, err := FrontmatterJSON(data)
		if (perr == nil) != (err == nil) {
			t.Errorf("%s: filesystem provider error %v, FrontmatterJSON error %v", file, perr, err)
			continue
		}
		if err != nil {
			continue
		}
		var got map[string]any
		if err := json.Unmarshal(obj, &got); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for key, want := range map[string]string{"name": fm.Name, "description": fm.Description} {
			if s, ok := got[key].(string); ok && s != want {
				t.Errorf("%s: %s = %q, the filesystem provider reads %q", file, key, s, want)
			}
		}
		if fm.Metadata != nil {
			meta, _ := got["metadata"].(map[string]any)
			wantMeta := map[string]any{}
			for k, v := range fm.Metadata {
				wantMeta[k] = v
			}
			if diff := cmp.Diff(wantMeta, meta); diff != "" {
				t.Errorf("%s: metadata (-filesystem +json):\n%s", file, diff)
			}
		}
		compared++
	}
	if compared < 10 {
		t.Errorf("only %d files compared", compared)
	}
}

func FuzzFrontmatterJSON(f *testing.F) {
	for _, seed := range []string{
		"---\nname: a\ndescription: D\n---\nbody",
		"---\na: &x [1, {b: *x}]\n---\n",
		"---\ndescription: Use when: asked\n---\n",
		"\ufeff---\r\na: 0x1F\r\n---\r\n",
		"---\na: 'it''s'\nb: \"\\u00e9\"\n---\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		obj, _, err := FrontmatterJSON(data)
		if err != nil {
			return
		}
		var v map[string]any
		if err := json.Unmarshal(obj, &v); err != nil {
			t.Fatalf("FrontmatterJSON(%q) = %s, not a JSON object: %v", data, obj, err)
		}
	})
}
