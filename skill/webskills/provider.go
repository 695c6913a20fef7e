package webskills

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sync/singleflight"

	"github.com/skillcatalog/skillcatalog/internal/bytelru"
	"github.com/skillcatalog/skillcatalog/internal/pinned"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// maxCachedArtifacts bounds the number of artifacts a provider keeps,
// besides their bytes (Options.CacheMaxBytes).
const maxCachedArtifacts = 4096

// Provider offers the skills of one website. It implements
// skills.Provider, skills.Invalidator, skills.SessionEnder,
// skills.ResourceReader and skills.AvailabilityDeclarer (it is
// best-effort unless attached otherwise). It is safe for concurrent use.
type Provider struct {
	cfg  Options
	site *url.URL
	f    *fetcher
	// ctx ends when the provider closes; shared fetches run under it, so
	// that one caller giving up does not fail the others.
	ctx    context.Context
	cancel context.CancelFunc

	artifacts   *bytelru.Cache[string, *artifact]
	indexFlight singleflight.Group
	fetchFlight singleflight.Group
	// indexReads numbers the index documents read (index.gen).
	indexReads atomic.Uint64

	mu       sync.Mutex
	closed   bool
	cur      *listing
	sessions map[string]*listing
	// pins bounds sessions (Options.PinnedMaxBytes): a session it evicts
	// leaves sessions.
	pins *pinned.Sessions[*index]
	// invalidate tells the registry that the listing may have changed.
	invalidate func()
	timer      *time.Timer
	timerAt    time.Time
	lastErr    string
}

var (
	_ skills.Provider             = (*Provider)(nil)
	_ skills.Invalidator          = (*Provider)(nil)
	_ skills.SessionEnder         = (*Provider)(nil)
	_ skills.ResourceReader       = (*Provider)(nil)
	_ skills.AvailabilityDeclarer = (*Provider)(nil)
)

// listing is one read of the site's index, shared by the sessions that
// listed from it and immutable but for nothing: a refresh makes a new one.
type listing struct {
	ix        *index
	summaries []skill.Summary
	// from is the candidate URL the index was requested at; base its URL
	// after redirects, against which its entries resolved.
	from, base *url.URL
	val        validators
	freshUntil time.Time
	// cost estimates the bytes ix and summaries keep alive.
	cost int
}

// artifact is verified content: a SKILL.md, with an archive's files; or
// a v0.1.0 file, unverified (skillMD holds its bytes).
type artifact struct {
	skillMD []byte
	files   map[string][]byte // nil for a skill-md artifact
	// http says, for a file cached by its URL (a v0.1.0 file, which has no
	// digest), for how long it may be used without asking the site; an
	// artifact cached by its digest is used as long as it is cached.
	http httpCaching
}

// httpCaching is what a response says of its own reuse.
type httpCaching struct {
	val        validators
	freshUntil time.Time
	// indexGen is the newest index (index.gen) the copy was fetched or
	// revalidated under.
	indexGen uint64
}

// fresh reports whether a copy cached by its URL may be used for a
// listing of index gen without asking the site: its Cache-Control
// freshness has not passed, and no newer index than the one it was fetched
// or revalidated under was read since (a changed index may come with a
// changed file).
func (a *artifact) fresh(gen uint64) bool {
	return a.http.indexGen >= gen && time.Now().Before(a.http.freshUntil)
}

// New returns a provider for the site opts names (see [Options]). It reads
// nothing: the first List does. The site is required: opts must set URL,
// so nil is an error naming it.
func New(opts *Options) (*Provider, error) {
	var cfg Options
	if opts != nil {
		cfg = *opts
	}
	cfg, site, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	p := &Provider{
		cfg:       cfg,
		site:      site,
		f:         newFetcher(cfg, site),
		artifacts: bytelru.New[string, *artifact](maxCachedArtifacts, int(min(cfg.CacheMaxBytes, int64(^uint(0)>>1))), 0),
		sessions:  make(map[string]*listing),
	}
	p.pins = pinned.New[*index](int(min(cfg.PinnedMaxBytes, int64(^uint(0)>>1))), func(session string) {
		delete(p.sessions, session)
	})
	p.ctx, p.cancel = context.WithCancel(context.Background())
	return p, nil
}

// Label is the site's label: the Origin and Provider of its skills.
func (p *Provider) Label() string { return p.cfg.Label }

// SetInvalidate implements skills.Invalidator. The provider calls f when
// its listing may have changed: when the index it listed from is no longer
// fresh (Cache-Control), and when an artifact failed verification.
func (p *Provider) SetInvalidate(f func()) {
	p.mu.Lock()
	p.invalidate = f
	p.mu.Unlock()
}

// Availability implements skills.AvailabilityDeclarer: a website is
// best-effort unless the host attaches it with
// &skills.ProviderOptions{Availability: skills.Strict}.
func (p *Provider) Availability() skills.Availability { return skills.BestEffort }

// EndSession implements skills.SessionEnder: the session's pinned listing
// is released.
func (p *Provider) EndSession(sessionID string) {
	p.mu.Lock()
	delete(p.sessions, sessionID)
	if !p.closed {
		p.pins.Drop(sessionID)
	}
	p.mu.Unlock()
}

// Close stops the refresh timer, ends fetches in flight and closes idle
// connections. Later calls return ErrClosed.
func (p *Provider) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
	}
	p.sessions = nil
	p.pins.Reset()
	p.mu.Unlock()
	p.cancel()
	p.f.transport.CloseIdleConnections()
	return nil
}

// Diagnostics describes the newest index (dropped entries, applied bounds)
// and, if the newest listing failed, why.
func (p *Provider) Diagnostics() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	if p.cur != nil {
		out = slices.Clone(p.cur.ix.Diagnostics)
	}
	if p.lastErr != "" {
		out = append(out, p.lastErr)
	}
	return out
}

// List implements skills.Provider: the skills of the site's index, read
// again once the copy it has is no longer fresh (conditionally, with the
// ETag and Last-Modified it came with). A site that cannot be read, or
// serves a malformed index, makes the observation incomplete with an error
// saying why; the next List tries again.
func (p *Provider) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	l, err := p.listing(ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		err = p.siteError("listing skills", err)
		p.lastErr = err.Error()
		if ctx.Err() == nil {
			p.cfg.Logger.Warn("webskills: listing failed; the next listing tries again", "site", p.site.Redacted(), "label", p.cfg.Label, "error", err)
		}
		return skills.Observation{Complete: false}, err
	}
	p.lastErr = ""
	if p.closed {
		return skills.Observation{}, p.siteError("listing skills", ErrClosed)
	}
	p.sessions[req.SessionID] = l
	p.pins.Pin(req.SessionID, l.ix, l.cost)
	p.scheduleLocked(l.freshUntil)
	return skills.Observation{Complete: true, Skills: slices.Clone(l.summaries)}, nil
}

// listing returns a fresh listing, reading the index when the newest is
// stale. Concurrent callers share one read, which runs under the
// provider's context; each waits only as long as its own context allows.
func (p *Provider) listing(ctx context.Context) (*listing, error) {
	p.mu.Lock()
	cur, closed := p.cur, p.closed
	p.mu.Unlock()
	switch {
	case closed:
		return nil, ErrClosed
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case cur != nil && time.Now().Before(cur.freshUntil):
		return cur, nil
	}
	ch := p.indexFlight.DoChan("index", func() (any, error) { return p.refresh(p.ctx) })
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*listing), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// sessionListing is the listing a session's catalog came from, for its
// loads and reads: the one it pinned, or a fresh one when it has none.
func (p *Provider) sessionListing(ctx context.Context, sessionID string) (*listing, error) {
	p.mu.Lock()
	l, closed := p.sessions[sessionID], p.closed
	if l != nil && !closed {
		p.pins.Touch(sessionID)
	}
	p.mu.Unlock()
	switch {
	case closed:
		return nil, ErrClosed
	case l != nil:
		return l, nil
	}
	return p.listing(ctx)
}

// refresh reads the index: the candidate the newest listing came from
// first, conditionally, then the other candidates in order while they
// answer 404 or 410.
func (p *Provider) refresh(ctx context.Context) (*listing, error) {
	p.mu.Lock()
	prev := p.cur
	p.mu.Unlock()
	cands := indexCandidates(p.site)
	if prev != nil {
		cands = slices.DeleteFunc(cands, func(u *url.URL) bool { return u.String() == prev.from.String() })
		cands = append([]*url.URL{prev.from}, cands...)
	}
	var err error
	for _, u := range cands {
		var cond *validators
		if prev != nil && u == prev.from {
			cond = &prev.val
		}
		var l *listing
		l, err = p.readIndex(ctx, u, prev, cond)
		if se := (*statusError)(nil); errors.As(err, &se) && (se.code == http.StatusNotFound || se.code == http.StatusGone) {
			continue
		}
		if err != nil {
			return nil, err
		}
		p.mu.Lock()
		p.cur = l
		if !p.closed {
			p.pins.SetCurrent(l.ix)
		}
		p.mu.Unlock()
		return l, nil
	}
	return nil, err
}

// readIndex reads one candidate index URL into a listing.
func (p *Provider) readIndex(ctx context.Context, u *url.URL, prev *listing, cond *validators) (*listing, error) {
	resp, err := p.f.get(ctx, u, p.cfg.MaxIndexBytes, cond)
	if err != nil {
		return nil, err
	}
	age := p.cfg.DefaultMaxAge
	if resp.hasMaxAge {
		age = resp.maxAge
	}
	fresh := time.Now().Add(min(max(age, MinRefresh), MaxRefresh))
	if resp.notModified {
		l := *prev
		l.freshUntil = fresh
		if resp.validators != (validators{}) {
			l.val = resp.validators
		}
		return &l, nil
	}
	ix, err := parseIndex(resp.body, resp.url, indexLimits{
		MaxEntries:          p.cfg.MaxEntries,
		MaxDescriptionBytes: p.cfg.MaxDescriptionBytes,
		RequireDigests:      p.cfg.RequireDigests,
	})
	if err != nil {
		return nil, err
	}
	ix.gen = p.indexReads.Add(1)
	for _, d := range ix.Diagnostics {
		p.cfg.Logger.Debug("webskills: index diagnostic", "site", p.site.Redacted(), "diagnostic", d)
	}
	l := &listing{ix: ix, summaries: p.summaries(ix), from: u, base: resp.url, val: resp.validators, freshUntil: fresh}
	l.cost = listingCost(l)
	return l, nil
}

// listingCost estimates the bytes a listing's index and summaries keep
// alive: every entry's struct, strings, URL and map slot, and every
// summary's struct and qualified name (its other strings are the entry's
// or the label).
func listingCost(l *listing) int {
	const mapSlot = 64
	n := int(unsafe.Sizeof(index{})) + len(l.summaries)*int(unsafe.Sizeof(skill.Summary{}))
	for _, d := range l.ix.Diagnostics {
		n += len(d) + 16
	}
	for _, e := range l.ix.Entries {
		n += int(unsafe.Sizeof(entry{})) + 8 + mapSlot + len(e.Name) + len(e.Description)
		n += int(unsafe.Sizeof(url.URL{})) + len(e.URL.Scheme) + len(e.URL.Host) + len(e.URL.Path) + len(e.URL.RawPath)
		for _, f := range e.Files {
			n += len(f) + 16
		}
	}
	for _, s := range l.summaries {
		n += len(s.QualifiedName)
	}
	return n
}

func (p *Provider) summaries(ix *index) []skill.Summary {
	out := make([]skill.Summary, 0, len(ix.Entries))
	for _, e := range ix.Entries {
		out = append(out, p.summary(e, skill.DefaultPolicy()))
	}
	return out
}

// summary is a web skill's summary: its plain name, the site's label as
// provider and origin, an origin of a website, and its qualified name.
func (p *Provider) summary(e *entry, pol skill.InvocationPolicy) skill.Summary {
	return skill.Summary{
		Name:          e.Name,
		Description:   e.Description,
		Invocation:    pol,
		Provider:      p.cfg.Label,
		Origin:        p.cfg.Label,
		OriginKind:    skill.OriginWebsite,
		QualifiedName: skill.QualifiedName(p.cfg.Label, e.Name),
	}
}

// stale makes the newest listing stale and tells the registry, so that the
// next List reads the index again: after a verification failure, the
// index may have changed since.
func (p *Provider) stale() {
	p.mu.Lock()
	if p.cur != nil {
		l := *p.cur
		l.freshUntil = time.Time{}
		p.cur = &l
	}
	inv := p.invalidate
	p.mu.Unlock()
	if inv != nil {
		inv()
	}
}

// scheduleLocked makes sure an invalidation happens no later than at,
// when the index just listed from stops being fresh.
func (p *Provider) scheduleLocked(at time.Time) {
	if p.closed || (p.timer != nil && p.timerAt.After(time.Now()) && !p.timerAt.After(at)) {
		return
	}
	if p.timer != nil {
		p.timer.Stop()
	}
	p.timerAt = at
	p.timer = time.AfterFunc(time.Until(at), func() {
		p.mu.Lock()
		inv, closed := p.invalidate, p.closed
		p.mu.Unlock()
		if inv != nil && !closed {
			inv()
		}
	})
}

// plainName returns the index name a load or read names: a plain name, or
// this site's label and a plain name.
func (p *Provider) plainName(name string) (string, bool) {
	if rest, ok := strings.CutPrefix(name, p.cfg.Label+string(skill.QualifierSeparator)); ok {
		name = rest
	}
	return name, skill.ValidBoundedName(name)
}
