package mcpskills

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/skillcatalog/skillcatalog/skill"
)

// Defaults for the zero values of the bounds in Options.
const (
	DefaultLabel               = "mcp"
	DefaultRequestTimeout      = 30 * time.Second
	DefaultMaxEntries          = 1000
	DefaultMaxDescriptionBytes = 1024
	DefaultMaxIndexBytes       = 1 << 20
	DefaultIndexMaxAge         = 30 * time.Second
	DefaultCacheMaxResources   = 100
	DefaultCacheMaxBytes       = 8 << 20
	DefaultCacheTotalBytes     = 128 << 20
	DefaultPinnedMaxBytes      = 32 << 20
	DefaultMaxListingBytes     = 64 << 20
)

// Options configures a Provider ([New]). Exactly one of Command (stdio) or
// URL (streamable HTTP) must be set. A zero bound selects its default; a
// negative or out-of-range bound is a configuration error that names the
// option.
//
// A Provider's configuration is fixed: to rotate a credential or point at
// another server, create a new Provider. Cached views are keyed by a hash of
// the whole connection configuration, so nothing read under the old
// configuration is served under the new one.
type Options struct {
	// Command is the server program and its arguments, started by the host
	// and spoken to over stdin/stdout. The server's stderr goes to Stderr.
	Command []string
	// Stderr receives the standard error of the Command server, as the
	// server writes it; nil discards it. It is the host's to route: a
	// server may write credentials there. Only with Command.
	Stderr io.Writer
	// Env is added to the host's environment for Command ("KEY=value").
	// Values are treated as secrets: they never appear in errors.
	Env []string

	// URL is the streamable HTTP endpoint of the server (http or https).
	URL string
	// Headers are sent with every request to URL's origin (never to another
	// host), typically Authorization. Values are treated as secrets: they
	// never appear in errors.
	Headers map[string]string

	// Label is the name the host assigns to the server: the Provider and
	// Origin of every skill this provider offers, the first part of their
	// qualified names (label:path), and the server named in errors. It is
	// never taken from the server (its serverInfo.name). It must be a
	// skill-name-shaped label (skill.ValidLabel: lower-case letters, digits
	// and single hyphens, at most 64 bytes). Default "mcp"; a host with
	// several servers gives each its own.
	Label string

	// SkillURIs are SKILL.md URIs of skills the host wants offered even
	// when the server's skills/list leaves them out (a listing may be
	// partial): each one the listing lacks is fetched with skills/get at
	// every listing and offered like a listed skill. They apply only to
	// servers that declare the MCP Skills extension. Each is
	// "<scheme>://<skill-path>/SKILL.md" without query or fragment, at most
	// 2048 bytes; at most 1000 of them, no repeats.
	SkillURIs []string

	// RequestTimeout bounds each MCP request (and connecting). Default 30s.
	RequestTimeout time.Duration

	// MaxEntries bounds the skills taken from the index, or from the
	// entries of skills/list and skills/get; entries beyond it are dropped
	// with a diagnostic. Default 1000, at most 100000.
	MaxEntries int
	// MaxListingBytes bounds the bytes of the entries of one skills/list
	// walk (their JSON as received); entries beyond it are dropped with a
	// diagnostic. Default 64 MiB, between 1 KiB and 1 GiB.
	MaxListingBytes int64
	// MaxDescriptionBytes bounds a description after whitespace
	// normalization; longer descriptions are truncated at a character
	// boundary with a diagnostic. Default 1024, between 16 and 65536.
	MaxDescriptionBytes int
	// MaxIndexBytes bounds the index document; a larger index is malformed
	// and makes the listing incomplete. Default 1 MiB, between 1 KiB and
	// 16 MiB.
	MaxIndexBytes int

	// IndexMaxAge is how long a session reuses its copy of the index before
	// List reads it again, so remote catalog changes surface at a later
	// step. The provider also schedules an invalidation when a copy it
	// listed from reaches this age, so registries that cache snapshots ask
	// again. Default 30s, at most 24h.
	IndexMaxAge time.Duration

	// CacheMaxResources bounds the resources cached per session (the
	// session's index copy included). Default 100, at most 100000.
	CacheMaxResources int
	// CacheMaxBytes bounds the bytes cached per session. A resource larger
	// than this is served but not cached. Default 8 MiB, at most 1 GiB.
	CacheMaxBytes int64
	// CacheTotalBytes bounds the bytes cached by all sessions of the
	// Provider together, so that many sessions cannot add up to an
	// unbounded amount: past it, the least recently used copies of any
	// session are dropped (see the package documentation for what a
	// session then reads again). Default 128 MiB, between 1 MiB and 64 GiB.
	CacheTotalBytes int64
	// PinnedMaxBytes bounds what sessions keep besides their caches (which
	// CacheTotalBytes bounds): the skills/list listing each session's
	// catalog came from (a listing kept by several sessions counts once,
	// the newest not at all), the entries of the skills it loaded, and its
	// bookkeeping. Past it, the least recently used sessions are released
	// as an ended session is (see the package documentation). Default
	// 32 MiB, between 1 MiB and 16 GiB.
	PinnedMaxBytes int64

	// Logger receives listing failures (warn, with credentials removed),
	// the messages of JSON-RPC errors the server answered a load or a read
	// with, which the load's or read's error leaves out (warn), and the
	// diagnostics of each newly read index (debug); nil discards.
	// It is not part of the connection configuration.
	Logger *slog.Logger
}

// Bounds for configuration options.
const (
	maxMaxEntries          = 100000
	minMaxDescriptionBytes = 16
	maxMaxDescriptionBytes = 65536
	minMaxIndexBytes       = 1 << 10
	maxMaxIndexBytes       = 16 << 20
	maxIndexMaxAge         = 24 * time.Hour
	maxRequestTimeout      = time.Hour
	maxCacheMaxResources   = 100000
	maxCacheMaxBytes       = 1 << 30
	minCacheTotalBytes     = 1 << 20
	maxCacheTotalBytes     = 64 << 30
	minPinnedMaxBytes      = 1 << 20
	maxPinnedMaxBytes      = 16 << 30
	minMaxListingBytes     = 1 << 10
	maxMaxListingBytes     = 1 << 30
	maxSkillURIs           = 1000
)

// reservedHeaders are set by the MCP transport itself.
var reservedHeaders = []string{
	"Accept", "Connection", "Content-Length", "Content-Type", "Host",
	"Last-Event-Id", "Mcp-Protocol-Version", "Mcp-Session-Id", "Transfer-Encoding",
}

func intOption(name string, v *int, def, lo, hi int) error {
	if *v == 0 {
		*v = def
		return nil
	}
	if *v < lo || *v > hi {
		return fmt.Errorf("mcpskills: %s must be between %d and %d (0 selects %d), got %d", name, lo, hi, def, *v)
	}
	return nil
}

func int64Option(name string, v *int64, def, lo, hi int64) error {
	if *v == 0 {
		*v = def
		return nil
	}
	if *v < lo || *v > hi {
		return fmt.Errorf("mcpskills: %s must be between %d and %d (0 selects %d), got %d", name, lo, hi, def, *v)
	}
	return nil
}

func durationOption(name string, v *time.Duration, def, hi time.Duration) error {
	if *v == 0 {
		*v = def
		return nil
	}
	if *v < 0 || *v > hi {
		return fmt.Errorf("mcpskills: %s must be positive and at most %s (0 selects %s), got %s", name, hi, def, *v)
	}
	return nil
}

// normalize validates cfg and fills defaults. It returns a copy.
func (cfg Options) normalize() (Options, error) {
	cfg.Command = slices.Clone(cfg.Command)
	cfg.Env = slices.Clone(cfg.Env)
	hdrs := make(map[string]string, len(cfg.Headers))
	for k, v := range cfg.Headers {
		hdrs[k] = v
	}
	cfg.Headers = hdrs
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}

	if err := cfg.checkEndpoint(); err != nil {
		return cfg, err
	}

	if cfg.Label == "" {
		cfg.Label = DefaultLabel
	}
	if !skill.ValidLabel(cfg.Label) {
		return cfg, fmt.Errorf("mcpskills: Label must be a server label the host assigns: lower-case letters, digits and single hyphens, at most %d bytes (skill.ValidLabel), got %q", skill.MaxNameLength, clip(cfg.Label, 80))
	}
	cfg.SkillURIs = slices.Clone(cfg.SkillURIs)
	if err := checkSkillURIs(cfg.SkillURIs); err != nil {
		return cfg, err
	}
	if err := durationOption("RequestTimeout", &cfg.RequestTimeout, DefaultRequestTimeout, maxRequestTimeout); err != nil {
		return cfg, err
	}
	if err := intOption("MaxEntries", &cfg.MaxEntries, DefaultMaxEntries, 1, maxMaxEntries); err != nil {
		return cfg, err
	}
	if err := int64Option("MaxListingBytes", &cfg.MaxListingBytes, DefaultMaxListingBytes, minMaxListingBytes, maxMaxListingBytes); err != nil {
		return cfg, err
	}
	if err := intOption("MaxDescriptionBytes", &cfg.MaxDescriptionBytes, DefaultMaxDescriptionBytes, minMaxDescriptionBytes, maxMaxDescriptionBytes); err != nil {
		return cfg, err
	}
	if err := intOption("MaxIndexBytes", &cfg.MaxIndexBytes, DefaultMaxIndexBytes, minMaxIndexBytes, maxMaxIndexBytes); err != nil {
		return cfg, err
	}
	if err := durationOption("IndexMaxAge", &cfg.IndexMaxAge, DefaultIndexMaxAge, maxIndexMaxAge); err != nil {
		return cfg, err
	}
	if err := intOption("CacheMaxResources", &cfg.CacheMaxResources, DefaultCacheMaxResources, 1, maxCacheMaxResources); err != nil {
		return cfg, err
	}
	if err := int64Option("CacheMaxBytes", &cfg.CacheMaxBytes, DefaultCacheMaxBytes, 1, maxCacheMaxBytes); err != nil {
		return cfg, err
	}
	if err := int64Option("CacheTotalBytes", &cfg.CacheTotalBytes, DefaultCacheTotalBytes, minCacheTotalBytes, maxCacheTotalBytes); err != nil {
		return cfg, err
	}
	if err := int64Option("PinnedMaxBytes", &cfg.PinnedMaxBytes, DefaultPinnedMaxBytes, minPinnedMaxBytes, maxPinnedMaxBytes); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// checkEndpoint validates Command and its Env, or URL and its Headers.
func (cfg Options) checkEndpoint() error {
	switch {
	case len(cfg.Command) > 0 && cfg.URL != "":
		return errors.New("mcpskills: set exactly one of Command and URL, not both")
	case len(cfg.Command) == 0 && cfg.URL == "":
		return errors.New("mcpskills: set exactly one of Command and URL")
	case len(cfg.Command) > 0:
		if cfg.Command[0] == "" {
			return errors.New("mcpskills: Command[0] must name a program")
		}
		if len(cfg.Headers) > 0 {
			return errors.New("mcpskills: Headers apply only to URL, not Command")
		}
		for i, kv := range cfg.Env {
			if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
				return fmt.Errorf("mcpskills: Env[%d] must have the form KEY=value", i)
			}
		}
	default:
		if len(cfg.Env) > 0 {
			return errors.New("mcpskills: Env applies only to Command, not URL")
		}
		if cfg.Stderr != nil {
			return errors.New("mcpskills: Stderr applies only to Command, not URL")
		}
		u, err := url.Parse(cfg.URL)
		// The parse error would quote the URL, which may hold credentials.
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
			return errors.New("mcpskills: URL must be an absolute http or https URL without a fragment")
		}
		for k, v := range cfg.Headers {
			if !validHeaderName(k) {
				return fmt.Errorf("mcpskills: Headers: invalid header name %q", clip(k, 64))
			}
			if slices.ContainsFunc(reservedHeaders, func(r string) bool { return strings.EqualFold(r, k) }) {
				return fmt.Errorf("mcpskills: Headers: %s is set by the transport and cannot be configured", k)
			}
			if !validHeaderValue(v) {
				// Never quote the value: it is a credential.
				return fmt.Errorf("mcpskills: Headers: the value of %s contains a control character", k)
			}
		}
	}
	return nil
}

// checkSkillURIs validates Options.SkillURIs.
func checkSkillURIs(uris []string) error {
	if len(uris) > maxSkillURIs {
		return fmt.Errorf("mcpskills: SkillURIs holds %d URIs, more than %d", len(uris), maxSkillURIs)
	}
	seen := make(map[string]bool, len(uris))
	for i, u := range uris {
		if _, why := parseSkillURI(u); why != "" {
			return fmt.Errorf("mcpskills: SkillURIs[%d] must be the URI of a SKILL.md (\"<scheme>://<skill-path>/SKILL.md\", without query or fragment, at most %d bytes): %s", i, maxSkillURIBytes, why)
		}
		if seen[u] {
			return fmt.Errorf("mcpskills: SkillURIs[%d] repeats %q", i, clip(u, 128))
		}
		seen[u] = true
	}
	return nil
}

// connectionHash identifies the whole connection configuration (endpoint,
// command, environment, headers). It keys cached reads.
func (cfg Options) connectionHash() string {
	h := sha256.New()
	field := func(s string) {
		// Length-prefixed so that field boundaries cannot be forged.
		fmt.Fprintf(h, "%d:%s;", len(s), s)
	}
	field("url")
	field(cfg.URL)
	field("command")
	for _, a := range cfg.Command {
		field(a)
	}
	field("env")
	for _, e := range cfg.Env {
		field(e)
	}
	field("headers")
	keys := make([]string, 0, len(cfg.Headers))
	for k := range cfg.Headers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		field(k)
		field(cfg.Headers[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// secrets returns the strings that must never appear in an error: header
// values (and their words, so "Bearer x" also hides x), environment values,
// and the URL's userinfo and query values.
func (cfg Options) secrets() []string {
	var out []string
	add := func(s string) {
		if len(s) < 4 {
			// Too short to redact without mangling ordinary text; such a value
			// is no credential.
			return
		}
		out = append(out, s, url.QueryEscape(s), url.PathEscape(s))
	}
	for _, v := range cfg.Headers {
		add(v)
		for _, w := range strings.Fields(v) {
			add(w)
		}
	}
	for _, kv := range cfg.Env {
		_, v, _ := strings.Cut(kv, "=")
		add(v)
	}
	if u, err := url.Parse(cfg.URL); err == nil && cfg.URL != "" {
		if u.User != nil {
			add(u.User.String())
			add(u.User.Username())
			if pw, ok := u.User.Password(); ok {
				add(pw)
			}
		}
		if u.RawQuery != "" {
			add(u.RawQuery)
			for _, vs := range u.Query() {
				for _, v := range vs {
					add(v)
				}
			}
		}
	}
	// Longest first, so that a secret containing another is hidden whole.
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// endpointLabel is the URL without userinfo, query or fragment: safe to show.
func (cfg Options) endpointLabel() string {
	if cfg.URL == "" {
		return cfg.Command[0]
	}
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return "server"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
