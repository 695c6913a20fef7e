package skillgenkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skillgenkit "github.com/skillcatalog/skillcatalog/hostsdk/genkit"
)

// request is one model call as the scripted model received it, after
// every middleware: what a model plugin would turn into an API request.
type request struct {
	// Messages are the request's messages, a copy made when they arrived.
	Messages []*ai.Message
	// Tools are the tools the model is offered, in the request's order.
	Tools []*ai.ToolDefinition
	// MessagesJSON is the messages as Genkit encodes them.
	MessagesJSON []byte
	// Wire is the request as JSON, the tools first, then the messages
	// (the system prompt among them), in the order a model API receives
	// them: the bytes a prompt cache sees.
	Wire []byte
}

// scriptedModel plays a model in Genkit's registry: each call answers
// with the next queued reply and is recorded, as a model plugin answers
// (ModelResponse.Request is the request, so resp.History() holds it).
type scriptedModel struct {
	model ai.Model
	mu    sync.Mutex
	// replies are queued as JSON, so each call gets a message of its own
	// (Genkit writes tool request refs into the reply it is given).
	replies  [][]byte
	requests []request
}

// newScriptedModel defines a scripted model named name in g.
func newScriptedModel(g *genkit.Genkit, name string) *scriptedModel {
	m := &scriptedModel{}
	m.model = genkit.DefineModel(g, name, &ai.ModelOptions{
		Label:    "scripted",
		Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true, Media: true},
	}, m.generate)
	return m
}

func (m *scriptedModel) generate(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	msgs, err := json.Marshal(req.Messages)
	if err != nil {
		return nil, fmt.Errorf("scripted model: encode the messages: %w", err)
	}
	tools, err := json.Marshal(req.Tools)
	if err != nil {
		return nil, fmt.Errorf("scripted model: encode the tools: %w", err)
	}
	rec := request{MessagesJSON: msgs, Wire: fmt.Appendf(nil, `{"tools":%s,"messages":%s}`, tools, msgs)}
	if err := json.Unmarshal(msgs, &rec.Messages); err != nil {
		return nil, fmt.Errorf("scripted model: copy the messages: %w", err)
	}
	rec.Tools = slices.Clone(req.Tools)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests = append(m.requests, rec)
	if len(m.replies) == 0 {
		return nil, errors.New("scripted model: no reply queued")
	}
	var reply ai.Message
	if err := json.Unmarshal(m.replies[0], &reply); err != nil {
		return nil, fmt.Errorf("scripted model: the reply: %w", err)
	}
	m.replies = m.replies[1:]
	return &ai.ModelResponse{Message: &reply, Request: req, FinishReason: ai.FinishReasonStop}, nil
}

// queue adds replies for the next model calls.
func (m *scriptedModel) queue(replies ...*ai.Message) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range replies {
		b, err := json.Marshal(r)
		if err != nil {
			panic(fmt.Sprintf("scripted model: a reply does not encode: %v", err))
		}
		m.replies = append(m.replies, b)
	}
}

// drain drops the replies a failed Generate left queued.
func (m *scriptedModel) drain() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.replies = nil
}

// allRequests returns every request the model received, in order.
func (m *scriptedModel) allRequests() []request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}

// last returns the newest request.
func (m *scriptedModel) last(t *testing.T) request {
	t.Helper()
	reqs := m.allRequests()
	if len(reqs) == 0 {
		t.Fatal("the model was never called")
	}
	return reqs[len(reqs)-1]
}

// toolCall is a model reply that requests one tool, with no ref, as
// models without call ids send them.
func toolCall(name string, input any) *ai.Message {
	return &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{ai.NewToolRequestPart(&ai.ToolRequest{Name: name, Input: input})}}
}

// answer is a model reply in text.
func answer(text string) *ai.Message { return ai.NewModelTextMessage(text) }

// args is a tool input as a model plugin decodes it.
func args(t *testing.T, js string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// conversation is a Genkit application's conversation, kept as Genkit's
// users keep it: every Generate gets the whole history, and the history
// becomes resp.History() (the request the model answered, and its
// answer). The system prompt is its first message.
type conversation struct {
	g       *genkit.Genkit
	model   *scriptedModel
	skills  *skillgenkit.Skills
	id      string
	history []*ai.Message
}

// turn sends the user's message and returns the response.
func (c *conversation) turn(t *testing.T, user string) *ai.ModelResponse {
	t.Helper()
	c.history = append(c.history, ai.NewUserTextMessage(user))
	resp, err := c.generate(t.Context())
	if err != nil {
		t.Fatalf("turn %q: %v", user, err)
	}
	c.history = resp.History()
	return resp
}

// generate runs one Generate on the history through Genkit's own tool
// loop, with the adapter's tools and middleware.
func (c *conversation) generate(ctx context.Context) (*ai.ModelResponse, error) {
	return genkit.Generate(skillgenkit.WithSession(ctx, c.id), c.g, ai.WithModel(c.model.model),
		ai.WithMessages(c.history...), ai.WithTools(c.skills.Tools()...), ai.WithMiddleware(c.skills.Middleware()))
}

// copySkills copies the repository's testdata/skills into a new temporary
// directory, which the test may change, and returns it.
func copySkills(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "skills")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("..", "..", "testdata", "skills"))); err != nil {
		t.Fatal(err)
	}
	return dst
}

// writeSkill writes dir/name/SKILL.md.
func writeSkill(t *testing.T, dir, name, description, body string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, name, "SKILL.md"), fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n%s", name, description, body))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// text is the text of a message's parts.
func text(m *ai.Message) string {
	var b strings.Builder
	for _, p := range m.Content {
		if p.IsText() {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// catalogs returns the texts of the catalog messages a request holds
// (first catalogs and replacements), in order.
func catalogs(req request) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == ai.RoleUser && strings.Contains(text(m), "<available_skills>") {
			out = append(out, text(m))
		}
	}
	return out
}

// toolResults returns the outputs of the tool responses in the request's
// last message, which must be a tool message.
func toolResults(t *testing.T, req request) []*ai.ToolResponse {
	t.Helper()
	m := req.Messages[len(req.Messages)-1]
	if m.Role != ai.RoleTool {
		t.Fatalf("the last message is a %s message, not a tool message: %q", m.Role, text(m))
	}
	var out []*ai.ToolResponse
	for _, p := range m.Content {
		if p.IsToolResponse() {
			out = append(out, p.ToolResponse)
		}
	}
	return out
}

// lastToolResult returns the output of the request's one tool response.
func lastToolResult(t *testing.T, req request) string {
	t.Helper()
	res := toolResults(t, req)
	if len(res) != 1 {
		t.Fatalf("the last message holds %d tool responses, want 1", len(res))
	}
	s, ok := res[0].Output.(string)
	if !ok {
		t.Fatalf("the tool's output is %T, want a string", res[0].Output)
	}
	return s
}

// extends fails unless cur's wire starts with every byte of prev's but its
// closing "]}": the previous request, all of it, is a prefix of this one.
func extends(t *testing.T, prev, cur request) {
	t.Helper()
	if n, ok := extension(prev, cur); !ok {
		head := bytes.TrimSuffix(prev.Wire, []byte("]}"))
		t.Fatalf("the request does not extend the previous one; they differ at byte %d of %d:\nprevious: …%s\nthis:     …%s",
			n, len(head), clip(head, n), clip(cur.Wire, n))
	}
}

// extension reports whether cur extends prev, and where they first
// differ.
func extension(prev, cur request) (int, bool) {
	head := bytes.TrimSuffix(prev.Wire, []byte("]}"))
	n := 0
	for n < len(head) && n < len(cur.Wire) && head[n] == cur.Wire[n] {
		n++
	}
	return n, n == len(head)
}

func clip(b []byte, at int) string {
	return string(b[max(0, at-60):min(len(b), at+80)])
}

func wantNames(t *testing.T, catalog string, want ...string) {
	t.Helper()
	for _, name := range want {
		if !strings.Contains(catalog, "`"+name+"`") {
			t.Errorf("the catalog does not list %s:\n%s", name, catalog)
		}
	}
}

// skillWatch follows the skills a host offers. The host watches the skill
// directories, and a change on disk reaches a session's snapshot once the
// watcher's debounce has passed; a probe session of the watch's own sees
// it when every other session does.
type skillWatch struct{ probe *hostsdk.Session }

// watchSkills starts following host's skills; call it before the change.
func watchSkills(t *testing.T, host *hostsdk.Host) *skillWatch {
	t.Helper()
	w := &skillWatch{probe: host.Session("watch-skills", nil)}
	w.latest(t)
	return w
}

// latest returns the text of the newest catalog the probe session sees.
func (w *skillWatch) latest(t *testing.T) string {
	t.Helper()
	probe := []hostsdk.Message{{Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("probe")}}}
	res, err := w.probe.Sync(t.Context(), probe)
	if err != nil {
		t.Fatal(err)
	}
	latest := ""
	for _, v := range res.View {
		if v.Plugin {
			latest = v.Message.Text()
		}
	}
	return latest
}

// await returns once the host's catalog satisfies shown; the deadline only
// keeps a broken watcher from hanging the test.
func (w *skillWatch) await(t *testing.T, shown func(catalog string) bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		latest := w.latest(t)
		if shown(latest) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the host's skills did not change as expected; its latest catalog:\n%s", latest)
		}
	}
}
