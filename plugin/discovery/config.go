package discovery

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

// Bounds of a discovery configuration. A configuration past one is refused
// with a *contract.ConfigError naming the option and the bound.
const (
	// MaxConfigBytes bounds the JSON of one discovery configuration.
	MaxConfigBytes = 64 << 10
	// MaxSkillRoots bounds Discovery.SkillRoots.
	MaxSkillRoots = 64
	// MaxTrustedProjects bounds Discovery.TrustedProjects.
	MaxTrustedProjects = 64
	// MaxServers bounds Discovery.MCPServers.
	MaxServers = 16
	// MaxWebsites bounds Discovery.Websites.
	MaxWebsites = 16
	// MaxHeaders bounds the headers of one server.
	MaxHeaders = 32
	// MaxHeaderValueBytes bounds one header value.
	MaxHeaderValueBytes = 8 << 10
	// MaxPathBytes bounds every path and URL of a configuration.
	MaxPathBytes = 4096
	// MaxConfigurations bounds the distinct discovery configurations one
	// plugin process serves at a time: mounts with the same configuration
	// share one set of providers (one file watcher, one connection per
	// server), so this bounds the watchers and connections too.
	MaxConfigurations = 16
	// MaxRequestTimeoutMs bounds DiscoveryServer.RequestTimeoutMs: an hour.
	MaxRequestTimeoutMs = 3_600_000
	// MaxIndexMaxAgeMs bounds DiscoveryServer.IndexMaxAgeMs: a day.
	MaxIndexMaxAgeMs = 86_400_000
)

// PresetAgentSkills names the Agent Skills layout (.agents/skills), which is
// always scanned; naming it in Discovery.Presets changes nothing.
const PresetAgentSkills = "agent-skills"

// The keys of a discovery configuration and of one of its servers.
var (
	configKeys  = []string{"homeDir", "honourDirectives", "lockFile", "mcpServers", "presets", "skillRoots", "trustProjects", "trustedProjects", "unlocked", "websites"}
	serverKeys  = []string{"allowHttp", "availability", "headers", "indexMaxAgeMs", "label", "rank", "requestTimeoutMs", "skillUris", "trustDirectives", "url"}
	websiteKeys = []string{"allowHttp", "availability", "label", "rank", "requestTimeoutMs", "requireDigests", "trustDirectives", "url"}
	// processKeys would start a program: refused, not unknown.
	processKeys = []string{"args", "command", "env"}
)

// Parse reads and checks a discovery configuration, the JSON object of a
// ConfigureRequest's Discovery (the form of contract.Discovery.JSON, or a
// host's own). Unknown keys, wrong types and values past a bound are
// errors that name the option and the bound.
func Parse(raw string) (contract.Discovery, error) {
	var d contract.Discovery
	if len(raw) > MaxConfigBytes {
		return d, fmt.Errorf("the discovery configuration is %d bytes, more than the %d (64 KiB) it may be", len(raw), MaxConfigBytes)
	}
	obj, err := object("discovery", []byte(raw), configKeys, nil)
	if err != nil {
		return d, err
	}
	fields := []struct {
		key string
		dst any
	}{
		{"skillRoots", &d.SkillRoots}, {"presets", &d.Presets}, {"homeDir", &d.HomeDir},
		{"trustProjects", &d.TrustProjects}, {"trustedProjects", &d.TrustedProjects}, {"honourDirectives", &d.HonourDirectives},
		{"lockFile", &d.LockFile}, {"unlocked", &d.Unlocked},
	}
	for _, f := range fields {
		if err := decode(f.key, obj[f.key], f.dst); err != nil {
			return d, err
		}
	}
	if v, ok := obj["mcpServers"]; ok {
		if d.MCPServers, err = parseServers(v); err != nil {
			return d, err
		}
	}
	if v, ok := obj["websites"]; ok {
		if d.Websites, err = parseWebsites(v); err != nil {
			return d, err
		}
	}
	return d, check(d)
}

// object decodes raw as one JSON object whose keys are among known; a key
// among refused is refused with why.
func object(name string, raw []byte, known, refused []string) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&obj); err != nil || obj == nil || dec.More() {
		return nil, fmt.Errorf("%s must be a single JSON object", name)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch {
		case slices.Contains(refused, k):
			return nil, fmt.Errorf("%s.%s: the plugin starts no programs, so it reaches MCP servers over HTTP only: "+
				"serve this one over streamable HTTP (url), or leave it to the host, which then serves its own snapshots", name, k)
		case !slices.Contains(known, k):
			return nil, fmt.Errorf("%s has an unknown option %q (known options: %s)", name, k, strings.Join(known, ", "))
		}
	}
	return obj, nil
}

// decode decodes v, when present and not null, into dst, naming the option
// and the type it wants when it cannot.
func decode(name string, v json.RawMessage, dst any) error {
	if v == nil || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		want := map[string]string{"[]string": "an array of strings", "string": "a string", "bool": "true or false",
			"int": "an integer", "map[string]string": "an object of strings"}[strings.TrimPrefix(fmt.Sprintf("%T", dst), "*")]
		return fmt.Errorf("discovery option %s must be %s, got %s", name, want, clip(string(bytes.TrimSpace(v)), 64))
	}
	return nil
}

// parseServers reads the mcpServers array.
func parseServers(v json.RawMessage) ([]contract.DiscoveryServer, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return nil, fmt.Errorf("discovery option mcpServers must be an array of objects, got %s", clip(string(bytes.TrimSpace(v)), 64))
	}
	if len(items) > MaxServers {
		return nil, fmt.Errorf("discovery option mcpServers lists %d servers, more than the %d it may (MaxServers)", len(items), MaxServers)
	}
	out := make([]contract.DiscoveryServer, len(items))
	for i, item := range items {
		name := fmt.Sprintf("mcpServers[%d]", i)
		obj, err := object(name, item, serverKeys, processKeys)
		if err != nil {
			return nil, err
		}
		s := &out[i]
		fields := []struct {
			key string
			dst any
		}{
			{"url", &s.URL}, {"headers", &s.Headers}, {"label", &s.Label}, {"rank", &s.Rank}, {"availability", &s.Availability},
			{"allowHttp", &s.AllowHTTP}, {"skillUris", &s.SkillURIs}, {"requestTimeoutMs", &s.RequestTimeoutMs}, {"indexMaxAgeMs", &s.IndexMaxAgeMs},
			{"trustDirectives", &s.TrustDirectives},
		}
		for _, f := range fields {
			if err := decode(name+"."+f.key, obj[f.key], f.dst); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// parseWebsites reads the websites array.
func parseWebsites(v json.RawMessage) ([]contract.DiscoveryWebsite, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return nil, fmt.Errorf("discovery option websites must be an array of objects, got %s", clip(string(bytes.TrimSpace(v)), 64))
	}
	if len(items) > MaxWebsites {
		return nil, fmt.Errorf("discovery option websites lists %d websites, more than the %d it may (MaxWebsites)", len(items), MaxWebsites)
	}
	out := make([]contract.DiscoveryWebsite, len(items))
	for i, item := range items {
		name := fmt.Sprintf("websites[%d]", i)
		obj, err := object(name, item, websiteKeys, nil)
		if err != nil {
			return nil, err
		}
		w := &out[i]
		fields := []struct {
			key string
			dst any
		}{
			{"url", &w.URL}, {"label", &w.Label}, {"rank", &w.Rank}, {"availability", &w.Availability}, {"allowHttp", &w.AllowHTTP},
			{"requireDigests", &w.RequireDigests}, {"requestTimeoutMs", &w.RequestTimeoutMs}, {"trustDirectives", &w.TrustDirectives},
		}
		for _, f := range fields {
			if err := decode(name+"."+f.key, obj[f.key], f.dst); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// check holds a configuration to its bounds.
func check(d contract.Discovery) error {
	if err := checkPaths("skillRoots", d.SkillRoots, MaxSkillRoots); err != nil {
		return err
	}
	if err := checkPaths("trustedProjects", d.TrustedProjects, MaxTrustedProjects); err != nil {
		return err
	}
	if d.HomeDir != "" {
		if err := checkPath("homeDir", d.HomeDir); err != nil {
			return err
		}
	}
	if d.LockFile != "" {
		if err := checkPath("lockFile", d.LockFile); err != nil {
			return err
		}
	}
	switch d.Unlocked {
	case "", contract.UnlockedLeaveOut, contract.UnlockedAllow:
	default:
		return fmt.Errorf("discovery option unlocked %q is not %q or %q", d.Unlocked, contract.UnlockedLeaveOut, contract.UnlockedAllow)
	}
	if d.Unlocked != "" && d.LockFile == "" {
		return fmt.Errorf("discovery option unlocked needs lockFile: without a lock every skill is allowed")
	}
	if d.TrustProjects && len(d.TrustedProjects) > 0 {
		return fmt.Errorf("discovery options trustProjects and trustedProjects exclude each other: trustProjects trusts every project already")
	}
	if _, err := presets(d.Presets); err != nil {
		return err
	}
	if _, err := skill.ParseDirectiveSet(d.HonourDirectives); err != nil {
		return fmt.Errorf("discovery option honourDirectives: %w", err)
	}
	labels := map[string]string{} // the option that has each label
	for i, s := range d.MCPServers {
		if err := checkServer(fmt.Sprintf("mcpServers[%d]", i), s); err != nil {
			return err
		}
		label := serverLabel(s)
		if first, ok := labels[label]; ok {
			return fmt.Errorf("discovery option mcpServers[%d].label %q is %s's already: each server needs a label of its own", i, label, first)
		}
		labels[label] = fmt.Sprintf("mcpServers[%d]", i)
	}
	for i, w := range d.Websites {
		name := fmt.Sprintf("websites[%d]", i)
		// A website is checked as a server without headers is.
		if err := checkServer(name, contract.DiscoveryServer{URL: w.URL, Label: w.Label, Availability: w.Availability,
			AllowHTTP: w.AllowHTTP, RequestTimeoutMs: w.RequestTimeoutMs}); err != nil {
			return err
		}
		label := websiteLabel(w)
		if first, ok := labels[label]; ok {
			return fmt.Errorf("discovery option %s.label %q is %s's already: each server and website needs a label of its own", name, label, first)
		}
		labels[label] = name
	}
	return nil
}

// checkPaths checks a list of absolute paths and its length.
func checkPaths(name string, paths []string, max int) error {
	if len(paths) > max {
		return fmt.Errorf("discovery option %s lists %d directories, more than the %d it may", name, len(paths), max)
	}
	for i, p := range paths {
		if err := checkPath(fmt.Sprintf("%s[%d]", name, i), p); err != nil {
			return err
		}
	}
	return nil
}

// checkPath checks one absolute path.
func checkPath(name, p string) error {
	switch {
	case len(p) > MaxPathBytes:
		return fmt.Errorf("discovery option %s is %d bytes long, more than the %d a path may be", name, len(p), MaxPathBytes)
	case strings.ContainsRune(p, 0) || !filepath.IsAbs(p):
		return fmt.Errorf("discovery option %s must be an absolute path, got %q", name, clip(p, 128))
	}
	return nil
}

// presets maps the preset names to agentskills presets.
func presets(names []string) ([]agentskills.Preset, error) {
	var out []agentskills.Preset
	for i, n := range names {
		switch p := agentskills.Preset(n); {
		case n == PresetAgentSkills:
		case slices.Contains(agentskills.Presets(), p):
			out = append(out, p)
		default:
			return nil, fmt.Errorf("discovery option presets[%d] is %q; the presets are %q, %q and %q", i, clip(n, 64), PresetAgentSkills, agentskills.PresetClaudeCode, agentskills.PresetCodex)
		}
	}
	return out, nil
}

// checkServer checks one server: where it may be reached, and its bounds.
func checkServer(name string, s contract.DiscoveryServer) error {
	if len(s.URL) > MaxPathBytes {
		return fmt.Errorf("discovery option %s.url is %d bytes long, more than the %d a URL may be", name, len(s.URL), MaxPathBytes)
	}
	u, err := url.Parse(s.URL)
	// The parse error would quote the URL, which may hold credentials.
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("discovery option %s.url must be an absolute https URL (or http to a loopback address)", name)
	}
	if u.Scheme == "http" && !s.AllowHTTP && !loopback(u.Hostname()) {
		return fmt.Errorf("discovery option %s.url is plain http to %s, which is not a loopback address: use https, or set %s.allowHttp", name, clip(u.Hostname(), 64), name)
	}
	if s.Label != "" && !skill.ValidLabel(s.Label) {
		return fmt.Errorf("discovery option %s.label must be lower-case letters, digits and single hyphens, at most %d bytes, got %q", name, skill.MaxNameLength, clip(s.Label, 80))
	}
	if s.Availability != "" && s.Availability != availabilityBestEffort && s.Availability != availabilityStrict {
		return fmt.Errorf("discovery option %s.availability must be %q or %q, got %q", name, availabilityBestEffort, availabilityStrict, clip(s.Availability, 64))
	}
	if len(s.Headers) > MaxHeaders {
		return fmt.Errorf("discovery option %s.headers has %d headers, more than the %d it may", name, len(s.Headers), MaxHeaders)
	}
	for k, v := range s.Headers {
		if len(v) > MaxHeaderValueBytes {
			// Never quote the value: it is a credential.
			return fmt.Errorf("discovery option %s.headers: the value of %s is %d bytes, more than the %d a value may be", name, clip(k, 64), len(v), MaxHeaderValueBytes)
		}
	}
	if s.RequestTimeoutMs < 0 || s.RequestTimeoutMs > MaxRequestTimeoutMs {
		return fmt.Errorf("discovery option %s.requestTimeoutMs must be between 1 and %d (0 selects 30000), got %d", name, MaxRequestTimeoutMs, s.RequestTimeoutMs)
	}
	if s.IndexMaxAgeMs < 0 || s.IndexMaxAgeMs > MaxIndexMaxAgeMs {
		return fmt.Errorf("discovery option %s.indexMaxAgeMs must be between 1 and %d (0 selects 30000), got %d", name, MaxIndexMaxAgeMs, s.IndexMaxAgeMs)
	}
	return nil
}

// The values of DiscoveryServer.Availability.
const (
	availabilityBestEffort = "best-effort"
	availabilityStrict     = "strict"
)

// loopback reports whether host names this machine: localhost, or a
// loopback IP address.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
