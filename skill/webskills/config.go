package webskills

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Defaults for the zero values of Options.
const (
	DefaultLabel               = "web"
	DefaultRequestTimeout      = 30 * time.Second
	DefaultMaxRedirects        = 5
	DefaultMaxIndexBytes       = 1 << 20
	DefaultMaxArtifactBytes    = 16 << 20
	DefaultMaxEntries          = 1000
	DefaultMaxDescriptionBytes = 1024
	DefaultMaxAge              = 5 * time.Minute
	DefaultCacheMaxBytes       = 64 << 20
	DefaultPinnedMaxBytes      = 32 << 20
)

// Fixed bounds: what an archive may unpack to, and how often and how
// seldom the index is read again whatever Cache-Control says.
const (
	// MaxArchiveFiles bounds the entries of an archive (directories
	// included), as the MCP Skills extension bounds a skill's files.
	MaxArchiveFiles = skillsext.MaxSkillResources
	// MaxUnpackedBytes bounds the sum of an archive's file sizes.
	MaxUnpackedBytes = skillsext.MaxSkillBytes
	// MaxCompressionRatio bounds what an archive unpacks to: at most this
	// many times its own size, once past RatioFloorBytes.
	MaxCompressionRatio = 100
	// RatioFloorBytes is what any archive may unpack to whatever its
	// ratio, so that a small skill of repetitive text is not refused.
	RatioFloorBytes = 1 << 20
	// MinRefresh is the shortest interval between two reads of the index,
	// also under Cache-Control: no-cache or max-age=0.
	MinRefresh = time.Second
	// MaxRefresh is the longest time the index is used without asking the
	// site again, also under a longer max-age.
	MaxRefresh = 24 * time.Hour
)

// Bounds of the configuration options.
const (
	maxRequestTimeout      = time.Hour
	maxMaxRedirects        = 20
	minMaxIndexBytes       = 1 << 10
	maxMaxIndexBytes       = 16 << 20
	minMaxArtifactBytes    = 1 << 10
	maxMaxArtifactBytes    = 256 << 20
	maxMaxEntries          = 100000
	minMaxDescriptionBytes = 16
	maxMaxDescriptionBytes = 65536
	minCacheMaxBytes       = 1 << 20
	maxCacheMaxBytes       = 16 << 30
	minPinnedMaxBytes      = 1 << 20
	maxPinnedMaxBytes      = 16 << 30
)

// Options configures a Provider for one website ([New]). URL is required.
// A zero bound selects its default; an out-of-range bound is an error
// naming the option.
type Options struct {
	// URL is the site ("https://example.com", or a site below a path,
	// "https://example.com/docs"), whose index is looked for at
	// <URL>/.well-known/agent-skills/index.json and then at the v0.1.0
	// location <URL>/.well-known/skills/index.json; or the URL of an
	// index itself (a path ending in "/index.json"), read as it is. It
	// must be https, or http when AllowHTTP is set; no userinfo, query or
	// fragment.
	URL string
	// Label is the name the host assigns to the site: the Provider and
	// Origin of every skill this provider offers, the first part of their
	// qualified names (label:name), and the site named in errors. It is
	// never taken from the site. It must be skill-name-shaped
	// (skill.ValidLabel). Default "web"; a host with several sites gives
	// each its own.
	Label string
	// AllowHTTP lets the provider speak plain http to URL's origin (its
	// scheme, host and port) and to nothing else: an artifact or redirect
	// elsewhere must still be https. For a site on the loopback interface
	// or a trusted network.
	AllowHTTP bool
	// RequireDigests refuses indexes without digests (v0.1.0): such a site
	// lists nothing and the listing fails saying why. By default a v0.1.0
	// index is read as the RFC documents for compatibility, unverified.
	RequireDigests bool

	// RequestTimeout bounds each HTTP request, from connecting to the last
	// byte of its body. Default 30s, at most 1h.
	RequestTimeout time.Duration
	// MaxRedirects bounds the redirects one request follows. Default 5,
	// at most 20.
	MaxRedirects int
	// MaxIndexBytes bounds the index document. Default 1 MiB, between
	// 1 KiB and 16 MiB.
	MaxIndexBytes int64
	// MaxArtifactBytes bounds an archive as downloaded (a SKILL.md is
	// bounded by skill.MaxSkillFileBytes). Default 16 MiB, between 1 KiB
	// and 256 MiB.
	MaxArtifactBytes int64
	// MaxEntries bounds the skills taken from the index. Default 1000, at
	// most 100000.
	MaxEntries int
	// MaxDescriptionBytes bounds a description after whitespace
	// normalization. Default 1024, between 16 and 65536.
	MaxDescriptionBytes int
	// DefaultMaxAge is how long the index is used before it is read again
	// when its response says nothing of its freshness (no Cache-Control
	// max-age, no no-cache or no-store). Default 5 minutes, between
	// MinRefresh and MaxRefresh.
	DefaultMaxAge time.Duration
	// CacheMaxBytes bounds the verified artifacts (SKILL.md files and
	// unpacked archives) the provider keeps for this site, least recently
	// used dropped first. Default 64 MiB, between 1 MiB and 16 GiB.
	CacheMaxBytes int64
	// PinnedMaxBytes bounds what sessions keep of the listings their
	// catalogs came from: a listing pinned by several sessions counts
	// once, the newest not at all (the provider keeps it anyway), and each
	// session its bookkeeping. Past it, the least recently used sessions
	// lose their pins, as if they had ended: they load by the newest
	// listing until they list again. Default 32 MiB, between 1 MiB and
	// 16 GiB.
	PinnedMaxBytes int64

	// Logger receives listing failures (warn) and index diagnostics
	// (debug); nil discards.
	Logger *slog.Logger
}

func rangeOption[T int | int64 | time.Duration](name string, v *T, def, lo, hi T) error {
	if *v == 0 {
		*v = def
		return nil
	}
	if *v < lo || *v > hi {
		return fmt.Errorf("webskills: %s must be between %v and %v (0 selects %v), got %v", name, lo, hi, def, *v)
	}
	return nil
}

// normalize validates cfg and fills defaults.
func (cfg Options) normalize() (Options, *url.URL, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Label == "" {
		cfg.Label = DefaultLabel
	}
	if !skill.ValidLabel(cfg.Label) {
		return cfg, nil, fmt.Errorf("webskills: Label must be a site label the host assigns: lower-case letters, digits and single hyphens, at most %d bytes (skill.ValidLabel), got %q", skill.MaxNameLength, skillsext.Clip(cfg.Label, 80))
	}
	site, err := parseSiteURL(cfg.URL, cfg.AllowHTTP)
	if err != nil {
		return cfg, nil, err
	}
	for _, err := range []error{
		rangeOption("RequestTimeout", &cfg.RequestTimeout, DefaultRequestTimeout, time.Millisecond, maxRequestTimeout),
		rangeOption("MaxRedirects", &cfg.MaxRedirects, DefaultMaxRedirects, 1, maxMaxRedirects),
		rangeOption("MaxIndexBytes", &cfg.MaxIndexBytes, DefaultMaxIndexBytes, minMaxIndexBytes, maxMaxIndexBytes),
		rangeOption("MaxArtifactBytes", &cfg.MaxArtifactBytes, DefaultMaxArtifactBytes, minMaxArtifactBytes, maxMaxArtifactBytes),
		rangeOption("MaxEntries", &cfg.MaxEntries, DefaultMaxEntries, 1, maxMaxEntries),
		rangeOption("MaxDescriptionBytes", &cfg.MaxDescriptionBytes, DefaultMaxDescriptionBytes, minMaxDescriptionBytes, maxMaxDescriptionBytes),
		rangeOption("DefaultMaxAge", &cfg.DefaultMaxAge, DefaultMaxAge, MinRefresh, MaxRefresh),
		rangeOption("CacheMaxBytes", &cfg.CacheMaxBytes, DefaultCacheMaxBytes, minCacheMaxBytes, maxCacheMaxBytes),
		rangeOption("PinnedMaxBytes", &cfg.PinnedMaxBytes, DefaultPinnedMaxBytes, minPinnedMaxBytes, maxPinnedMaxBytes),
	} {
		if err != nil {
			return cfg, nil, err
		}
	}
	return cfg, site, nil
}

// parseSiteURL checks Options.URL. The error never quotes the URL whole.
func parseSiteURL(raw string, allowHTTP bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return nil, errors.New("webskills: URL is required: a site (https://example.com) or the URL of its index")
	case err != nil, u.Host == "", u.Opaque != "":
		return nil, errors.New("webskills: URL must be an absolute URL with a host")
	case u.User != nil, u.RawQuery != "", u.ForceQuery, u.Fragment != "":
		return nil, errors.New("webskills: URL must have no userinfo, query or fragment")
	case u.Scheme == "http" && !allowHTTP:
		return nil, errors.New("webskills: URL must be https (plain http only with AllowHTTP)")
	case u.Scheme != "https" && u.Scheme != "http":
		return nil, fmt.Errorf("webskills: URL must be https, not %q", skillsext.Clip(u.Scheme, 16))
	}
	return u, nil
}

// indexCandidates returns the index URLs to try for a site, in order: the
// v0.2.0 location, then the v0.1.0 one; an index URL is its own only
// candidate.
func indexCandidates(site *url.URL) []*url.URL {
	if strings.HasSuffix(site.Path, "/"+skillsext.IndexFileName) {
		u := *site
		return []*url.URL{&u}
	}
	base := strings.TrimSuffix(site.Path, "/")
	out := make([]*url.URL, 0, 2)
	for _, dir := range []string{skillsext.WellKnownDir, skillsext.LegacyWellKnownDir} {
		u := *site
		u.Path, u.RawPath = base+dir+skillsext.IndexFileName, ""
		out = append(out, &u)
	}
	return out
}
