package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/triggereval"
	"github.com/skillcatalog/skillcatalog/internal/golden"
)

// scriptedAPI is a model API server that answers each request with the
// `skill` calls its script names for that request's runs in turn ("" for
// a text answer), in the wire form of Anthropic's Messages API or OpenAI's
// Chat Completions API, and counts the requests that carried the catalog
// and the `skill` tool.
type scriptedAPI struct {
	api    string
	script map[string][]string
	mu     sync.Mutex
	runs   map[string]int
	served int
	fitted int // requests with the catalog and the skill tool
}

func (s *scriptedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.served++
	if bytes.Contains(body, []byte("available_skills")) && bytes.Contains(body, []byte(`"name":"skill"`)) {
		s.fitted++
	}
	for req, names := range s.script {
		if !bytes.Contains(body, []byte(req)) {
			continue
		}
		name := names[s.runs[req]%len(names)]
		s.runs[req]++
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, s.reply(name, s.runs[req]))
		return
	}
	http.Error(w, `{"error":{"type":"test","message":"no script"}}`, http.StatusBadRequest)
}

// reply is a response calling `skill` with name, or a text answer.
func (s *scriptedAPI) reply(name string, n int) string {
	args, _ := json.Marshal(map[string]string{"name": name})
	if s.api == "anthropic" {
		content := `{"type":"text","text":"Done.","citations":null}`
		if name != "" {
			content = fmt.Sprintf(`{"type":"tool_use","id":"toolu_%d","name":"skill","input":%s}`, n, args)
		}
		return `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[` + content +
			`],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`
	}
	msg := `{"role":"assistant","content":"Done."}`
	if name != "" {
		quoted, _ := json.Marshal(string(args))
		msg = fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_%d","type":"function","function":{"name":"skill","arguments":%s}}]}`, n, quoted)
	}
	return `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":` + msg + `}]}`
}

// TestModelPathEndToEnd: with a scripted model behind each API's real
// adapter and SDK, every request of a skill's evals/ file is sent three
// times with the catalog and the `skill` tool; the table gives each
// request's trigger rate and its pass or fail at 0.5, and a failure makes
// the status 1. Both APIs give the same table.
func TestModelPathEndToEnd(t *testing.T) {
	for _, api := range []string{"anthropic", "openai"} {
		t.Run(api, func(t *testing.T) {
			s := &scriptedAPI{api: api, runs: map[string]int{}, script: map[string][]string{
				"Merge a.pdf and b.pdf":           {"pdf", "pdf", ""},
				"Split report.pdf by chapter":     {"", "xlsx", "pdf"},
				"Add a pivot table to sales.xlsx": {"xlsx", "", "xlsx"},
			}}
			srv := httptest.NewServer(s)
			defer srv.Close()
			t.Setenv("ANTHROPIC_API_KEY", "test-key")
			t.Setenv("OPENAI_API_KEY", "test-key")
			var stdout, stderr bytes.Buffer
			home := t.TempDir()
			code := run(context.Background(), []string{"-model", api, "-base-url", srv.URL, "-skills", filepath.Join("testdata", "skills"),
				"-home", home, "-cwd", home, filepath.Join("testdata", "skills", "pdf", "evals", "triggers.md")}, &stdout, &stderr)
			if code != 1 || stderr.Len() != 0 {
				t.Fatalf("status %d, want 1 (a request fails); stderr:\n%s", code, stderr.String())
			}
			if s.served != 9 || s.fitted != 9 {
				t.Errorf("%d model calls, %d with the catalog and the skill tool; want 3 requests x 3 runs, all with both", s.served, s.fitted)
			}
			golden.Check(t, filepath.Join("testdata", "scripted.golden"), stdout.Bytes())

			stdout.Reset()
			s.runs = map[string]int{}
			run(context.Background(), []string{"-json", "-model", api, "-base-url", srv.URL, "-skills", filepath.Join("testdata", "skills"),
				"-home", home, "-cwd", home, filepath.Join("testdata", "skills", "pdf", "evals", "triggers.md")}, &stdout, &stderr)
			var rep triggereval.Report
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Results) != 3 || rep.Results[0].Rate < 0.6 || rep.Results[0].Skill != "pdf" {
				t.Errorf("-json: %v\n%s", err, stdout.String())
			}
		})
	}
}

// TestUsage: a missing or unknown -model, or no FILE, is a usage error.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"x.json"}, {"-model", "gemini", "x.json"}, {"-model", "openai"}} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "skillcatalog-modeleval:") {
			t.Errorf("%q: status %d, stderr %q", args, code, stderr.String())
		}
	}
}
