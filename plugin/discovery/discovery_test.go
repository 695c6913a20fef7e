package discovery_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
	"github.com/skillcatalog/skillcatalog/plugin/discovery"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

func TestParseRefusesNamingTheOptionAndItsBound(t *testing.T) {
	t.Parallel()
	many := func(n int, item string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
	}
	for _, tt := range []struct{ raw, want string }{
		{`[]`, "discovery must be a single JSON object"},
		{`{} {}`, "discovery must be a single JSON object"},
		{`{"skillroots": []}`, `discovery has an unknown option "skillroots" (known options: homeDir, honourDirectives, lockFile, mcpServers, presets, skillRoots, trustProjects, trustedProjects, unlocked, websites)`},
		{`{"skillRoots": "/a"}`, `discovery option skillRoots must be an array of strings, got "/a"`},
		{`{"skillRoots": ["skills"]}`, `discovery option skillRoots[0] must be an absolute path, got "skills"`},
		{`{"skillRoots": ` + many(65, `"/a"`) + `}`, "skillRoots lists 65 directories, more than the 64 it may"},
		{`{"homeDir": "~"}`, `discovery option homeDir must be an absolute path, got "~"`},
		{`{"trustProjects": "yes"}`, `discovery option trustProjects must be true or false, got "yes"`},
		{`{"trustProjects": true, "trustedProjects": ["/src"]}`, "trustProjects and trustedProjects exclude each other"},
		{`{"presets": ["cursor"]}`, `discovery option presets[0] is "cursor"; the presets are "agent-skills", "claude-code" and "codex"`},
		{`{"mcpServers": {}}`, "discovery option mcpServers must be an array of objects"},
		{`{"mcpServers": ` + many(17, `{"url": "https://a.example/mcp"}`) + `}`, "mcpServers lists 17 servers, more than the 16 it may (MaxServers)"},
		{`{"mcpServers": [{"command": "npx", "args": ["skills"]}]}`, "mcpServers[0].args: the plugin starts no programs"},
		{`{"mcpServers": [{"url": "https://a.example/mcp", "cmd": "x"}]}`, `mcpServers[0] has an unknown option "cmd"`},
		{`{"mcpServers": [{"url": "ftp://a.example/mcp"}]}`, "mcpServers[0].url must be an absolute https URL (or http to a loopback address)"},
		{`{"mcpServers": [{"url": "http://skills.example/mcp"}]}`, "mcpServers[0].url is plain http to skills.example, which is not a loopback address: use https, or set mcpServers[0].allowHttp"},
		{`{"mcpServers": [{"url": "https://a.example/mcp", "label": "Docs"}]}`, "mcpServers[0].label must be lower-case letters"},
		{`{"mcpServers": [{"url": "https://a.example/mcp"}, {"url": "https://b.example/mcp"}]}`, `mcpServers[1].label "mcp" is mcpServers[0]'s already`},
		{`{"mcpServers": [{"url": "https://a.example/mcp", "availability": "sometimes"}]}`, `availability must be "best-effort" or "strict"`},
		{`{"mcpServers": [{"url": "https://a.example/mcp", "requestTimeoutMs": 3600001}]}`, "requestTimeoutMs must be between 1 and 3600000"},
		{`{"mcpServers": [{"url": "https://a.example/mcp", "indexMaxAgeMs": -1}]}`, "indexMaxAgeMs must be between 1 and 86400000"},
		{`{"mcpServers": [{"url": "https://a.example/mcp", "rank": 1.5}]}`, "discovery option mcpServers[0].rank must be an integer, got 1.5"},
		{`{"mcpServers": [{"url": "https://a.example/mcp", "headers": {"Authorization": 7}}]}`, "mcpServers[0].headers must be an object of strings"},
		{`{"homeDir": "/` + strings.Repeat("a", discovery.MaxConfigBytes) + `"}`, "more than the 65536 (64 KiB) it may be"},
		{`{"honourDirectives": ["fork"]}`, `discovery option honourDirectives: unknown directive "fork"; the directives are context, model, allowed-tools`},
		{`{"honourDirectives": "model"}`, `discovery option honourDirectives must be an array of strings, got "model"`},
		{`{"mcpServers": [{"url": "https://a.example/mcp", "trustDirectives": "yes"}]}`, `discovery option mcpServers[0].trustDirectives must be true or false, got "yes"`},
		{`{"websites": {}}`, "discovery option websites must be an array of objects"},
		{`{"websites": ` + many(17, `{"url": "https://a.example"}`) + `}`, "websites lists 17 websites, more than the 16 it may (MaxWebsites)"},
		{`{"websites": [{"url": "https://a.example", "headers": {}}]}`, `websites[0] has an unknown option "headers"`},
		{`{"websites": [{"url": "ftp://a.example"}]}`, "websites[0].url must be an absolute https URL (or http to a loopback address)"},
		{`{"websites": [{"url": "http://docs.example"}]}`, "websites[0].url is plain http to docs.example, which is not a loopback address: use https, or set websites[0].allowHttp"},
		{`{"websites": [{"url": "https://a.example", "label": "Docs"}]}`, "websites[0].label must be lower-case letters"},
		{`{"websites": [{"url": "https://a.example"}, {"url": "https://b.example"}]}`, `websites[1].label "web" is websites[0]'s already`},
		{`{"mcpServers": [{"url": "https://a.example/mcp", "label": "docs"}], "websites": [{"url": "https://b.example", "label": "docs"}]}`, `websites[0].label "docs" is mcpServers[0]'s already`},
		{`{"websites": [{"url": "https://a.example", "availability": "sometimes"}]}`, `websites[0].availability must be "best-effort" or "strict"`},
		{`{"websites": [{"url": "https://a.example", "requireDigests": 1}]}`, "discovery option websites[0].requireDigests must be true or false, got 1"},
	} {
		if _, err := discovery.Parse(tt.raw); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%.80s) = %v, want an error containing %q", tt.raw, err, tt.want)
		}
	}
}

func TestParseSecretsStayOutOfErrors(t *testing.T) {
	t.Parallel()
	raw := `{"mcpServers": [{"url": "https://a.example/mcp", "headers": {"Authorization": "Bearer ` + strings.Repeat("s", discovery.MaxHeaderValueBytes) + `"}}]}`
	_, err := discovery.Parse(raw)
	if err == nil || strings.Contains(err.Error(), "sss") || !strings.Contains(err.Error(), "the value of Authorization is 8199 bytes") {
		t.Errorf("Parse = %v, want the header named and its value left out", err)
	}
}

func TestParseReadsWhatAGoHostWrites(t *testing.T) {
	t.Parallel()
	d := contract.Discovery{
		SkillRoots: []string{"/srv/skills"}, Presets: []string{"agent-skills", "claude-code", "codex"}, HomeDir: "/home/u",
		TrustedProjects: []string{"/home/u/src"}, HonourDirectives: []string{"model", "allowed-tools"},
		MCPServers: []contract.DiscoveryServer{
			{URL: "https://skills.example/mcp", Headers: map[string]string{"Authorization": "Bearer t"}, Label: "docs", Rank: -2,
				Availability: "strict", SkillURIs: []string{"skill://a/SKILL.md"}, RequestTimeoutMs: 5000, IndexMaxAgeMs: 1, TrustDirectives: true},
			{URL: "http://127.0.0.1:8080/mcp", Label: "local"},
			{URL: "http://[::1]:8080/mcp", Label: "local6"},
			{URL: "http://skills.lan/mcp", Label: "lan", AllowHTTP: true},
		},
		Websites: []contract.DiscoveryWebsite{
			{URL: "https://docs.example.com", Label: "site", Rank: 1, Availability: "strict", RequireDigests: true, RequestTimeoutMs: 5000, TrustDirectives: true},
			{URL: "http://127.0.0.1:8766"},
		},
	}
	got, err := discovery.Parse(d.JSON())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(d, got); diff != "" {
		t.Errorf("Parse(JSON()) differs (-want +got):\n%s", diff)
	}
	if _, err := discovery.Parse(`{}`); err != nil {
		t.Errorf("Parse({}) = %v, want no error: discovery of the home directory's skills alone", err)
	}
}

// TestWebsiteOptionsAllowLoopbackHTTP: a website on loopback over plain
// http is accepted by Parse without allowHttp, as a server is, and its
// provider is then made, not refused.
func TestWebsiteOptionsAllowLoopbackHTTP(t *testing.T) {
	t.Parallel()
	d, err := discovery.Parse(`{"websites": [{"url": "http://127.0.0.1:8766", "label": "docs"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	web, err := webskills.New(discovery.WebsiteOptions(d.Websites[0], nil))
	if err != nil {
		t.Fatalf("webskills.New(WebsiteOptions(%+v)): %v", d.Websites[0], err)
	}
	web.Close()
}

// newService is a discovering service over the engine, closed with the
// test.
func newService(t *testing.T) *discovery.Service {
	t.Helper()
	svc := discovery.New(plugin.New(nil), nil)
	t.Cleanup(func() {
		if err := svc.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return svc
}

// skillRoot writes one skill into a fresh root.
func skillRoot(t *testing.T, name string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	md := fmt.Sprintf("---\nname: %s\ndescription: The %s skill.\n---\nDo %s.\n", name, name, name)
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestDiscoveringMountCallsBackOnlyForEvents: a mount configured with a
// discovery publishes the skills of its root and loads one without any
// Snapshot, GetSkill or ReadResource callback; the host's log is read.
func TestDiscoveringMountCallsBackOnlyForEvents(t *testing.T) {
	t.Parallel()
	svc, host, ctx := newService(t), contracttest.NewHost(), context.Background()
	home := t.TempDir()
	d := contract.Discovery{SkillRoots: []string{skillRoot(t, "pdf-forms")}, HomeDir: home}
	resp, err := svc.Configure(ctx, host, contract.ConfigureRequest{Config: `{"resourceTool": true}`, Discovery: d.JSON()})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.DiscoversSkills || resp.AcceptsStepSnapshots || len(resp.Tools) != 2 {
		t.Errorf("Configure = %+v, want a discovering mount with both tools that takes no snapshot ahead", resp)
	}
	if err := svc.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "id-1"}}); err != nil {
		t.Fatal(err)
	}
	step, err := svc.PreStep(ctx, contract.StepRequest{MountID: resp.MountID, SessionID: "s1", Cwd: home, AgentScope: "agent",
		SkillToolIdentity: "id-1", SnapshotToken: "a token the host cannot know"})
	if err != nil || step.Outcome != contract.OutcomeInitial {
		t.Fatalf("PreStep = %+v, %v; want the initial catalog", step, err)
	}
	res, err := svc.ExecuteSkillTool(ctx, contract.ToolCall{MountID: resp.MountID, SessionID: "s1", Cwd: home, Arguments: json.RawMessage(`{"name": "pdf-forms"}`)})
	if err != nil || res.IsError || res.Value == nil || strings.TrimSpace(res.Value.Content) != "Do pdf-forms." {
		t.Fatalf("skill pdf-forms = %+v, %v", res, err)
	}
	for _, c := range []contracttest.Callback{contracttest.CallSnapshot, contracttest.CallGetSkill, contracttest.CallReadResource} {
		if n := host.Calls(c); n != 0 {
			t.Errorf("%d %s callbacks, want none", n, c)
		}
	}
	if host.Calls(contracttest.CallReadEvents) == 0 {
		t.Error("the session log was never read from the host")
	}
	_, err = svc.PreStep(ctx, contract.StepRequest{MountID: resp.MountID, SessionID: "s2", Cwd: "relative/dir", SkillToolIdentity: "id-1"})
	if !errors.Is(err, contract.ErrHostFailed) || !strings.Contains(err.Error(), `the working directory is not absolute: "relative/dir"`) {
		t.Errorf("a step from a relative working directory: %v, want the host's failure naming it", err)
	}
}

// TestDiscoveredDirectives: a skill the plugin discovers comes with its
// directives, trusted (a file on disk), honoured for the kinds the
// discovery names; its text states the rest as not acted on.
func TestDiscoveredDirectives(t *testing.T) {
	t.Parallel()
	svc, host, ctx := newService(t), contracttest.NewHost(), context.Background()
	root, home := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "review"), 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: review\ndescription: Review.\nmodel: opus\nallowed-tools: Read, Grep\n---\nReview it.\n"
	if err := os.WriteFile(filepath.Join(root, "review", "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	d := contract.Discovery{SkillRoots: []string{root}, HomeDir: home, HonourDirectives: []string{"allowed-tools"}}
	resp, err := svc.Configure(ctx, host, contract.ConfigureRequest{Discovery: d.JSON()})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "id-1"}}); err != nil {
		t.Fatal(err)
	}
	res, err := svc.ExecuteSkillTool(ctx, contract.ToolCall{MountID: resp.MountID, SessionID: "s1", Cwd: home, Arguments: json.RawMessage(`{"name": "review"}`)})
	if err != nil || res.IsError {
		t.Fatalf("skill review = %+v, %v", res, err)
	}
	want := &skill.Directives{Model: "opus", AllowedTools: []string{"Read", "Grep"}, Trusted: true, Honoured: skill.DirectiveAllowedTools}
	if diff := cmp.Diff(want, res.Directives); diff != "" {
		t.Errorf("directives (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(res.Text, "</skill_content>\n"+render.DirectivesNotice("review", want)) || strings.Contains(res.Text, "Read") {
		t.Errorf("text does not end with the notice of the model alone:\n%s", res.Text)
	}
}

// TestDiscoveryConfigurationsAreSharedAndReleased: mounts with the same
// discovery share its providers; distinct configurations are bounded; an
// unmount releases its configuration's providers after the last mount,
// and Close refuses later discoveries.
func TestDiscoveryConfigurationsAreSharedAndReleased(t *testing.T) {
	t.Parallel()
	svc, host, ctx := newService(t), contracttest.NewHost(), context.Background()
	configure := func(home string) (contract.ConfigureResponse, error) {
		return svc.Configure(ctx, host, contract.ConfigureRequest{Discovery: contract.Discovery{HomeDir: home}.JSON()})
	}
	var first []string
	for i := range discovery.MaxConfigurations {
		resp, err := configure(fmt.Sprintf("/home/u%d", i))
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, resp.MountID)
	}
	shared, err := configure("/home/u0")
	if err != nil {
		t.Fatalf("a mount with a configuration already served: %v", err)
	}
	var cerr *contract.ConfigError
	if _, err := configure("/home/other"); !errors.As(err, &cerr) || !strings.Contains(err.Error(), "16 configurations, the most it serves at once (MaxConfigurations)") {
		t.Fatalf("one configuration too many: %v, want a *ConfigError naming the bound", err)
	}
	if err := svc.Unmount(ctx, first[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := configure("/home/other"); err == nil {
		t.Fatal("u0's providers were released although a mount still shares them")
	}
	if err := svc.Unmount(ctx, shared.MountID); err != nil {
		t.Fatal(err)
	}
	if _, err := configure("/home/other"); err != nil {
		t.Fatalf("after the last mount of u0 went: %v", err)
	}
	if _, err := svc.Configure(ctx, host, contract.ConfigureRequest{Discovery: `{"skillRoots": ["x"]}`}); !errors.As(err, &cerr) {
		t.Errorf("an invalid discovery: %v, want a *ConfigError", err)
	}
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := configure("/home/u1"); err == nil || !strings.Contains(err.Error(), "stopping") {
		t.Errorf("Configure after Close: %v, want a refusal", err)
	}
}

func TestTheEngineAloneRefusesADiscovery(t *testing.T) {
	t.Parallel()
	_, err := plugin.New(nil).Configure(context.Background(), contracttest.NewHost(), contract.ConfigureRequest{Discovery: `{}`})
	var cerr *contract.ConfigError
	if !errors.As(err, &cerr) || !strings.Contains(err.Error(), "runs the engine alone and discovers no skills") {
		t.Errorf("Configure = %v, want a *ConfigError saying the engine alone discovers nothing", err)
	}
}

// TestParseAcceptsEachBoundAndRefusesPastIt: every bound of a
// configuration admits a value exactly at it, and refuses one past it
// with an error naming the option and the bound.
func TestParseAcceptsEachBoundAndRefusesPastIt(t *testing.T) {
	t.Parallel()
	// list is a JSON array of n items, item(i) the i-th.
	list := func(n int, item func(i int) string) string {
		items := make([]string, n)
		for i := range items {
			items[i] = item(i)
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	root := func(int) string { return `"/a"` }
	// servers is a configuration of n servers, each with a label of its own.
	servers := func(n int) string {
		return `{"mcpServers": ` + list(n, func(i int) string { return fmt.Sprintf(`{"url": "https://a.example/mcp", "label": "s%d"}`, i) }) + `}`
	}
	// server is a configuration of one server with more fields.
	server := func(fields string) string {
		return `{"mcpServers": [{"url": "https://a.example/mcp", ` + fields + `}]}`
	}
	// headers is a configuration of one server with n headers.
	headers := func(n int) string {
		pairs := make([]string, n)
		for i := range pairs {
			pairs[i] = fmt.Sprintf(`"h%d": "v"`, i)
		}
		return server(`"headers": {` + strings.Join(pairs, ", ") + `}`)
	}
	// url is a configuration of one server whose URL is n bytes long.
	url := func(n int) string {
		const base = "https://a.example/"
		return `{"mcpServers": [{"url": "` + base + strings.Repeat("a", n-len(base)) + `"}]}`
	}
	for _, tt := range []struct {
		option   string
		at, past string // a configuration at the bound, and one past it
		want     string // the refusal of past
	}{
		{"the configuration's size",
			"{" + strings.Repeat(" ", discovery.MaxConfigBytes-2) + "}",
			"{" + strings.Repeat(" ", discovery.MaxConfigBytes-1) + "}",
			"the discovery configuration is 65537 bytes, more than the 65536 (64 KiB) it may be"},
		{"skillRoots",
			`{"skillRoots": ` + list(discovery.MaxSkillRoots, root) + `}`,
			`{"skillRoots": ` + list(discovery.MaxSkillRoots+1, root) + `}`,
			"discovery option skillRoots lists 65 directories, more than the 64 it may"},
		{"trustedProjects",
			`{"trustedProjects": ` + list(discovery.MaxTrustedProjects, root) + `}`,
			`{"trustedProjects": ` + list(discovery.MaxTrustedProjects+1, root) + `}`,
			"discovery option trustedProjects lists 65 directories, more than the 64 it may"},
		{"a path's length",
			`{"homeDir": "/` + strings.Repeat("a", discovery.MaxPathBytes-1) + `"}`,
			`{"homeDir": "/` + strings.Repeat("a", discovery.MaxPathBytes) + `"}`,
			"discovery option homeDir is 4097 bytes long, more than the 4096 a path may be"},
		{"mcpServers",
			servers(discovery.MaxServers),
			servers(discovery.MaxServers + 1),
			"discovery option mcpServers lists 17 servers, more than the 16 it may (MaxServers)"},
		{"websites",
			`{"websites": ` + list(discovery.MaxWebsites, func(i int) string { return fmt.Sprintf(`{"url": "https://a.example", "label": "w%d"}`, i) }) + `}`,
			`{"websites": ` + list(discovery.MaxWebsites+1, func(i int) string { return fmt.Sprintf(`{"url": "https://a.example", "label": "w%d"}`, i) }) + `}`,
			"discovery option websites lists 17 websites, more than the 16 it may (MaxWebsites)"},
		{"a website's URL length",
			`{"websites": [{"url": "https://a.example/` + strings.Repeat("a", discovery.MaxPathBytes-len("https://a.example/")) + `"}]}`,
			`{"websites": [{"url": "https://a.example/` + strings.Repeat("a", discovery.MaxPathBytes+1-len("https://a.example/")) + `"}]}`,
			"discovery option websites[0].url is 4097 bytes long, more than the 4096 a URL may be"},
		{"a website's requestTimeoutMs",
			`{"websites": [{"url": "https://a.example", "requestTimeoutMs": 3600000}]}`,
			`{"websites": [{"url": "https://a.example", "requestTimeoutMs": 3600001}]}`,
			"discovery option websites[0].requestTimeoutMs must be between 1 and 3600000 (0 selects 30000), got 3600001"},
		{"a URL's length",
			url(discovery.MaxPathBytes),
			url(discovery.MaxPathBytes + 1),
			"discovery option mcpServers[0].url is 4097 bytes long, more than the 4096 a URL may be"},
		{"headers",
			headers(discovery.MaxHeaders),
			headers(discovery.MaxHeaders + 1),
			"discovery option mcpServers[0].headers has 33 headers, more than the 32 it may"},
		{"a header value's length",
			server(`"headers": {"Authorization": "` + strings.Repeat("s", discovery.MaxHeaderValueBytes) + `"}`),
			server(`"headers": {"Authorization": "` + strings.Repeat("s", discovery.MaxHeaderValueBytes+1) + `"}`),
			"discovery option mcpServers[0].headers: the value of Authorization is 8193 bytes, more than the 8192 a value may be"},
		{"requestTimeoutMs",
			server(`"requestTimeoutMs": 3600000`),
			server(`"requestTimeoutMs": 3600001`),
			"discovery option mcpServers[0].requestTimeoutMs must be between 1 and 3600000 (0 selects 30000), got 3600001"},
		{"requestTimeoutMs's floor",
			server(`"requestTimeoutMs": 0`),
			server(`"requestTimeoutMs": -1`),
			"discovery option mcpServers[0].requestTimeoutMs must be between 1 and 3600000 (0 selects 30000), got -1"},
		{"indexMaxAgeMs",
			server(`"indexMaxAgeMs": 86400000`),
			server(`"indexMaxAgeMs": 86400001`),
			"discovery option mcpServers[0].indexMaxAgeMs must be between 1 and 86400000 (0 selects 30000), got 86400001"},
		{"indexMaxAgeMs's floor",
			server(`"indexMaxAgeMs": 0`),
			server(`"indexMaxAgeMs": -1`),
			"discovery option mcpServers[0].indexMaxAgeMs must be between 1 and 86400000 (0 selects 30000), got -1"},
	} {
		t.Run(tt.option, func(t *testing.T) {
			t.Parallel()
			if _, err := discovery.Parse(tt.at); err != nil {
				t.Errorf("at the bound: %v, want it accepted", err)
			}
			if _, err := discovery.Parse(tt.past); err == nil || err.Error() != tt.want {
				t.Errorf("past the bound: %v, want %q", err, tt.want)
			}
		})
	}
}

// TestParseTrustsEveryProjectOrSomeNotBoth: trustProjects trusts every
// project and trustedProjects those at or below its directories; either
// may be given alone (an empty trustedProjects names none), not both.
func TestParseTrustsEveryProjectOrSomeNotBoth(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ raw, want string }{
		{`{"trustProjects": true}`, ""},
		{`{"trustProjects": true, "trustedProjects": []}`, ""},
		{`{"trustedProjects": ["/src"]}`, ""},
		{`{"trustProjects": false, "trustedProjects": ["/src"]}`, ""},
		{`{"trustProjects": true, "trustedProjects": ["/src"]}`, "discovery options trustProjects and trustedProjects exclude each other: trustProjects trusts every project already"},
	} {
		got := ""
		if _, err := discovery.Parse(tt.raw); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Parse(%s) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

// TestParseQuotesAValueWholeUpToItsClip: an error quotes the value it
// refuses whole when it is no longer than the error's clip, and cut to
// the clip and marked "..." when it is longer.
func TestParseQuotesAValueWholeUpToItsClip(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		option string
		clip   int
		raw    func(v string) string // a configuration refusing v
		want   func(q string) string // its error, quoting v as q
	}{
		{"presets", 64,
			func(v string) string { return `{"presets": ["` + v + `"]}` },
			func(q string) string {
				return `discovery option presets[0] is "` + q + `"; the presets are "agent-skills", "claude-code" and "codex"`
			}},
		{"homeDir", 128,
			func(v string) string { return `{"homeDir": "` + v + `"}` },
			func(q string) string { return `discovery option homeDir must be an absolute path, got "` + q + `"` }},
	} {
		at := strings.Repeat("x", tt.clip)
		for v, q := range map[string]string{at: at, at + "x": at + "..."} {
			if _, err := discovery.Parse(tt.raw(v)); err == nil || err.Error() != tt.want(q) {
				t.Errorf("%s of %d bytes: %v, want %q", tt.option, len(v), err, tt.want(q))
			}
		}
	}
}

// publishedNames are the names of the catalog a step publishes, if any.
func publishedNames(resp contract.StepResponse) []string {
	var names []string
	for _, e := range resp.Edits {
		if c, ok := events.ParseCatalog(e.Message.Source); ok && e.Op != contract.EditRemove {
			for _, entry := range c.Entries {
				names = append(names, entry.Name)
			}
		}
	}
	return names
}

// TestAMountWithoutDiscoveryIsTheWrappedServices: a mount configured
// without a discovery steps as the wrapped service does, its skills coming
// from the host's Snapshot callback.
func TestAMountWithoutDiscoveryIsTheWrappedServices(t *testing.T) {
	t.Parallel()
	svc, host, ctx := newService(t), contracttest.NewHost(), context.Background()
	host.SetSkill(skill.Definition{Summary: skill.Summary{Name: "pdf-forms", Description: "Fill forms.", Invocation: skill.DefaultPolicy(), Provider: "runtime"}})
	resp, err := svc.Configure(ctx, host, contract.ConfigureRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if resp.DiscoversSkills {
		t.Errorf("Configure = %+v, want a mount that does not discover skills", resp)
	}
	if err := svc.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "id-1"}}); err != nil {
		t.Fatal(err)
	}
	step, err := svc.PreStep(ctx, contract.StepRequest{MountID: resp.MountID, SessionID: "s1", Cwd: "/work", AgentScope: "agent", SkillToolIdentity: "id-1"})
	if err != nil || step.Outcome != contract.OutcomeInitial || !slices.Equal(publishedNames(step), []string{"pdf-forms"}) {
		t.Errorf("PreStep = %+v, %v; want the initial catalog of the host's skill", step, err)
	}
	if host.Calls(contracttest.CallSnapshot) == 0 {
		t.Error("the host's Snapshot was never called")
	}
}

// TestADiscoveringMountIgnoresASnapshotSentAhead: a host cannot know the
// snapshots of the skills a mount discovers, so a snapshot it sends with a
// step (here an incomplete one, which would hold the catalog back) is
// dropped and the discovered skills are published.
func TestADiscoveringMountIgnoresASnapshotSentAhead(t *testing.T) {
	t.Parallel()
	svc, host, ctx := newService(t), contracttest.NewHost(), context.Background()
	home := t.TempDir()
	d := contract.Discovery{SkillRoots: []string{skillRoot(t, "pdf-forms")}, HomeDir: home}
	resp, err := svc.Configure(ctx, host, contract.ConfigureRequest{Discovery: d.JSON()})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "id-1"}}); err != nil {
		t.Fatal(err)
	}
	step, err := svc.PreStep(ctx, contract.StepRequest{MountID: resp.MountID, SessionID: "s1", Cwd: home, AgentScope: "agent",
		SkillToolIdentity: "id-1", Snapshot: &contract.Snapshot{Complete: false}})
	if err != nil || step.Outcome != contract.OutcomeInitial || !slices.Equal(publishedNames(step), []string{"pdf-forms"}) {
		t.Errorf("PreStep = %+v, %v; want the initial catalog of the discovered skill", step, err)
	}
}

// TestABadSkillRootIsRefusedAtMount: a skill root that is there but
// cannot be one (a file, a FIFO, a device, a symbolic link loop, a link
// to nothing) refuses the mount with a *ConfigError naming the option and
// the path, instead of holding back every root's skills at every step. A
// root that does not exist yet is no error: the other roots' skills are
// published.
func TestABadSkillRootIsRefusedAtMount(t *testing.T) {
	t.Parallel()
	svc, host, ctx := newService(t), contracttest.NewHost(), context.Background()
	good, dir, home := skillRoot(t, "pdf-forms"), t.TempDir(), t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("not a directory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	loop, dangling := filepath.Join(dir, "loop"), filepath.Join(dir, "dangling")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nothing"), dangling); err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{file: "is a regular file", loop: "cannot be read", dangling: "is a symbolic link to nothing"}
	if fifo := filepath.Join(dir, "fifo"); mkfifo(fifo) == nil {
		bad[fifo] = "is a named pipe"
	}
	if fi, err := os.Stat(os.DevNull); err == nil && fi.Mode()&os.ModeDevice != 0 {
		bad[os.DevNull] = "is a device"
	}
	for root, why := range bad {
		d := contract.Discovery{SkillRoots: []string{good, root}, HomeDir: home}
		_, err := svc.Configure(ctx, host, contract.ConfigureRequest{Discovery: d.JSON()})
		var cerr *contract.ConfigError
		if want := fmt.Sprintf("discovery option skillRoots[1] %q %s", root, why); !errors.As(err, &cerr) || !strings.Contains(err.Error(), want) {
			t.Errorf("a root at %s: Configure = %v, want a *ConfigError containing %q", root, err, want)
		}
	}
	d := contract.Discovery{SkillRoots: []string{good, filepath.Join(dir, "not-yet")}, HomeDir: home}
	resp, err := svc.Configure(ctx, host, contract.ConfigureRequest{Discovery: d.JSON()})
	if err != nil {
		t.Fatalf("a root that does not exist yet: %v", err)
	}
	if err := svc.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "id-1"}}); err != nil {
		t.Fatal(err)
	}
	step, err := svc.PreStep(ctx, contract.StepRequest{MountID: resp.MountID, SessionID: "s1", Cwd: home, AgentScope: "agent", SkillToolIdentity: "id-1"})
	if err != nil || step.Outcome != contract.OutcomeInitial || !slices.Equal(publishedNames(step), []string{"pdf-forms"}) {
		t.Errorf("PreStep = %+v, %v; want the initial catalog of the good root's skill", step, err)
	}
}
