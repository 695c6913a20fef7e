package mcpskills

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestOptionsValidation(t *testing.T) {
	url := "http://127.0.0.1:1/mcp"
	for _, tc := range []struct {
		name string
		cfg  Options
		want string // substring of the error
	}{
		{"nothing", Options{}, "exactly one of Command and URL"},
		{"both", Options{URL: url, Command: []string{"x"}}, "not both"},
		{"empty program", Options{Command: []string{""}}, "Command[0]"},
		{"headers with command", Options{Command: []string{"x"}, Headers: map[string]string{"A": "b"}}, "Headers apply only to URL"},
		{"env with url", Options{URL: url, Env: []string{"A=b"}}, "Env applies only to Command"},
		{"stderr with url", Options{URL: url, Stderr: io.Discard}, "Stderr applies only to Command"},
		{"bad env", Options{Command: []string{"x"}, Env: []string{"novalue"}}, "Env[0]"},
		{"relative url", Options{URL: "/mcp"}, "URL must be"},
		{"ftp url", Options{URL: "ftp://host/mcp"}, "URL must be"},
		{"fragment", Options{URL: url + "#x"}, "URL must be"},
		{"bad header name", Options{URL: url, Headers: map[string]string{"Bad Name": "v"}}, "invalid header name"},
		{"reserved header", Options{URL: url, Headers: map[string]string{"mcp-session-id": "v"}}, "set by the transport"},
		{"header value newline", Options{URL: url, Headers: map[string]string{"Authorization": "Bearer x\r\nInjected: y"}}, "control character"},
		{"negative timeout", Options{URL: url, RequestTimeout: -time.Second}, "RequestTimeout"},
		{"huge timeout", Options{URL: url, RequestTimeout: 2 * time.Hour}, "RequestTimeout"},
		{"negative entries", Options{URL: url, MaxEntries: -1}, "MaxEntries must be between 1 and 100000"},
		{"too many entries", Options{URL: url, MaxEntries: 100001}, "MaxEntries"},
		{"tiny description", Options{URL: url, MaxDescriptionBytes: 3}, "MaxDescriptionBytes must be between 16 and 65536"},
		{"tiny index", Options{URL: url, MaxIndexBytes: 10}, "MaxIndexBytes must be between 1024"},
		{"huge index", Options{URL: url, MaxIndexBytes: 17 << 20}, "MaxIndexBytes"},
		{"negative age", Options{URL: url, IndexMaxAge: -1}, "IndexMaxAge"},
		{"negative resources", Options{URL: url, CacheMaxResources: -5}, "CacheMaxResources"},
		{"negative bytes", Options{URL: url, CacheMaxBytes: -5}, "CacheMaxBytes"},
		{"huge bytes", Options{URL: url, CacheMaxBytes: 2 << 30}, "CacheMaxBytes"},
		{"negative total", Options{URL: url, CacheTotalBytes: -1}, "CacheTotalBytes must be between 1048576 and 68719476736 (0 selects 134217728), got -1"},
		{"tiny total", Options{URL: url, CacheTotalBytes: 1<<20 - 1}, "CacheTotalBytes must be between 1048576 and 68719476736"},
		{"huge total", Options{URL: url, CacheTotalBytes: 64<<30 + 1}, "CacheTotalBytes must be between 1048576 and 68719476736"},
		{"tiny pinned", Options{URL: url, PinnedMaxBytes: 1<<20 - 1}, "PinnedMaxBytes must be between 1048576 and 17179869184 (0 selects 33554432), got 1048575"},
		{"huge pinned", Options{URL: url, PinnedMaxBytes: 16<<30 + 1}, "PinnedMaxBytes must be between 1048576 and 17179869184"},
		{"label with a colon", Options{URL: url, Label: "docs:x"}, `Label must be a server label the host assigns: lower-case letters, digits and single hyphens, at most 64 bytes (skill.ValidLabel), got "docs:x"`},
		{"upper-case label", Options{URL: url, Label: "Docs"}, `(skill.ValidLabel), got "Docs"`},
		{"label with a slash", Options{URL: url, Label: "a/b"}, `(skill.ValidLabel), got "a/b"`},
		{"long label", Options{URL: url, Label: strings.Repeat("a", 65)}, "Label must be a server label"},
		{"tiny listing", Options{URL: url, MaxListingBytes: 10}, "MaxListingBytes must be between 1024 and 1073741824 (0 selects 67108864), got 10"},
		{"skill URI without SKILL.md", Options{URL: url, SkillURIs: []string{"skill://x/README.md"}}, `SkillURIs[0] must be the URI of a SKILL.md ("<scheme>://<skill-path>/SKILL.md", without query or fragment, at most 2048 bytes): uri "skill://x/README.md" is not the URI of a SKILL.md: it does not end in /SKILL.md`},
		{"skill URI with a query", Options{URL: url, SkillURIs: []string{"skill://a/SKILL.md", "skill://x/SKILL.md?x"}}, "SkillURIs[1] must be the URI of a SKILL.md"},
		{"repeated skill URI", Options{URL: url, SkillURIs: []string{"skill://x/SKILL.md", "skill://x/SKILL.md"}}, `SkillURIs[1] repeats "skill://x/SKILL.md"`},
		{"too many skill URIs", Options{URL: url, SkillURIs: make([]string, 1001)}, "SkillURIs holds 1001 URIs, more than 1000"},
	} {
		_, err := New(&tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: New = %v, want an error containing %q", tc.name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "Injected") {
			t.Errorf("%s: error quotes a header value: %v", tc.name, err)
		}
	}
	// The server is required: nil options are refused, naming Command and URL.
	if _, err := New(nil); err == nil || !strings.Contains(err.Error(), "exactly one of Command and URL") {
		t.Errorf("New(nil) = %v, want an error naming Command and URL", err)
	}
}

func TestOptionsDefaults(t *testing.T) {
	cfg, err := Options{URL: "http://127.0.0.1:1/mcp"}.normalize()
	if err != nil {
		t.Fatal(err)
	}
	want := Options{
		URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{}, Label: "mcp",
		RequestTimeout: 30 * time.Second, MaxEntries: 1000, MaxDescriptionBytes: 1024,
		MaxIndexBytes: 1 << 20, IndexMaxAge: 30 * time.Second, CacheMaxResources: 100, CacheMaxBytes: 8 << 20,
		CacheTotalBytes: 128 << 20,
	}
	if cfg.Label != want.Label || cfg.RequestTimeout != want.RequestTimeout || cfg.MaxEntries != want.MaxEntries ||
		cfg.MaxDescriptionBytes != want.MaxDescriptionBytes || cfg.MaxIndexBytes != want.MaxIndexBytes ||
		cfg.IndexMaxAge != want.IndexMaxAge || cfg.CacheMaxResources != want.CacheMaxResources || cfg.CacheMaxBytes != want.CacheMaxBytes ||
		cfg.CacheTotalBytes != want.CacheTotalBytes || cfg.MaxListingBytes != 64<<20 || cfg.PinnedMaxBytes != 32<<20 {
		t.Errorf("defaults = %+v, want %+v", cfg, want)
	}
}

func TestConnectionHash(t *testing.T) {
	base := Options{URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": "Bearer one"}}
	rotated := Options{URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": "Bearer two"}}
	other := Options{URL: "http://127.0.0.1:2/mcp", Headers: map[string]string{"Authorization": "Bearer one"}}
	cmdA := Options{Command: []string{"a", "b c"}}
	cmdB := Options{Command: []string{"a b", "c"}}
	if base.connectionHash() != base.connectionHash() {
		t.Error("hash is not deterministic")
	}
	for _, c := range []Options{rotated, other} {
		if c.connectionHash() == base.connectionHash() {
			t.Errorf("config %+v hashes like %+v", c, base)
		}
	}
	if cmdA.connectionHash() == cmdB.connectionHash() {
		t.Error("argument boundaries do not change the hash")
	}
}

func TestSanitizer(t *testing.T) {
	cfg := Options{
		URL:     "http://user:pw-secret-1@127.0.0.1:1/mcp?token=query-secret-2",
		Headers: map[string]string{"Authorization": "Bearer header-secret-3", "X-Api-Key": "key-secret-4"},
	}
	s := sanitizer{secrets: cfg.secrets()}
	msg := "failed: Post \"http://user:pw-secret-1@127.0.0.1:1/mcp?token=query-secret-2\": " +
		"server said header-secret-3 and Bearer header-secret-3 and key-secret-4 and query-secret-2\nline two " +
		strings.Repeat("é", 400)
	got := s.wrap("listing", errString(msg)).Error()
	for _, sec := range []string{"pw-secret-1", "query-secret-2", "header-secret-3", "key-secret-4"} {
		if strings.Contains(got, sec) {
			t.Errorf("error contains %q: %s", sec, got)
		}
	}
	if len(got) > MaxErrorBytes || strings.Contains(got, "\n") || !strings.HasPrefix(got, "mcpskills: listing: ") {
		t.Errorf("error not bounded to one line of %d bytes: %d bytes %q", MaxErrorBytes, len(got), got)
	}
}

type errString string

func (e errString) Error() string { return string(e) }
