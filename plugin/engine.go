package plugin

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/internal/lru"
	skillcatalogv1 "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Host is the part of the host's services the plugin calls back. The gRPC
// client over go-plugin's broker implements it; tests and benchmarks use
// in-process implementations.
type Host interface {
	Snapshot(ctx context.Context, req *skillcatalogv1.SnapshotRequest) (*skillcatalogv1.SnapshotResponse, error)
	GetSkill(ctx context.Context, req *skillcatalogv1.GetSkillRequest) (*skillcatalogv1.GetSkillResponse, error)
	ReadEvents(ctx context.Context, req *skillcatalogv1.ReadEventsRequest) (*skillcatalogv1.ReadEventsResponse, error)
}

// Cache bounds. Each is small: a view is shared by every session with the
// same skills, and a session state is a digest plus a few integers.
const (
	maxViews          = 256
	maxSessions       = 4096
	maxParsedSources  = 1024
	maxLastTokens     = 4096
	firstEventsPage   = 64   // most scans end near the head
	maxEventsPage     = 4096 // pages double up to this on long scans
	maxRescanAttempts = 4
)

// view is the model-facing projection of one complete snapshot under one
// description cap.
type view struct {
	entries   []digest.Entry
	digest    digest.Digest
	summaries []*skillcatalogv1.SkillSummary // every listed skill, sorted by name
}

// sessionState remembers what a backward scan found up to a log head, so a
// later step reads only newer events.
type sessionState struct {
	head     *skillcatalogv1.SessionHead
	baseline events.Baseline
}

type parsedSource struct {
	catalog events.Catalog
	ok      bool
}

// Engine applies the catalog rules. It is safe for concurrent use; its
// caches are bounded and keyed by content or by session head, so an empty
// Engine (a restarted plugin) computes the same decisions.
type Engine struct {
	mu         sync.Mutex
	views      *lru.Cache[string, *view]          // snapshot token + cap → view
	lastTokens *lru.Cache[string, string]         // cwd + scope + cap → last token seen
	sessions   *lru.Cache[string, sessionState]   // session id → scan state
	parsed     *lru.Cache[[16]byte, parsedSource] // xxh3-128 of a source → parse result
	parses     int                                // catalog-kind sources actually parsed
}

// NewEngine returns an Engine with empty caches.
func NewEngine() *Engine {
	return &Engine{
		views:      lru.New[string, *view](maxViews),
		lastTokens: lru.New[string, string](maxLastTokens),
		sessions:   lru.New[string, sessionState](maxSessions),
		parsed:     lru.New[[16]byte, parsedSource](maxParsedSources),
	}
}

// errUnbound is returned for a mount whose tools were never bound.
var errUnbound = errors.New("mount has no bound identity for the skill tool: call BindTools after Configure")

// Mount is the per-mount input to the rules: its configuration and the
// identity the host minted for its `skill` tool.
type Mount struct {
	Config        Config
	SkillIdentity string
}

// PreStep decides what the step adds. host is called back for the snapshot
// and the session's events when the request's revision hints do not let the
// caches answer.
func (e *Engine) PreStep(ctx context.Context, host Host, m Mount, req *skillcatalogv1.PreStepRequest) (*skillcatalogv1.PreStepResponse, error) {
	// Rule 1: a downstream reject passes through; nothing is computed.
	if req.GetDownstream().GetReject() != nil {
		return &skillcatalogv1.PreStepResponse{Outcome: skillcatalogv1.Outcome_OUTCOME_REJECT_PASSTHROUGH}, nil
	}

	if m.SkillIdentity == "" {
		// Without the identity the host minted, visibility cannot be
		// judged; treating it as hidden would tombstone a live catalog.
		return nil, errUnbound
	}

	// Rule 2: the exact registered definition must be what `skill` resolves
	// to; otherwise the view is complete and empty, without asking.
	var cur *view
	if m.SkillIdentity != "" && req.GetSkillToolIdentity() == m.SkillIdentity {
		v, complete, err := e.currentView(ctx, host, m.Config, req.GetSessionId(), req.GetCwd(), req.GetAgentScope(), req.GetSnapshotToken())
		if err != nil {
			return nil, err
		}
		if !complete {
			// Rule 3: keep the last-good model view; retry next step.
			return &skillcatalogv1.PreStepResponse{Outcome: skillcatalogv1.Outcome_OUTCOME_INCOMPLETE}, nil
		}
		cur = v
	} else {
		cur = emptyView()
	}

	base, head, err := e.baseline(ctx, host, req.GetSessionId(), req.GetSessionHead())
	if err != nil {
		return nil, err
	}
	return e.decide(cur, base, head, req), nil
}

// decide applies rules 5 to 8 to a complete current view and a baseline.
func (e *Engine) decide(cur *view, base events.Baseline, head *skillcatalogv1.SessionHead, req *skillcatalogv1.PreStepRequest) *skillcatalogv1.PreStepResponse {
	proposed := req.GetDownstream().GetEnter().GetMessages()
	var catalogs []int // indexes of readable catalogs proposed downstream
	keep := -1         // a proposed catalog that already carries the current digest
	for i, msg := range proposed {
		c, ok := e.parse(msg.GetSourceJson())
		if !ok {
			continue // foreign or unreadable: always kept
		}
		catalogs = append(catalogs, i)
		if keep < 0 && c.Digest == cur.digest {
			keep = i
		}
	}
	removeAllBut := func(except int) []*skillcatalogv1.MessageEdit {
		var edits []*skillcatalogv1.MessageEdit
		for _, i := range catalogs {
			if i != except {
				edits = append(edits, &skillcatalogv1.MessageEdit{Edit: &skillcatalogv1.MessageEdit_Remove{Remove: uint32(i)}})
			}
		}
		return edits
	}
	unchanged := func(edits []*skillcatalogv1.MessageEdit) *skillcatalogv1.PreStepResponse {
		return &skillcatalogv1.PreStepResponse{Outcome: skillcatalogv1.Outcome_OUTCOME_UNCHANGED, Edits: edits}
	}

	// Rule 5: the model already sees this catalog.
	if base.Found && base.Catalog.Digest == cur.digest {
		return unchanged(removeAllBut(-1))
	}
	// Rule 6: downstream already publishes the current catalog.
	if keep >= 0 {
		return unchanged(removeAllBut(keep))
	}
	// Rule 7: nothing to retire and nothing to announce.
	if !base.EverPublished && len(cur.entries) == 0 {
		return unchanged(removeAllBut(-1))
	}

	// Rule 8: publish.
	update := base.EverPublished
	var text string
	outcome := skillcatalogv1.Outcome_OUTCOME_INITIAL
	switch {
	case !update:
		text = render.InitialCatalog(cur.entries)
	case len(cur.entries) == 0:
		text = render.Tombstone()
		outcome = skillcatalogv1.Outcome_OUTCOME_TOMBSTONE
	default:
		text = render.ReplacementCatalog(cur.entries)
		outcome = skillcatalogv1.Outcome_OUTCOME_REPLACEMENT
	}
	msg := &skillcatalogv1.Message{
		Id:         catalogMessageID(req.GetSessionId(), head, cur.digest),
		Role:       skillcatalogv1.Role_ROLE_USER,
		Content:    []*skillcatalogv1.ContentBlock{{Type: "text", Text: text}},
		SourceJson: events.EncodeCatalog(cur.entries, update),
	}
	resp := &skillcatalogv1.PreStepResponse{Outcome: outcome}
	if len(catalogs) > 0 {
		// Replace the first proposed catalog in place, keeping its id so
		// the host's references to it stay valid; drop the others.
		first := catalogs[0]
		if id := proposed[first].GetId(); id != "" {
			msg.Id = id
		}
		resp.Edits = append(resp.Edits, &skillcatalogv1.MessageEdit{Edit: &skillcatalogv1.MessageEdit_Replace{Replace: &skillcatalogv1.ReplaceEdit{Index: uint32(first), Message: msg}}})
		for _, i := range catalogs[1:] {
			resp.Edits = append(resp.Edits, &skillcatalogv1.MessageEdit{Edit: &skillcatalogv1.MessageEdit_Remove{Remove: uint32(i)}})
		}
		return resp
	}
	resp.Edits = append(resp.Edits, &skillcatalogv1.MessageEdit{Edit: &skillcatalogv1.MessageEdit_Append{Append: msg}})
	return resp
}

// catalogMessageID names a new catalog message after the session, the log
// position it follows and its digest: unique within a session and the same
// whichever plugin process computes it.
func catalogMessageID(session string, head *skillcatalogv1.SessionHead, d digest.Digest) string {
	return "skill-catalog-" + session + "-" + strconv.FormatUint(head.GetHeadSeq(), 10) + "-" + d.String()[:12]
}

func emptyView() *view {
	return &view{digest: digest.Of(nil)}
}

// currentView returns the projection of the agent's current snapshot, using
// the host's token hint and conditional requests so an unchanged snapshot
// does not cross the process boundary again.
func (e *Engine) currentView(ctx context.Context, host Host, cfg Config, session, cwd, scope, hint string) (*view, bool, error) {
	capKey := strconv.Itoa(cfg.DescriptionMaxLength)
	if hint != "" {
		if v, ok := e.cachedView(hint + "\x00" + capKey); ok {
			return v, true, nil
		}
	}
	placeKey := cwd + "\x00" + scope + "\x00" + capKey
	e.mu.Lock()
	last, _ := e.lastTokens.Get(placeKey)
	// Keep the view itself: concurrent steps may evict it from the cache
	// before the host answers "not modified".
	held, ok := e.views.Get(last + "\x00" + capKey)
	if !ok {
		last = "" // only ask conditionally for what we still hold
	}
	e.mu.Unlock()

	resp, err := host.Snapshot(ctx, &skillcatalogv1.SnapshotRequest{Cwd: cwd, AgentScope: scope, IfNoneMatch: last, SessionId: session})
	if err != nil {
		return nil, false, fmt.Errorf("skill snapshot: %w", err)
	}
	if resp.GetNotModified() {
		if last == "" || held == nil {
			return nil, false, fmt.Errorf("skill snapshot: host answered not modified to an unconditional request")
		}
		return held, true, nil
	}
	if !resp.GetComplete() {
		return nil, false, nil
	}
	v := buildView(resp.GetSkills(), cfg.DescriptionMaxLength)
	if tok := resp.GetToken(); tok != "" {
		e.mu.Lock()
		e.views.Put(tok+"\x00"+capKey, v)
		e.lastTokens.Put(placeKey, tok)
		e.mu.Unlock()
	}
	return v, true, nil
}

func (e *Engine) cachedView(key string) (*view, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.views.Get(key)
}

// buildView applies rule 4: model-invocable skills with addressable names,
// one per name, sorted by name, descriptions normalized and capped.
func buildView(skills []*skillcatalogv1.SkillSummary, maxLen int) *view {
	byName := func(s []*skillcatalogv1.SkillSummary) func(i, j int) bool {
		return func(i, j int) bool { return s[i].GetName() < s[j].GetName() }
	}
	if !sort.SliceIsSorted(skills, byName(skills)) {
		skills = append([]*skillcatalogv1.SkillSummary(nil), skills...)
		sort.SliceStable(skills, byName(skills))
	}
	v := &view{summaries: make([]*skillcatalogv1.SkillSummary, 0, len(skills))}
	entries := make([]digest.Entry, 0, len(skills))
	for i, s := range skills {
		name := s.GetName()
		if i > 0 && skills[i-1].GetName() == name {
			continue // the host resolves duplicates; the first one listed wins
		}
		v.summaries = append(v.summaries, s)
		if !s.GetInvocation().GetModelInvocable() || !skill.ValidName(name) {
			continue
		}
		entries = append(entries, digest.Entry{Name: name, Description: render.NormalizeDescription(s.GetDescription(), maxLen)})
	}
	v.entries = entries
	v.digest = digest.Of(entries)
	return v
}

// summary finds a listed skill by name.
func (v *view) summary(name string) (*skillcatalogv1.SkillSummary, bool) {
	i := sort.Search(len(v.summaries), func(i int) bool { return v.summaries[i].GetName() >= name })
	if i < len(v.summaries) && v.summaries[i].GetName() == name {
		return v.summaries[i], true
	}
	return nil, false
}

// parse recognizes a readable catalog record, remembering results by
// content hash so a baseline already seen is never parsed again.
func (e *Engine) parse(source []byte) (events.Catalog, bool) {
	if len(source) == 0 {
		return events.Catalog{}, false
	}
	key := xxh3.Hash128(source).Bytes()
	e.mu.Lock()
	p, hit := e.parsed.Get(key)
	e.mu.Unlock()
	if hit {
		return p.catalog, p.ok
	}
	c, ok := events.ParseCatalog(source)
	if ok || events.IsCatalogKind(source) {
		// Foreign sources are rejected by a cheap scan and need no cache
		// slot; catalog-kind ones are worth remembering.
		e.mu.Lock()
		e.parses++
		e.parsed.Put(key, parsedSource{catalog: c, ok: ok})
		e.mu.Unlock()
	}
	return c, ok
}

// baseline returns what the session's durable events say the model has
// seen. With a head hint equal to the remembered head it costs nothing; with
// a newer head on the same surface it reads only the new events; otherwise
// (first step, restarted plugin, compaction) it scans backwards from the
// newest event until the newest visible readable catalog.
func (e *Engine) baseline(ctx context.Context, host Host, session string, hint *skillcatalogv1.SessionHead) (events.Baseline, *skillcatalogv1.SessionHead, error) {
	e.mu.Lock()
	st, ok := e.sessions.Get(session)
	e.mu.Unlock()
	if ok && hint != nil {
		switch {
		case hint.GetSurfaceRevision() != st.head.GetSurfaceRevision():
			ok = false // compaction since the remembered scan: full rescan
		case hint.GetHeadSeq() == st.head.GetHeadSeq():
			return st.baseline, st.head, nil
		case hint.GetHeadSeq() < st.head.GetHeadSeq():
			ok = false // the log went backwards: trust nothing remembered
		}
	}
	for attempt := 0; attempt < maxRescanAttempts; attempt++ {
		var after uint64
		if ok {
			after = st.head.GetHeadSeq()
		}
		newer, head, err := e.scan(ctx, host, session, after)
		if err != nil {
			return events.Baseline{}, nil, err
		}
		if head == nil { // the surface changed while reading: start over
			ok = false
			continue
		}
		if ok {
			if head.GetSurfaceRevision() != st.head.GetSurfaceRevision() || head.GetHeadSeq() < st.head.GetHeadSeq() {
				ok = false // compaction since the remembered scan: full rescan
				continue
			}
			newer = newer.Over(st.baseline)
		}
		e.mu.Lock()
		e.sessions.Put(session, sessionState{head: head, baseline: newer})
		e.mu.Unlock()
		return newer, head, nil
	}
	return events.Baseline{}, nil, fmt.Errorf("session %q: durable events kept changing visibility during %d scans", session, maxRescanAttempts)
}

// scan reads events with seq > after, newest first, page by page, until the
// newest visible readable catalog or the bound. It returns the head as of
// the first page, or a nil head if the surface revision changed between
// pages.
func (e *Engine) scan(ctx context.Context, host Host, session string, after uint64) (events.Baseline, *skillcatalogv1.SessionHead, error) {
	sc := events.NewScanner(e.parse)
	var head *skillcatalogv1.SessionHead
	var before uint64
	size := uint32(firstEventsPage)
	for {
		page, err := host.ReadEvents(ctx, &skillcatalogv1.ReadEventsRequest{SessionId: session, BeforeSeq: before, AfterSeq: after, MaxEvents: size})
		if err != nil {
			return events.Baseline{}, nil, fmt.Errorf("read session events: %w", err)
		}
		if head == nil {
			head = page.GetHead()
			if head == nil {
				head = &skillcatalogv1.SessionHead{}
			}
		} else if page.GetHead().GetSurfaceRevision() != head.GetSurfaceRevision() {
			return events.Baseline{}, nil, nil
		}
		evs := page.GetEvents()
		for _, ev := range evs {
			// Pages run newest first and never revisit an event; a host
			// that breaks this would make the scan loop or stop early.
			if (before != 0 && ev.GetSeq() >= before) || ev.GetSeq() <= after {
				return events.Baseline{}, nil, fmt.Errorf("read session events: host returned seq %d outside (%d, %d)", ev.GetSeq(), after, before)
			}
			before = ev.GetSeq()
			if sc.Feed(events.Event{Seq: ev.GetSeq(), Source: ev.GetSourceJson(), Visible: ev.GetVisible()}) {
				return sc.Baseline(), head, nil
			}
		}
		if !page.GetMore() {
			return sc.Baseline(), head, nil
		}
		if len(evs) == 0 {
			return events.Baseline{}, nil, fmt.Errorf("read session events: host reported more events but sent none")
		}
		if before <= after+1 {
			return sc.Baseline(), head, nil
		}
		if size < maxEventsPage {
			size *= 2
		}
	}
}

// EndSession forgets what the engine remembered about a session.
func (e *Engine) EndSession(session string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sessions.Delete(session)
}
