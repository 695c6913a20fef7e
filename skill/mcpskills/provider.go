package mcpskills

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/singleflight"

	"github.com/skillcatalog/skillcatalog/internal/pinned"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// ErrUnknownSkill is returned by ReadResource for a skill the session's index
// does not list.
var ErrUnknownSkill = errors.New("mcpskills: skill not offered by the server")

// Provider offers the skills of one MCP server. It implements
// skills.Provider, skills.Invalidator, skills.SessionEnder and
// skills.AvailabilityDeclarer (it is best-effort unless attached otherwise).
// It is safe for concurrent use.
type Provider struct {
	cfg           Options
	connHash      string
	san           sanitizer
	client        *mcp.Client
	transport     transportFunc
	httpTransport *http.Transport
	// connecting admits one connection attempt at a time.
	connecting chan struct{}
	// wg tracks the provider's goroutines, so Close can wait for them.
	wg sync.WaitGroup

	// listFlight shares a skills/list walk among the sessions that need
	// one at the same time.
	listFlight singleflight.Group

	mu       sync.Mutex
	closed   bool
	conn     *conn
	sessions map[string]*view
	// listing is the newest catalog of a server that declares the MCP
	// Skills extension; sessions pin the one they listed from.
	listing listing
	budget  *budget // of every view in sessions
	// pins bounds what the views keep besides their caches
	// (Options.PinnedMaxBytes); a session it evicts is released.
	pins       *pinned.Sessions[*catalog]
	invalidate func()
	// indexGen counts index change notifications; an index read that
	// started under an older generation is stale.
	indexGen uint64
	// changePending is set when a change notification advanced indexGen
	// and told the registry, and no listing began since (see
	// indexChanged).
	changePending bool
	// notifications counts the change notifications the server sent.
	notifications uint64
	timer         *time.Timer
	timerAt       time.Time
	timerSeq      uint64
	diags         []string
	lastErr       string
}

var (
	_ skills.Provider     = (*Provider)(nil)
	_ skills.Invalidator  = (*Provider)(nil)
	_ skills.SessionEnder = (*Provider)(nil)

	_ skills.AvailabilityDeclarer = (*Provider)(nil)
)

// New returns a provider for the server opts describes (see [Options]). It
// does not connect: the first List or Load does. The server is required:
// opts must set Command or URL, so nil is an error naming them.
func New(opts *Options) (*Provider, error) {
	if opts == nil {
		return newProvider(Options{}, nil)
	}
	return newProvider(*opts, nil)
}

func newProvider(cfg Options, t transportFunc) (*Provider, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	p := &Provider{
		cfg:        cfg,
		connHash:   cfg.connectionHash(),
		san:        sanitizer{secrets: cfg.secrets(), log: cfg.Logger, server: cfg.endpointLabel()},
		connecting: make(chan struct{}, 1),
		sessions:   make(map[string]*view),
		budget:     newBudget(cfg.CacheTotalBytes),
		transport:  t,
	}
	p.pins = pinned.New[*catalog](int(min(cfg.PinnedMaxBytes, int64(^uint(0)>>1))), p.releaseLocked)
	if p.transport == nil {
		var httpClient *http.Client
		httpClient, p.httpTransport = newHTTPClient(cfg)
		p.transport = newTransportFunc(cfg, httpClient)
	}
	p.client = mcp.NewClient(&mcp.Implementation{Name: "skillcatalog-mcpskills", Version: "1"}, &mcp.ClientOptions{
		// No roots, sampling or elicitation: this client only reads.
		Capabilities: &mcp.ClientCapabilities{},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			p.notified()
		},
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			if req.Params != nil && req.Params.URI == IndexURI {
				p.notified()
			}
		},
	})
	registerExtension(p.client)
	return p, nil
}

// SetInvalidate implements skills.Invalidator. The provider calls f when its
// listing may have changed: when the server reports that its resource list
// or the index changed, and when an index copy the provider listed from
// reaches IndexMaxAge.
func (p *Provider) SetInvalidate(f func()) {
	p.mu.Lock()
	p.invalidate = f
	p.mu.Unlock()
}

// Availability implements skills.AvailabilityDeclarer: a remote server is
// best-effort unless the host attaches it with
// &skills.ProviderOptions{Availability: skills.Strict}. While it cannot be
// listed, the registry keeps its last-good listing (or leaves it out) and
// publishes the other sources' skills, rather than withholding every
// skill until the server answers.
func (p *Provider) Availability() skills.Availability { return skills.BestEffort }

// EndSession implements skills.SessionEnder: it releases the session's view.
func (p *Provider) EndSession(sessionID string) {
	p.mu.Lock()
	p.releaseLocked(sessionID)
	if !p.closed {
		p.pins.Drop(sessionID)
	}
	p.mu.Unlock()
}

// releaseLocked releases the session's view: its cached reads, its
// listing and its held entries.
func (p *Provider) releaseLocked(sessionID string) {
	if v := p.sessions[sessionID]; v != nil {
		v.release()
		delete(p.sessions, sessionID)
	}
}

// Close disconnects from the server (terminating a stdio server), stops the
// invalidation timer and releases every session's view. Later calls return
// ErrClosed.
func (p *Provider) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	c := p.conn
	p.conn = nil
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	for _, v := range p.sessions {
		v.release()
	}
	p.sessions = nil
	p.pins.Reset()
	p.mu.Unlock()

	var err error
	if c != nil {
		c.markDead()
		err = c.cs.Close()
	}
	p.wg.Wait()
	if p.httpTransport != nil {
		p.httpTransport.CloseIdleConnections()
	}
	return p.san.wrap("closing", err)
}

// Diagnostics describes the most recent index (dropped entries, applied
// bounds) and, if the most recent listing failed, why. Every line is bounded
// and free of credentials.
func (p *Provider) Diagnostics() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := slices.Clone(p.diags)
	if p.lastErr != "" {
		out = append(out, p.lastErr)
	}
	return out
}

// ListError returns why the most recent listing failed, or "" when it
// succeeded (or none ran yet): the line to show a user when the catalog is
// incomplete. It is bounded and free of credentials.
func (p *Provider) ListError() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastErr
}

// List implements skills.Provider. A server that declares the MCP Skills
// extension is listed with skills/list (see the package documentation);
// another through its index. Either way List answers from the session's
// copy while that copy is younger than IndexMaxAge and no change was
// notified, and lists again otherwise. If the server cannot be reached,
// times out, fails the request or sends a malformed listing, the
// observation is incomplete and the error says why; the next List retries.
func (p *Provider) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	sums, readAt, err := p.listSummaries(ctx, req.SessionID)
	p.mu.Lock()
	if err != nil {
		err = p.san.wrap("listing skills", err)
		p.lastErr = err.Error()
		p.mu.Unlock()
		if ctx.Err() == nil {
			p.cfg.Logger.Warn("mcpskills: listing failed; the next listing tries again", "server", p.cfg.endpointLabel(), "error", err)
		}
		return skills.Observation{Complete: false}, err
	}
	p.lastErr = ""
	p.scheduleLocked(readAt.Add(p.cfg.IndexMaxAge))
	p.mu.Unlock()
	return skills.Observation{Complete: true, Skills: sums}, nil
}

// listSummaries lists the session's skills and says when the listing it
// answers from was read.
func (p *Provider) listSummaries(ctx context.Context, sessionID string) ([]skill.Summary, time.Time, error) {
	if err := ctx.Err(); err != nil {
		return nil, time.Time{}, err
	}
	if l, ok := p.freshListing(sessionID); ok {
		return l.cat.summaries(p.cfg.Label), l.readAt, nil
	}
	if !p.hasFreshIndex(sessionID) {
		var ext bool
		var err error
		ctx, ext, err = p.speaksExtension(ctx)
		if err != nil {
			return nil, time.Time{}, err
		}
		if ext {
			l, err := p.listExt(ctx, sessionID)
			if err != nil {
				return nil, time.Time{}, err
			}
			return l.cat.summaries(p.cfg.Label), l.readAt, nil
		}
	}
	res, err := p.read(ctx, sessionID, IndexURI, readFreshIndex, nil)
	if err != nil {
		return nil, time.Time{}, err
	}
	sums := make([]skill.Summary, 0, len(res.index.Entries))
	for _, e := range res.index.Entries {
		sums = append(sums, p.summary(e))
	}
	return sums, res.readAt, nil
}

// speaksExtension connects if needed and reports whether the server
// declares the MCP Skills extension. A connection it makes stays fresh for
// the requests made under the context it returns: a failure there is not
// retried, as if the request had connected itself.
func (p *Provider) speaksExtension(ctx context.Context) (context.Context, bool, error) {
	c, fresh, err := p.getConn(ctx)
	if err != nil {
		return ctx, false, err
	}
	if fresh {
		ctx = context.WithValue(ctx, freshConnKey{}, c)
	}
	return ctx, c.ext, nil
}

// freshConnKey marks, in a context, the connection the operation made.
type freshConnKey struct{}

// hasFreshIndex reports whether the session holds an index copy List may
// answer from.
func (p *Provider) hasFreshIndex(sessionID string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.sessions[sessionID]
	return v != nil && v.index != nil && p.usableLocked(v.index, readFreshIndex, nil)
}

// sessionSpeaksExtension reports, for a load or read, which listing the
// session's catalog came from: known is false when the session has
// neither.
func (p *Provider) sessionSpeaksExtension(sessionID string) (ext, known bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.sessions[sessionID]
	switch {
	case v == nil:
		return false, false
	case v.listing.cat != nil && (v.index == nil || v.index.readAt.Before(v.listing.readAt)):
		return true, true
	case v.index != nil:
		return false, true
	}
	return false, false
}

// loadsExtension decides how a load or read for the session goes: by the
// listing the session's catalog came from, or, when it has none, by what
// the server declares.
func (p *Provider) loadsExtension(ctx context.Context, sessionID string) (context.Context, bool, error) {
	if ext, known := p.sessionSpeaksExtension(sessionID); known {
		return ctx, ext, nil
	}
	return p.speaksExtension(ctx)
}

func (p *Provider) summary(e indexEntry) skill.Summary {
	return skill.Summary{
		Name:          e.Name,
		Description:   e.Description,
		Invocation:    skill.DefaultPolicy(),
		Provider:      p.cfg.Label,
		Origin:        p.cfg.Label,
		QualifiedName: skill.QualifiedName(p.cfg.Label, e.Name),
	}
}

// Load implements skills.Provider. name is a skill's plain name, which
// loads the skill only when exactly one of the server's skills has it, or
// its qualified name (label:path), which loads exactly that skill.
//
// For a server that declares the MCP Skills extension, the skill's entry
// comes from the session's listing, and is held for the session; the
// SKILL.md is read and verified against it (size, digest, and its
// frontmatter field by field) before its body is returned. A skill whose
// entry is over the extension's limits or "dynamic" is not loaded: the
// error says why. See the package documentation for what a verification
// failure does.
//
// Otherwise the skill must be listed in the session's copy of the index
// (the one its catalog came from; it is read first if the session has
// none), and the body is the resource at the entry's url, read through the
// session's view.
//
// Either way a body that is not UTF-8 (which only a blob can carry) is
// refused with an error naming the skill, the server and the first bad
// byte, matching skill.ErrInvalidUTF8, as the Agent Skills provider
// refuses such a file on disk; it is never repaired. YAML frontmatter is
// stripped from the body, and the resource base is the skill's root directory URL with a trailing slash
// (skill://<path>/): the skill's other files are read through the host
// (see ReadResource).
func (p *Provider) Load(ctx context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	if !skill.ValidBoundedName(req.Name) && !skill.ValidQualifiedName(req.Name) {
		return skill.Definition{}, false, nil
	}
	ctx, ext, err := p.loadsExtension(ctx, req.SessionID)
	if err != nil {
		return skill.Definition{}, false, p.san.wrapForModel("loading skill "+req.Name, err)
	}
	if ext {
		return p.loadExt(ctx, req)
	}
	return p.loadIndexed(ctx, req)
}

// indexName returns the index name a load or read names: a plain name, or
// this server's label and a plain name.
func (p *Provider) indexName(name string) (string, bool) {
	if rest, ok := strings.CutPrefix(name, p.cfg.Label+string(skill.QualifierSeparator)); ok {
		name = rest
	}
	return name, skill.ValidBoundedName(name)
}

func (p *Provider) loadIndexed(ctx context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	name, ok := p.indexName(req.Name)
	if !ok {
		return skill.Definition{}, false, nil
	}
	ix, err := p.read(ctx, req.SessionID, IndexURI, readAnyIndex, nil)
	if err != nil {
		return skill.Definition{}, false, p.san.wrapForModel("loading skill "+req.Name, err)
	}
	e, ok := ix.index.lookup(name)
	if !ok {
		return skill.Definition{}, false, nil
	}
	body, err := p.read(ctx, req.SessionID, e.URL, readResource, nil)
	if err != nil {
		return skill.Definition{}, false, p.san.wrapForModel("loading skill "+req.Name, err)
	}
	text := contentText(body.content)
	if err := p.checkUTF8(req.Name, text); err != nil {
		return skill.Definition{}, false, err
	}
	fields, _ := frontmatterFields(text) // none: the index names and describes the skill
	return skill.Definition{
		Summary:      p.summary(e),
		ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: BaseURI(e.Name)},
		Content:      stripFrontmatter(text),
		Directives:   skill.ParseDirectives(fields),
	}, true, nil
}

// checkUTF8 refuses a SKILL.md that is not UTF-8, as the Agent Skills
// provider refuses one on disk, rather than repairing it: the plugin
// protocol carries UTF-8 only, and a body with bytes replaced is not the
// skill the server serves. (JSON text is UTF-8, so such a body comes as a
// blob.)
func (p *Provider) checkUTF8(name, text string) error {
	if err := skill.CheckUTF8("SKILL.md", text); err != nil {
		return p.skillError(name, err, "%v; not loaded", err)
	}
	return nil
}

// contentText returns a resource's bytes as a string.
func contentText(c *Content) string {
	if c.Blob != nil {
		return string(c.Blob)
	}
	return c.Text
}

// ReadResource reads a file of a skill for a host that lets the model read
// skill resources; skillName is a plain or qualified name, as for Load.
//
// For a server that declares the MCP Skills extension, uri must be listed
// in the manifest of the entry the session holds for the skill (the one it
// was loaded from), and the bytes read must match that entry's size and
// digest; otherwise the read is refused (see the package documentation).
//
// Otherwise uri must pass ValidateChildURI for the skill's name, and the
// skill must be listed in the session's copy of the index.
//
// Either way nothing is sent to the server for a refused URI, reads go
// through the session's view like bodies do, and only to this provider's
// server.
func (p *Provider) ReadResource(ctx context.Context, sessionID, skillName, uri string) (*Content, error) {
	ctx, ext, err := p.loadsExtension(ctx, sessionID)
	if err != nil {
		return nil, p.san.wrapForModel("reading "+uri, err)
	}
	if ext {
		return p.readResourceExt(ctx, sessionID, skillName, uri)
	}
	name, _ := p.indexName(skillName)
	if err := ValidateChildURI(name, uri); err != nil {
		return nil, err
	}
	ix, err := p.read(ctx, sessionID, IndexURI, readAnyIndex, nil)
	if err != nil {
		return nil, p.san.wrapForModel("reading "+uri, err)
	}
	if _, ok := ix.index.lookup(name); !ok {
		return nil, ErrUnknownSkill
	}
	res, err := p.read(ctx, sessionID, uri, readResource, nil)
	if err != nil {
		return nil, p.san.wrapForModel("reading "+uri, err)
	}
	c := *res.content
	c.Blob = slices.Clone(c.Blob)
	return &c, nil
}

// readMode says how a cached entry may be used.
type readMode int

const (
	readResource   readMode = iota // any cached copy
	readAnyIndex                   // the index, any cached copy
	readFreshIndex                 // the index, a copy younger than IndexMaxAge and not notified stale
)

type readResult struct {
	content *Content
	index   *index // for index reads
	readAt  time.Time
}

// read returns uri as seen by the session: from its view if usable, else from
// the server, caching successful reads. Concurrent readers of one URI in
// one session share a single server read. Failed reads are never cached;
// an index that does not parse is a failed read.
//
// want, when set, is the manifest entry the bytes must match: a cached copy
// is used only if it was verified against the same size and digest, and a
// fetched one is cached only if it matches; a mismatch is a
// *contentMismatch.
func (p *Provider) read(ctx context.Context, sessionID, uri string, mode readMode, want *fileEntry) (readResult, error) {
	// A cached copy must not hide that the caller gave up.
	if err := ctx.Err(); err != nil {
		return readResult{}, err
	}
	k := cacheKey{label: p.cfg.Label, conn: p.connHash, uri: uri}
	flightKey := uri
	if want != nil {
		// Readers expecting other bytes never share a read's verdict.
		flightKey = fmt.Sprintf("%s\x00%x\x00%d", uri, want.Digest, want.Size)
	}
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return readResult{}, ErrClosed
		}
		v := p.viewLocked(sessionID)
		if e := v.get(k); e != nil && p.usableLocked(e, mode, want) {
			res := readResult{content: e.content, index: e.parsed, readAt: e.readAt}
			p.mu.Unlock()
			return res, nil
		}
		gen := p.indexGen
		p.mu.Unlock()

		// The read runs under the context of the caller that starts it;
		// the others wait for it, or for their own context.
		shared := v.flights.DoChan(flightKey, func() (any, error) {
			// A flight that ended between this caller's cache check and
			// its DoChan has cached what it read: use that, not a second
			// server read.
			p.mu.Lock()
			if mode != readResource {
				p.listingStartsLocked(gen)
			}
			if e := v.get(k); e != nil && p.usableLocked(e, mode, want) {
				res := readResult{content: e.content, index: e.parsed, readAt: e.readAt}
				p.mu.Unlock()
				return flight{res: res}, nil
			}
			p.mu.Unlock()
			return p.fetchInto(ctx, sessionID, v, k, mode, gen, want)
		})
		select {
		case r := <-shared:
			f := r.Val.(flight)
			if r.Err != nil && f.starterCancelled && ctx.Err() == nil {
				continue // the read failed only because its starter gave up
			}
			return f.res, r.Err
		case <-ctx.Done():
			return readResult{}, ctx.Err()
		}
	}
}

// flight is the outcome of a shared read.
type flight struct {
	res readResult
	// starterCancelled is set when the read failed only because the
	// context it ran under ended; the other readers then read again.
	starterCancelled bool
}

// fetchInto reads k's URI from the server for a session's view and caches a
// successful read there, unless the provider closed or the session ended
// meanwhile. gen is the index generation from before the read.
func (p *Provider) fetchInto(ctx context.Context, sessionID string, v *view, k cacheKey, mode readMode, gen uint64, want *fileEntry) (flight, error) {
	if want != nil {
		// The entry states the size: allow for its JSON escaping.
		ctx = withFrameBound(ctx, readFrameBytes(want.Size))
	}
	res, err := p.fetchParsed(ctx, k.uri, mode != readResource)
	if err != nil {
		return flight{starterCancelled: ctx.Err() != nil}, err
	}
	var sum [32]byte
	if want != nil {
		var size int64
		size, sum = digestOf(res.content)
		if err := checkContent(size, sum, want); err != nil {
			return flight{}, err // never cached
		}
	}
	res.readAt = time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed && p.sessions[sessionID] == v {
		if e := v.put(k, res.content); e != nil {
			e.readAt, e.gen, e.parsed = res.readAt, gen, res.index
			if want != nil {
				e.verified, e.sum, e.rawSize = true, sum, want.Size
			}
			if mode != readResource {
				v.setIndex(e)
			}
		}
	}
	if res.index != nil {
		p.diags = p.cleanAll(res.index.Diagnostics)
		for _, d := range p.diags {
			p.cfg.Logger.Debug("mcpskills: index diagnostic", "server", p.cfg.endpointLabel(), "diagnostic", d)
		}
	}
	return flight{res: res}, nil
}

func (p *Provider) usableLocked(e *cacheEntry, mode readMode, want *fileEntry) bool {
	switch {
	case mode == readFreshIndex:
		return e.parsed != nil && e.gen == p.indexGen && time.Since(e.readAt) < p.cfg.IndexMaxAge
	case mode == readAnyIndex:
		return e.parsed != nil
	case want != nil:
		// The copy was hashed when it was read and is held where only the
		// provider writes: comparing what it hashed to with the current
		// entry verifies it again.
		return e.verified && e.sum == want.Digest && e.rawSize == want.Size
	default:
		return true
	}
}

// viewLocked returns the session's view, creating it, and marks it the
// most recently used (which may release the least recently used others:
// Options.PinnedMaxBytes).
func (p *Provider) viewLocked(sessionID string) *view {
	v := p.sessions[sessionID]
	if v == nil {
		v = newView(p.cfg.CacheMaxResources, p.cfg.CacheMaxBytes, p.budget)
		p.sessions[sessionID] = v
	}
	p.pins.Touch(sessionID)
	return v
}

// pinLocked makes l the listing the session's catalog came from.
func (p *Provider) pinLocked(sessionID string, v *view, l listing) {
	v.listing = l
	p.pins.Pin(sessionID, l.cat, l.cat.cost)
}

func (p *Provider) cleanAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = p.san.clean(l)
	}
	return out
}

// fetchParsed reads uri from the server and, for the index, validates it.
func (p *Provider) fetchParsed(ctx context.Context, uri string, isIndex bool) (readResult, error) {
	c, err := p.fetch(ctx, uri)
	if err != nil {
		return readResult{}, err
	}
	res := readResult{content: c}
	if n := len(c.Text) + len(c.Blob); !isIndex && n > skill.MaxSkillFileBytes && isSkillFileURI(uri) {
		return readResult{}, errSkillFileTooLarge(n)
	}
	if isIndex {
		data := []byte(c.Text)
		if c.Blob != nil {
			data = c.Blob
		}
		ix, err := parseIndex(data, indexLimits{
			MaxEntries:          p.cfg.MaxEntries,
			MaxDescriptionBytes: p.cfg.MaxDescriptionBytes,
			MaxIndexBytes:       p.cfg.MaxIndexBytes,
		})
		if err != nil {
			return readResult{}, err
		}
		res.index = ix
	}
	return res, nil
}

// notified handles a change notification from the server
// (notifications/resources/list_changed, or notifications/resources/updated
// for the index).
func (p *Provider) notified() {
	p.mu.Lock()
	p.notifications++
	p.mu.Unlock()
	p.indexChanged()
}

// indexChanged handles a change notification from the server: every
// session's index copy and listing becomes stale and the registry is told
// (its cached snapshots are dropped, so the next one lists again).
//
// Changes coalesce, one pending at a time: once the registry was told, a
// notification that arrives before any listing began changes nothing (the
// next listing reads the server after it anyway), so a flood of
// notifications costs a lock each, not a listing or an invalidation each.
// A listing that begins (listingStartsLocked) makes the next notification
// pending again, since the listing may have read the server before that
// change.
func (p *Provider) indexChanged() {
	p.mu.Lock()
	if p.changePending || p.closed {
		p.mu.Unlock()
		return
	}
	p.indexGen++
	p.changePending = true
	inv := p.invalidate
	p.mu.Unlock()
	if inv != nil {
		inv()
	}
}

// listingStartsLocked records that a listing (a skills/list walk or an
// index read) begins under index generation gen: a change notified from
// now on may be one it misses, so it is pending again. A listing that
// began under an older generation clears nothing.
func (p *Provider) listingStartsLocked(gen uint64) {
	if gen == p.indexGen {
		p.changePending = false
	}
}

// scheduleLocked makes sure an invalidation happens no later than at, when
// an index copy that was just listed from reaches IndexMaxAge.
func (p *Provider) scheduleLocked(at time.Time) {
	if p.closed || (p.timer != nil && !p.timerAt.After(at)) {
		return
	}
	if p.timer != nil {
		p.timer.Stop()
	}
	p.timerSeq++
	seq := p.timerSeq
	p.timerAt = at
	p.timer = time.AfterFunc(time.Until(at), func() {
		p.mu.Lock()
		if seq != p.timerSeq || p.closed {
			p.mu.Unlock()
			return
		}
		p.timer = nil
		inv := p.invalidate
		p.mu.Unlock()
		if inv != nil {
			inv()
		}
	})
}
