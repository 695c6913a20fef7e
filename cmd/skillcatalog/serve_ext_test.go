//go:build unix

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP Skills extension's skills/list, as a client outside the module's
// internal packages sees it.
const methodSkillsList = "skills/list"

type skillsListParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

type skillsListResult struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
	Skills     []struct {
		URI         string          `json:"uri"`
		Frontmatter json.RawMessage `json:"frontmatter"`
		Resources   json.RawMessage `json:"resources"`
	} `json:"skills"`
	NextCursor string `json:"nextCursor"`
}

// skillsClient is a go-sdk client that can call skills/list.
func skillsClient(tb testing.TB, opts *mcp.ClientOptions) *mcp.Client {
	tb.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "skillcatalog-test", Version: "1"}, opts)
	if err := mcp.AddSendingCustomMethod[*skillsListParams, *skillsListResult](c, methodSkillsList); err != nil {
		tb.Fatal(err)
	}
	return c
}

// listSkillURIs walks every page of skills/list.
func listSkillURIs(ctx context.Context, cs *mcp.ClientSession) ([]string, error) {
	var uris []string
	cursor := ""
	for {
		res, err := mcp.CallCustomMethod[*skillsListParams, *skillsListResult](ctx, cs, methodSkillsList, &skillsListParams{Cursor: cursor})
		if err != nil {
			return nil, err
		}
		for _, s := range res.Skills {
			uris = append(uris, s.URI)
		}
		if cursor = res.NextCursor; cursor == "" {
			return uris, nil
		}
	}
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// serve-mcp, run as a process, serves go-sdk clients that open with base
// revision 2025-11-25 and with 2026-07-28, over stdio and over HTTP: each
// sees the extension, lists the skills (the nested one included) and hears
// that the list changed when a skill is added.
func TestServeMCPBothProtocolRevisions(t *testing.T) {
	bin := buildCommand(t)
	for _, transport := range []string{"stdio", "http"} {
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			t.Run(transport+"/"+rev, func(t *testing.T) {
				t.Parallel()
				skills := copySkills(t)
				var ct mcp.Transport
				if transport == "stdio" {
					ct = &mcp.CommandTransport{Command: exec.Command(bin, "serve-mcp", "-skills", skills)}
				} else {
					const token = "revisions-token-3b9e"
					ct = &mcp.StreamableClientTransport{Endpoint: serveHTTP(t, bin, skills, token), HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}
				}
				changed := make(chan struct{}, 16)
				ctx := context.Background()
				cs, err := skillsClient(t, &mcp.ClientOptions{ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
					changed <- struct{}{}
				}}).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: rev})
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				init := cs.InitializeResult()
				ext, _ := json.Marshal(init.Capabilities.Extensions["io.modelcontextprotocol/skills"])
				if init.ProtocolVersion != rev || string(ext) != `{"directoryRead":true}` || init.Capabilities.Resources == nil {
					t.Errorf("negotiated %s (want %s), extension %s, resources %v", init.ProtocolVersion, rev, ext, init.Capabilities.Resources)
				}
				want := []string{"skill://acme/billing/refunds/SKILL.md", "skill://data-export/SKILL.md", "skill://incident-review/SKILL.md"}
				if got, err := listSkillURIs(ctx, cs); err != nil || !slices.Equal(got, want) {
					t.Errorf("skills/list = %q, %v; want %q", got, err, want)
				}
				dir := filepath.Join(skills, "on-call")
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: on-call\ndescription: Take the pager.\n---\nBody.\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				for {
					select {
					case <-changed:
					case <-time.After(30 * time.Second):
						t.Fatal("no notifications/resources/list_changed after a skill was added")
					}
					if got, err := listSkillURIs(ctx, cs); err == nil && slices.Contains(got, "skill://on-call/SKILL.md") {
						return
					}
				}
			})
		}
	}
}
