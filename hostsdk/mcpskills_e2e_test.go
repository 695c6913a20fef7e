package hostsdk_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// TestRemoteSkillsThroughThePlugin drives the MCP provider, talking to a real
// MCP server over streamable HTTP on loopback, through the real plugin: the
// remote catalog is published; the server going down keeps the last-good
// catalog; the server back with a skill removed publishes a replacement; a
// malformed index publishes nothing. Attached by default the provider is
// best-effort: while it fails the step is unchanged and says which provider
// is degraded; attached strictly, the step is incomplete.
func TestRemoteSkillsThroughThePlugin(t *testing.T) {
	for _, tc := range []struct {
		availability skills.Availability
		whileDown    hostsdk.Outcome
		reason       contract.ReasonCode
	}{
		{skills.DefaultAvailability, hostsdk.OutcomeUnchanged, contract.ReasonProviderDegraded},
		{skills.Strict, hostsdk.OutcomeIncomplete, contract.ReasonProviderIncomplete},
	} {
		t.Run(tc.availability.String(), func(t *testing.T) {
			remoteSkillsThroughThePlugin(t, tc.availability, tc.whileDown, tc.reason)
		})
	}
}

func remoteSkillsThroughThePlugin(t *testing.T, availability skills.Availability, whileDown hostsdk.Outcome, reason contract.ReasonCode) {
	srv := mcpfake.New()
	srv.SetSkill("alpha", "Remote alpha.", "---\nname: alpha\ndescription: Remote alpha.\n---\nAlpha instructions from the server.")
	srv.SetSkill("beta", "Remote beta.", "Beta instructions.")
	srv.RequireHeader("Authorization", "Bearer s3cret-token")
	httpSrv, err := srv.ListenHTTP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { httpSrv.Stop() })

	e := newEnv(t, hostsdk.Options{})
	remote, err := mcpskills.New(&mcpskills.Options{
		URL:            httpSrv.URL(),
		Headers:        map[string]string{"Authorization": "Bearer s3cret-token"},
		RequestTimeout: 5 * time.Second,
		IndexMaxAge:    time.Nanosecond, // re-read the index at every step
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { remote.Close() })
	e.reg.AddProvider(tools.GlobalScope, remote, &skills.ProviderOptions{Availability: availability})
	e.mount(tools.GlobalScope)

	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeInitial, "alpha", "beta")

	out, err := e.host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"alpha"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if out.IsError || out.Value.Content != "Alpha instructions from the server." || out.Value.ResourceBase == nil || out.Value.ResourceBase.URL != "skill://alpha/" {
		t.Fatalf("remote load = %+v", out)
	}
	if !strings.Contains(out.Text, "untrusted content") || !strings.Contains(out.Text, "Resource base URL: skill://alpha/") {
		t.Errorf("remote guidance missing from:\n%s", out.Text)
	}

	// The server goes down: nothing is published, the last-good catalog
	// stays, and the error never carries the credential.
	if err := httpSrv.Stop(); err != nil {
		t.Fatal(err)
	}
	res := e.step("s1", "agent:a")
	expect(t, res, whileDown)
	if why := reasonsWith(res, reason); len(why) != 1 {
		t.Errorf("reasons %+v, want one %s", res.Reasons, reason)
	}
	for _, d := range append(remote.Diagnostics(), reasonsWith(res, reason)...) {
		if strings.Contains(d, "s3cret") {
			t.Errorf("diagnostic leaks the credential: %s", d)
		}
	}

	// Back, with beta removed: a replacement.
	srv.RemoveSkill("beta")
	if err := httpSrv.Start(); err != nil {
		t.Fatal(err)
	}
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeReplacement, "alpha")

	// A malformed index: nothing.
	srv.SetIndex(`{"skills": "not-a-list"}`)
	expect(t, e.step("s1", "agent:a"), whileDown)
	srv.ClearIndex()
	expect(t, e.step("s1", "agent:a"), hostsdk.OutcomeUnchanged)

	// The body was read once for the session, however often it is loaded.
	for i := 0; i < 2; i++ {
		if _, err := e.host.Session("s1", &hostsdk.SessionOptions{AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"alpha"}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Reads(mcpfake.SkillURI("alpha")); n != 1 {
		t.Errorf("alpha's SKILL.md was read %d times in one session, want 1", n)
	}
}
