package mcpskills

import (
	"net/url"
	"path"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

func TestValidateChildURI(t *testing.T) {
	accepted := []string{
		"skill://deploy/SKILL.md",
		"skill://deploy/references/deploy.md",
		"skill://deploy/scripts/run-1_a.~b",
		"skill://deploy/a%20b.md",
		"skill://deploy/%E2%9C%93.md",
		"skill://deploy/a%3Fb%23c",
		"skill://deploy/.hidden",
		"skill://deploy/...",
	}
	for _, uri := range accepted {
		if err := ValidateChildURI("deploy", uri); err != nil {
			t.Errorf("ValidateChildURI(deploy, %q) = %v, want nil", uri, err)
		}
		checkAcceptedChildURI(t, "deploy", uri)
	}
	hostile := []string{
		"skill://other/SKILL.md",
		"skill://deploy-x/SKILL.md",
		"skill://deplo/SKILL.md",
		"skill://DEPLOY/SKILL.md",
		"skill://deploy/../other/SKILL.md",
		"skill://deploy/./SKILL.md",
		"skill://deploy/..",
		"skill://deploy/a/..",
		"skill://deploy/%2e%2e/other/SKILL.md",
		"skill://deploy/%2E%2E/other/SKILL.md",
		"skill://deploy/.%2E/other",
		"skill://deploy/%2E",
		"skill://deploy/a%2fb",
		"skill://deploy/a%2Fb",
		"skill://deploy/a%5Cb",
		"skill://deploy%2Fother/SKILL.md",
		"skill://deploy/a\\b",
		"skill://deploy/..\\other",
		"skill://deploy/a//b",
		"skill://deploy//etc/passwd",
		"skill://deploy/",
		"skill://deploy",
		"skill://deploy/a/",
		"skill://deploy/SKILL.md?x=1",
		"skill://deploy/SKILL.md?",
		"skill://deploy/SKILL.md#frag",
		"file:///etc/passwd",
		"https://deploy/SKILL.md",
		"SKILL://deploy/SKILL.md",
		"Skill://deploy/SKILL.md",
		"skill:deploy/SKILL.md",
		"skill:/deploy/SKILL.md",
		"skill:///deploy/SKILL.md",
		"skill://user@deploy/SKILL.md",
		"skill://deploy@other/SKILL.md",
		"skill://deploy:80/SKILL.md",
		"/deploy/SKILL.md",
		"deploy/SKILL.md",
		"../deploy/SKILL.md",
		" skill://deploy/SKILL.md",
		"skill://deploy/SKILL.md ",
		"skill://deploy/a b",
		"skill://deploy/a%00b",
		"skill://deploy/a%0Ab",
		"skill://deploy/a%7F",
		"skill://deploy/%zz",
		"skill://deploy/%4",
		"skill://deploy/%",
		"skill://deploy/%41",
		"skill://deploy/%e2%9c%93",
		"skill://deploy/%FF",
		"skill://deploy/%C3",
		"skill://deploy/a;b",
		"skill://deploy/a\x00b",
		"skill://deploy/a\nb",
		"skill://deploy/" + strings.Repeat("a", skillsext.MaxURIBytes),
		"",
	}
	for _, uri := range hostile {
		if err := ValidateChildURI("deploy", uri); err == nil {
			t.Errorf("ValidateChildURI(deploy, %q) = nil, want an error", uri)
		}
	}
	for _, name := range []string{"", "../x", "Deploy", "a--b", "-a", "a-", strings.Repeat("a", 65)} {
		if err := ValidateChildURI(name, "skill://"+name+"/SKILL.md"); err == nil {
			t.Errorf("ValidateChildURI(%q, ...) = nil, want an error for the name", name)
		}
	}
}

// checkAcceptedChildURI asserts the properties of an accepted URI: it parses
// back to the same package, with no query, fragment, userinfo or port, and its
// decoded path has no dot or empty segments and no backslash.
func checkAcceptedChildURI(t *testing.T, name, uri string) {
	t.Helper()
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatalf("accepted %q does not parse: %v", uri, err)
	}
	if u.Scheme != "skill" || u.Host != name || u.User != nil || u.Port() != "" ||
		u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Opaque != "" {
		t.Fatalf("accepted %q parses to another place: %#v", uri, u)
	}
	if !strings.HasPrefix(u.Path, "/") || path.Clean(u.Path) != u.Path || strings.Contains(u.Path, "\\") {
		t.Fatalf("accepted %q has a non-canonical path %q", uri, u.Path)
	}
	for _, seg := range strings.Split(u.Path[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			t.Fatalf("accepted %q has segment %q", uri, seg)
		}
	}
}

func FuzzValidateChildURI(f *testing.F) {
	f.Add("deploy", "skill://deploy/SKILL.md")
	f.Add("deploy", "skill://deploy/references/a%20b.md")
	f.Add("deploy", "skill://deploy/%2e%2e/x")
	f.Add("deploy", "skill://other/SKILL.md")
	f.Add("a-b", "skill://a-b/x?y#z")
	f.Fuzz(func(t *testing.T, name, uri string) {
		if err := ValidateChildURI(name, uri); err != nil {
			if len(err.Error()) > MaxErrorBytes {
				t.Fatalf("error too long: %d bytes", len(err.Error()))
			}
			return
		}
		if !skill.ValidBoundedName(name) {
			t.Fatalf("accepted %q for invalid name %q", uri, name)
		}
		checkAcceptedChildURI(t, name, uri)
	})
}
