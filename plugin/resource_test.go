package plugin

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// resHost is a memHost that also reads resources: whole files by
// "name/path", or a scripted answer.
type resHost struct {
	*memHost
	files  map[string]string
	answer *contract.ResourceRead // when set, every read gets it
	asked  []contract.ResourceRequest
}

func newResHost(skills ...skill.Summary) *resHost {
	return &resHost{memHost: newMemHost(skills...), files: map[string]string{}}
}

func (h *resHost) ReadResource(_ context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	h.asked = append(h.asked, req)
	if h.answer != nil {
		return *h.answer, nil
	}
	data, ok := h.files[req.Name+"/"+req.Path]
	if !ok {
		return contract.ResourceRead{Status: contract.ResourceNotFound}, nil
	}
	out := contract.ResourceRead{Status: contract.ResourceOK, Total: int64(len(data))}
	if req.Offset < int64(len(data)) {
		w := data[req.Offset:]
		if len(w) > req.MaxBytes {
			w = w[:req.MaxBytes]
		}
		out.Data = []byte(w)
	}
	return out, nil
}

func resourceMount() mount {
	m := testMount()
	m.cfg.ResourceTool = true
	return m
}

func readCall(t *testing.T, h contract.Host, args string) contract.ToolResult {
	t.Helper()
	res, err := newEngine().executeResourceTool(context.Background(), h, resourceMount(), contract.ToolCall{ToolName: contract.ResourceToolName, Arguments: []byte(args)})
	if err != nil {
		t.Fatalf("arguments %s: Go error %v", args, err)
	}
	return res
}

func TestResourceArguments(t *testing.T) {
	t.Parallel()
	tests := []struct{ args, want string }{
		{`not json`, `Error: the arguments are not a JSON object: "not json"; the skill_resource tool takes {"name": "<skill name>", "path": "<path>"} and an optional "offset"`},
		{`null`, `Error: the arguments are JSON null, not an object: null; the skill_resource tool takes {"name": "<skill name>", "path": "<path>"} and an optional "offset"`},
		{`"alpha"`, `Error: the arguments are a JSON string, not an object: "alpha"; the skill_resource tool takes {"name": "<skill name>", "path": "<path>"} and an optional "offset"`},
		{`{"path":"a.md"}`, `Error: the required argument "name" is missing; the skill_resource tool takes {"name": "<skill name>", "path": "<path>"} and an optional "offset"`},
		{`{"name":"Bad","path":"a.md"}`, `Error: invalid skill name "Bad"`},
		{`{"name":7,"path":"a.md"}`, `Error: invalid skill name "7"`},
		{`{"name":"alpha","path":"a.md","length":5}`, `Error: unexpected argument "length"; the skill_resource tool takes only "name", "path" and "offset"`},
		{`{"name":"alpha"}`, `Error: invalid resource path "": the path is missing`},
		{`{"name":"alpha","path":["a"]}`, `Error: invalid resource path "["a"]": the path must be a string`},
		{`{"name":"alpha","path":"../../etc/passwd"}`, `Error: invalid resource path "../../etc/passwd": dot segments are not allowed`},
		{`{"name":"alpha","path":"a\nb"}`, `Error: invalid resource path "a\nb": it holds a control or format character`},
		{`{"name":"alpha","path":"a.md","offset":-1}`, `Error: invalid offset -1; the offset is a whole number of bytes from 0 to 2147483647`},
		{`{"name":"alpha","path":"a.md","offset":1.5}`, `Error: invalid offset 1.5; the offset is a whole number of bytes from 0 to 2147483647`},
		{`{"name":"alpha","path":"a.md","offset":"8"}`, `Error: invalid offset "8"; the offset is a whole number of bytes from 0 to 2147483647`},
		{`{"name":"alpha","path":"a.md","offset":null}`, `Error: invalid offset null; the offset is a whole number of bytes from 0 to 2147483647`},
		{`{"name":"alpha","path":"a.md","offset":1e99}`, `Error: invalid offset 1e99; the offset is a whole number of bytes from 0 to 2147483647`},
	}
	for _, tc := range tests {
		h := newResHost(summary("alpha", "A."))
		res := readCall(t, h, tc.args)
		if !res.IsError || res.Text != tc.want {
			t.Errorf("arguments %s: %q (error %v), want %q", tc.args, res.Text, res.IsError, tc.want)
		}
		if len(h.asked) != 0 || h.snapshots != 0 {
			t.Errorf("arguments %s: %d reads and %d snapshots for refused arguments", tc.args, len(h.asked), h.snapshots)
		}
	}
}

// paged is a 20,000-byte text whose characters straddle the page bounds:
// "é" (2 bytes) and "€" (3 bytes) repeat so that 8192 falls inside one.
func paged() string {
	var b strings.Builder
	for b.Len() < 20000 {
		b.WriteString("line é€ ")
		b.WriteString(strconv.Itoa(b.Len()))
		b.WriteByte('\n')
	}
	s := b.String()
	for len(s) > 20000 || !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// TestResourcePaging: reading a file page by page from offset 0, following
// next offsets, gives the file back exactly, in pages of at most 8192
// bytes of whole characters, each saying the total.
func TestResourcePaging(t *testing.T) {
	t.Parallel()
	file := paged()
	h := newResHost(summary("alpha", "A."))
	h.files["alpha/scripts/run.py"] = file
	var got strings.Builder
	offset := int64(0)
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		res := readCall(t, h, `{"name":"alpha","path":"scripts/run.py","offset":`+strconv.FormatInt(offset, 10)+`}`)
		if res.IsError || res.Resource == nil {
			t.Fatalf("page at %d: %q", offset, res.Text)
		}
		p := res.Resource
		if p.Offset != offset || p.TotalBytes != int64(len(file)) || p.Name != "alpha" || p.Path != "scripts/run.py" {
			t.Fatalf("page at %d: %+v", offset, p)
		}
		if len(p.Content) > render.ResourcePageBytes || len(p.Content) < render.ResourcePageBytes-3 && p.NextOffset != nil || !utf8.ValidString(p.Content) {
			t.Fatalf("page at %d holds %d bytes (valid UTF-8: %v)", offset, len(p.Content), utf8.ValidString(p.Content))
		}
		if res.Text != render.ResourcePage(*p) {
			t.Fatalf("text is not the rendered page")
		}
		got.WriteString(p.Content)
		if p.NextOffset == nil {
			break
		}
		if *p.NextOffset != offset+int64(len(p.Content)) {
			t.Fatalf("next offset %d after %d bytes at %d", *p.NextOffset, len(p.Content), offset)
		}
		offset = *p.NextOffset
	}
	if got.String() != file {
		t.Fatalf("pages put together differ from the file (%d bytes, want %d)", got.Len(), len(file))
	}
	if want := render.ResourcePageBytes + utf8.UTFMax - 1; h.asked[0].MaxBytes != want {
		t.Errorf("window of %d bytes asked, want %d", h.asked[0].MaxBytes, want)
	}
}

// TestResourceOffsetInsideACharacter: an offset inside a character starts
// the page at the next character and says so.
func TestResourceOffsetInsideACharacter(t *testing.T) {
	t.Parallel()
	h := newResHost(summary("alpha", "A."))
	h.files["alpha/a.txt"] = "a€b"
	res := readCall(t, h, `{"name":"alpha","path":"a.txt","offset":2}`)
	if res.IsError || res.Resource.Offset != 4 || res.Resource.Content != "b" || res.Resource.NextOffset != nil {
		t.Fatalf("offset inside €: %q %+v", res.Text, res.Resource)
	}
	want := "<skill_resource name=\"alpha\" path=\"a.txt\" offset=\"4\" bytes=\"1\" total_bytes=\"5\">\nb\n</skill_resource>"
	if res.Text != want {
		t.Errorf("text %q, want %q", res.Text, want)
	}
}

func TestResourceErrors(t *testing.T) {
	t.Parallel()
	disabled := summary("hidden", "H.")
	disabled.Invocation.ModelInvocable = false
	tests := []struct {
		name, args string
		answer     *contract.ResourceRead
		want       string
		reads      int
	}{
		{"unknown skill", `{"name":"nope","path":"a.md"}`, nil, `Error: skill "nope" is unknown or no longer available`, 0},
		{"not model-invocable", `{"name":"hidden","path":"a.md"}`, nil, `Error: skill "hidden" is not available for model invocation`, 0},
		{"not found", `{"name":"alpha","path":"a.md"}`, nil, `Error: resource "a.md" of skill "alpha" was not found`, 1},
		{"skill gone at read", `{"name":"alpha","path":"a.md"}`, &contract.ResourceRead{Status: contract.ResourceSkillNotFound}, `Error: skill "alpha" is unknown or no longer available`, 1},
		{"policy revoked at read", `{"name":"alpha","path":"a.md"}`, &contract.ResourceRead{Status: contract.ResourceNotModelInvocable}, `Error: skill "alpha" is not available for model invocation`, 1},
		{"opaque", `{"name":"alpha","path":"a.md"}`, &contract.ResourceRead{Status: contract.ResourceNotReadable}, `Error: the resources of skill "alpha" are not readable through the skill_resource tool; load them as the skill's resource guidance describes`, 1},
		{"outside", `{"name":"alpha","path":"link/x"}`, &contract.ResourceRead{Status: contract.ResourceInvalidPath}, `Error: invalid resource path "link/x": it leads outside the skill's resources, or the skill's provider refuses it`, 1},
		{"too large", `{"name":"alpha","path":"big.bin"}`, &contract.ResourceRead{Status: contract.ResourceTooLarge}, `Error: resource "big.bin" of skill "alpha" is larger than 8388608 bytes, the most the skill_resource tool reads`, 1},
		{"binary", `{"name":"alpha","path":"logo.png"}`, &contract.ResourceRead{Status: contract.ResourceBinary, Total: 10}, `Error: resource "logo.png" of skill "alpha" is binary (it holds a NUL byte or bytes that are not UTF-8); the skill_resource tool reads text files only`, 1},
		{"binary page from a host that did not say", `{"name":"alpha","path":"a.md"}`, &contract.ResourceRead{Status: contract.ResourceOK, Data: []byte("a\x00b"), Total: 3}, `Error: resource "a.md" of skill "alpha" is binary (it holds a NUL byte or bytes that are not UTF-8); the skill_resource tool reads text files only`, 1},
		{"provider error", `{"name":"alpha","path":"a.md"}`, &contract.ResourceRead{Status: contract.ResourceProviderError, Error: "mcpskills: reading skill://alpha/a.md: connection refused"}, `Error: mcpskills: reading skill://alpha/a.md: connection refused`, 1},
		{"unknown status", `{"name":"alpha","path":"a.md"}`, &contract.ResourceRead{Status: "weird"}, `Error: the host answered a resource read with status "weird"`, 1},
		{"past the end", `{"name":"alpha","path":"a.md","offset":10}`, &contract.ResourceRead{Status: contract.ResourceOK, Total: 10}, `Error: offset 10 is at or past the end of resource "a.md" of skill "alpha" (10 bytes); the file was read to its end`, 1},
		{"far past the end", `{"name":"alpha","path":"a.md","offset":99}`, &contract.ResourceRead{Status: contract.ResourceOK, Total: 10}, `Error: offset 99 is at or past the end of resource "a.md" of skill "alpha" (10 bytes); the file was read to its end`, 1},
		{"past the end of an empty file", `{"name":"alpha","path":"a.md","offset":1}`, &contract.ResourceRead{Status: contract.ResourceOK}, `Error: offset 1 is at or past the end of resource "a.md" of skill "alpha" (0 bytes); the file was read to its end`, 1},
		{"larger than the bound", `{"name":"alpha","path":"a.md"}`, &contract.ResourceRead{Status: contract.ResourceOK, Data: []byte("x"), Total: skill.MaxResourceBytes + 1}, `Error: resource "a.md" of skill "alpha" is larger than 8388608 bytes, the most the skill_resource tool reads`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newResHost(summary("alpha", "A."), disabled)
			h.answer = tc.answer
			res := readCall(t, h, tc.args)
			if !res.IsError || res.Text != tc.want || res.Resource != nil {
				t.Errorf("%q (error %v), want %q", res.Text, res.IsError, tc.want)
			}
			if len(h.asked) != tc.reads {
				t.Errorf("%d reads, want %d", len(h.asked), tc.reads)
			}
		})
	}

	// An empty file reads as one empty page at offset 0.
	h := newResHost(summary("alpha", "A."))
	h.files["alpha/empty.md"] = ""
	res := readCall(t, h, `{"name":"alpha","path":"empty.md"}`)
	if res.IsError || res.Resource.Content != "" || res.Resource.NextOffset != nil || res.Resource.TotalBytes != 0 {
		t.Errorf("empty file: %q", res.Text)
	}

	// A host without resource reads: not readable, after the policy checks.
	mh := newMemHost(summary("alpha", "A."))
	res = readCall(t, mh, `{"name":"alpha","path":"a.md"}`)
	if want := string(render.ResourceNotReadable("alpha")); res.Text != want {
		t.Errorf("host without reads: %q, want %q", res.Text, want)
	}
}

// TestResourceToolOption: the option registers the tool and makes the
// `skill` result name it; without it, calls of the tool name are refused
// and the `skill` result is unchanged.
func TestResourceToolOption(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newResHost(summary("alpha", "A."))
	h.defs["alpha"] = skill.Definition{Summary: summary("alpha", "A."), ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: "skill://alpha/"}, Content: "Run scripts/x.py."}
	h.files["alpha/scripts/x.py"] = "print(1)\n"
	for _, on := range []bool{false, true} {
		c := New(nil)
		cfg := `{"resourceTool": ` + strconv.FormatBool(on) + `}`
		resp, err := c.Configure(ctx, h, contract.ConfigureRequest{Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range resp.Tools {
			names = append(names, tool.Name)
		}
		want := "skill"
		if on {
			want = "skill,skill_resource"
		}
		if strings.Join(names, ",") != want {
			t.Fatalf("%s: tools %v, want %s", cfg, names, want)
		}
		if err := c.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: identity}}); err != nil {
			t.Fatal(err)
		}
		loaded, err := c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: resp.MountID, ToolName: "skill", Arguments: []byte(`{"name":"alpha"}`)})
		if err != nil || loaded.IsError {
			t.Fatalf("%s: skill call %q, %v", cfg, loaded.Text, err)
		}
		if names := strings.Contains(loaded.Text, "skill_resource tool"); names != on {
			t.Errorf("%s: skill result names the resource tool: %v\n%s", cfg, names, loaded.Text)
		}
		read, err := c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: resp.MountID, ToolName: "skill_resource", SkillToolIdentity: identity, Arguments: []byte(`{"name":"alpha","path":"scripts/x.py"}`)})
		if err != nil {
			t.Fatal(err)
		}
		if on && (read.IsError || read.Resource == nil || read.Resource.Content != "print(1)\n") {
			t.Errorf("%s: read %q", cfg, read.Text)
		}
		if !on && read.Text != `Error: tool "skill_resource" is not provided by this plugin mount` {
			t.Errorf("%s: read %q", cfg, read.Text)
		}
		if !on {
			continue
		}
		// An agent whose `skill` is not this mount's (restricted away,
		// shadowed) reads no resources, and the host is not asked.
		for _, other := range []string{"", "tooldef-shadow"} {
			asked := len(h.asked)
			read, err := c.ExecuteSkillTool(ctx, contract.ToolCall{MountID: resp.MountID, ToolName: "skill_resource", SkillToolIdentity: other, Arguments: []byte(`{"name":"alpha","path":"scripts/x.py"}`)})
			if err != nil || !read.IsError || read.Text != string(render.ResourceToolWithoutSkill()) || len(h.asked) != asked {
				t.Errorf("%s, skill resolving to %q: read %+v, %v", cfg, other, read, err)
			}
		}
	}
	// Without the option the `skill` text is the default one.
	withOut, _ := render.SkillContent(h.defs["alpha"].ToolValue(), false)
	plain, _ := render.SkillContent(h.defs["alpha"].ToolValue(), false)
	if withOut != plain {
		t.Errorf("SkillContent(false) differs from SkillContent")
	}
}

func TestParseConfigResourceTool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw, wantErr string
		want         bool
	}{
		{raw: ``, want: false},
		{raw: `{"resourceTool": false}`, want: false},
		{raw: `{"resourceTool": true}`, want: true},
		{raw: `{"resourceTool": true, "catalogDescriptionMaxLength": 40}`, want: true},
		{raw: `{"resourceTool": "true"}`, wantErr: `resourceTool must be true or false, got "true"`},
		{raw: `{"resourceTool": 1}`, wantErr: `resourceTool must be true or false, got 1`},
		{raw: `{"resourceTool": null}`, wantErr: `resourceTool must be true or false, got null`},
	}
	for _, tc := range tests {
		cfg, err := ParseConfig(tc.raw)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("ParseConfig(%s) error = %v, want %q", tc.raw, err, tc.wantErr)
			}
			continue
		}
		if err != nil || cfg.ResourceTool != tc.want {
			t.Errorf("ParseConfig(%s) = %v, %v; want %v", tc.raw, cfg.ResourceTool, err, tc.want)
		}
	}
}

// FuzzResourceToolArguments: whatever the model sends, the tool answers
// with a page or one of its error texts, never a Go error or a panic; the
// host is asked only for a listed, model-invocable skill and a path that
// ValidateResourcePath accepts; error texts repeat at most
// render.MaxEchoBytes of what was sent; pages are whole characters within
// the page bound.
func FuzzResourceToolArguments(f *testing.F) {
	for _, s := range []string{
		`{"name":"alpha","path":"a.txt"}`, `{"name":"alpha","path":"a.txt","offset":3}`, `{"name":"alpha","path":"../a.txt"}`,
		`{"name":"alpha","path":"/etc/passwd"}`, `{"name":"alpha","path":"%2e%2e/x"}`, `{"name":"alpha","path":"a\\b"}`,
		`{"name":"alpha","path":"a\u0000b"}`, `{"name":"hidden","path":"a.txt"}`, `{"name":"alpha","path":"a.txt","offset":-1}`,
		`{"name":"alpha","path":"a.txt","x":1}`, `null`, `{}`, `{"name":"alpha","path":".env"}`, `{"name":"alpha","path":"big.txt","offset":8191}`,
	} {
		f.Add(s)
	}
	disabled := summary("hidden", "H.")
	disabled.Invocation.ModelInvocable = false
	big := paged()
	f.Fuzz(func(t *testing.T, args string) {
		h := newResHost(summary("alpha", "A."), disabled)
		h.files["alpha/a.txt"] = "a€b"
		h.files["alpha/big.txt"] = big
		res, err := newEngine().executeResourceTool(context.Background(), h, resourceMount(), contract.ToolCall{Arguments: []byte(args)})
		if err != nil {
			t.Fatalf("Go error for %q: %v", args, err)
		}
		if res.IsError != strings.HasPrefix(res.Text, "Error: ") || res.IsError == (res.Resource != nil) {
			t.Fatalf("inconsistent result %+v", res)
		}
		for _, req := range h.asked {
			if req.Name != "alpha" || ValidateResourcePath(req.Path) != nil {
				t.Fatalf("host asked for %q of %q", req.Path, req.Name)
			}
		}
		if res.IsError {
			// The longest frame: the binary text, with a name and a path.
			if frame := len(string(render.ResourceBinary("", ""))) + 2; len(res.Text) > frame+2*render.MaxEchoBytes {
				t.Fatalf("error text of %d bytes", len(res.Text))
			}
			return
		}
		p := res.Resource
		if len(p.Content) > render.ResourcePageBytes || !utf8.ValidString(p.Content) || !utf8.ValidString(res.Text) {
			t.Fatalf("page of %d bytes", len(p.Content))
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(args), &obj) != nil || len(obj) < 2 || len(obj) > 3 {
			t.Fatalf("arguments %q read a page", args)
		}
	})
}
