package plugin

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/internal/bytelru"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
	"github.com/skillcatalog/skillcatalog/render"
)

// Cache bounds, by entries and by bytes (what the entries keep alive, see
// bytelru.Bookkeeping and View.Bytes). Together the caches hold at most
// 144.25 MiB whatever the host sends (the vectors' 64 MiB, maxVectorBytes,
// only with a host that embeds). Sessions and their last tokens are kept for as
// many live sessions as the Go host keeps snapshot tokens for (16,384), so
// a busy host's steps stay one round trip. A view is shared by every session with the same
// skills and costs about three times its capped descriptions; the byte
// bound lets the place of a catalog of 10,000 skills at the default cap
// (some 5 MiB a view) keep the views of a dozen places, and the view of a
// snapshot larger than the whole bound is used for its step but not kept.
// A session state is a digest plus a few integers; the entry bounds of the
// other caches come first unless their keys (host-chosen session ids,
// working directories, tokens) are unusually long.
const (
	maxViews          = 256
	maxViewBytes      = 64 << 20
	maxSessions       = 16384
	maxSessionBytes   = 8 << 20
	maxParsedSources  = 1024
	maxParsedBytes    = 256 << 10
	maxLastTokens     = 16384
	maxLastTokenBytes = 8 << 20
	firstEventsPage   = 64   // most scans end near the head
	maxEventsPage     = 4096 // pages double up to this on long scans
	maxRescanAttempts = 4
)

// sessionState remembers what a backward scan found up to a log head, so a
// later step reads only newer events.
type sessionState struct {
	head     contract.SessionHead
	baseline events.Baseline
}

// parsedSource is what the rules need of a source: whether it is a readable
// catalog record and, if so, its digest. The entries themselves are never
// needed again, so the cache does not keep them.
type parsedSource struct {
	digest digest.Digest
	ok     bool
	// activated are the skills the record names as activated by touched
	// files (events.Catalog.Activated).
	activated []string
	// relevant is the record of a relevant-skills source the plugin
	// wrote, which the host may send back by its digest.
	relevant *events.Relevant
}

// mount is the per-mount input to the rules: its configuration and the
// identity the host minted for its `skill` tool.
type mount struct {
	cfg           contract.MountOptions
	skillIdentity string
	embed         *embedState
}

// engine applies the catalog rules. It is safe for concurrent use; its
// caches are bounded and keyed by content or by session head, so an empty
// engine (a restarted plugin) computes the same decisions.
type engine struct {
	views      *bytelru.Cache[string, *view.View]     // snapshot token + cap → view
	lastTokens *bytelru.Cache[string, string]         // cwd + scope + cap → last token seen
	sessions   *bytelru.Cache[string, sessionState]   // session id → scan state
	parsed     *bytelru.Cache[[16]byte, parsedSource] // xxh3-128 of a source → parse result
	vectors    *bytelru.Cache[[16]byte, []float32]    // model + document key → its embedding
	parses     atomic.Int64                           // catalog-kind sources actually parsed
	// reattachClean: session id → the surface revision at which nothing
	// was left to attach again (see reattach).
	reattachClean *bytelru.Cache[string, uint64]
}

func newEngine() *engine {
	return &engine{
		views:      newCache[string, *view.View](maxViews, maxViewBytes),
		lastTokens: newCache[string, string](maxLastTokens, maxLastTokenBytes),
		sessions:   newCache[string, sessionState](maxSessions, maxSessionBytes),
		parsed:     newCache[[16]byte, parsedSource](maxParsedSources, maxParsedBytes),
		vectors:    newCache[[16]byte, []float32](maxVectors, maxVectorBytes),

		reattachClean: newCache[string, uint64](maxSessions, maxSessionBytes),
	}
}

// newCache returns one of the engine's caches. Each entry is accounted at
// what its key and value refer to plus the cache's own bookkeeping, so the
// bounds hold whatever the host sends.
func newCache[K comparable, V any](maxEntries, maxBytes int) *bytelru.Cache[K, V] {
	return bytelru.New[K, V](maxEntries, maxBytes, bytelru.Bookkeeping[K, V]())
}

// preStep decides what the step adds. host is called back for the snapshot
// and the session's events when the request's hints do not let the caches
// answer.
func (e *engine) preStep(ctx context.Context, host contract.Host, m mount, req contract.StepRequest) (contract.StepResponse, error) {
	// Rule 1: a downstream reject passes through; nothing is computed.
	if req.Downstream.Reject != nil {
		return contract.StepResponse{Outcome: contract.OutcomeRejectPassthrough, Reasons: []contract.Reason{reasonRejected()}}, nil
	}
	if m.skillIdentity == "" {
		// Without the identity the host minted, visibility cannot be
		// judged; treating it as hidden would tombstone a live catalog.
		return contract.StepResponse{}, contract.ErrUnbound
	}

	// Rule 2: the exact registered definition must be what `skill` resolves
	// to; otherwise the view is complete and empty, without asking.
	var cur, listed *view.View // listed: the agent's complete snapshot, when the step read one
	var hidden []contract.Reason
	if req.SkillToolIdentity != m.skillIdentity {
		cur = view.Empty()
		hidden = []contract.Reason{hiddenReason(req)}
	} else {
		v, complete, err := e.currentView(ctx, host, m.cfg, contract.SnapshotRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope}, req.SnapshotToken, req.Snapshot)
		if err != nil {
			return contract.StepResponse{}, err
		}
		if !complete {
			// Rule 3: keep the last-good model view; retry next step.
			var seq uint64
			if req.Head != nil {
				seq = req.Head.Seq
			}
			return e.withInvocations(ctx, host, m, req, nil, seq, contract.StepResponse{Outcome: contract.OutcomeIncomplete, Reasons: []contract.Reason{reasonIncomplete()}})
		}
		cur, listed = v, v
	}

	base, head, err := e.baseline(ctx, host, req.SessionID, req.Head, req.Recent)
	if err != nil {
		return contract.StepResponse{}, err
	}
	cur, activation := e.gate(cur, listed, base, req, m.cfg)
	resp := e.decide(cur, base, head, req, m.cfg)
	resp = withActivation(resp, activation)
	if hidden != nil {
		resp.Reasons = append(hidden, resp.Reasons...)
	}
	if listed == nil {
		// The agent does not see this mount's `skill` tool: its skills are
		// not the plugin's to add, by the model or by the user.
		return resp, nil
	}
	resp = e.withRelevant(ctx, host, m, req, listed, base, head, resp)
	if resp, err = e.withAttached(ctx, host, m, req, listed, base, head, resp); err != nil {
		return contract.StepResponse{}, err
	}
	return e.withInvocations(ctx, host, m, req, listed, head.Seq, resp)
}

// withInvocations adds to a step's catalog decision the skills its direct
// user messages invoke, when the mount lets users invoke skills: appended
// after every other message. A skill that cannot be loaded fails the whole
// step, so it adds nothing.
func (e *engine) withInvocations(ctx context.Context, host contract.Host, m mount, req contract.StepRequest, listed *view.View, seq uint64, resp contract.StepResponse) (contract.StepResponse, error) {
	if !m.cfg.UserInvocation {
		return resp, nil
	}
	inv, err := e.invocations(ctx, host, m, req, listed, seq)
	if err != nil {
		return contract.StepResponse{}, err
	}
	resp.Edits = append(resp.Edits, inv.Edits...)
	resp.Reasons = append(resp.Reasons, inv.Reasons...)
	resp.Invocations = inv.Invocations
	return resp, nil
}

// decide applies rules 5 to 8 to a complete current view and a baseline.
func (e *engine) decide(cur *view.View, base events.Baseline, head contract.SessionHead, req contract.StepRequest, cfg contract.MountOptions) contract.StepResponse {
	catalogs, keep := e.proposedCatalogs(req.Downstream.Messages, cur.Digest())
	unchanged := func(except int, why contract.Reason) contract.StepResponse {
		return contract.StepResponse{Outcome: contract.OutcomeUnchanged, Edits: removeCatalogs(catalogs, except), Reasons: []contract.Reason{why}}
	}

	// Rule 5: the model already sees this catalog.
	if base.Found && base.Catalog.Digest == cur.Digest() {
		return unchanged(-1, reasonCurrent())
	}
	// Rule 6: downstream already publishes the current catalog.
	if keep >= 0 {
		return unchanged(keep, reasonProposed())
	}
	// Rule 7: nothing to retire and nothing to announce.
	if !base.EverPublished && cur.IsEmpty() {
		return unchanged(-1, reasonEmpty())
	}
	// Rule 8: publish.
	return e.publish(cur, base, head, req, cfg, catalogs)
}

// proposedCatalogs returns the indexes of the readable catalogs among the
// proposed messages, and the first of them that already carries digest d
// (-1 if none). Foreign and unreadable messages are always kept.
func (e *engine) proposedCatalogs(proposed []contract.Message, d digest.Digest) (catalogs []int, keep int) {
	keep = -1
	for i, msg := range proposed {
		c, ok := e.parse(msg.Source)
		if !ok {
			continue
		}
		catalogs = append(catalogs, i)
		if keep < 0 && c.Digest == d {
			keep = i
		}
	}
	return catalogs, keep
}

// removeCatalogs removes every proposed catalog but the one at except.
func removeCatalogs(catalogs []int, except int) []contract.Edit {
	var edits []contract.Edit
	for _, i := range catalogs {
		if i != except {
			edits = append(edits, contract.Edit{Op: contract.EditRemove, Index: i})
		}
	}
	return edits
}

// publish is rule 8: the initial catalog, a replacement or the tombstone,
// in place of the first proposed catalog (the others removed), or
// appended.
func (e *engine) publish(cur *view.View, base events.Baseline, head contract.SessionHead, req contract.StepRequest, cfg contract.MountOptions, catalogs []int) contract.StepResponse {
	update := base.EverPublished
	outcome := contract.OutcomeInitial
	switch {
	case !update:
	case cur.IsEmpty():
		outcome = contract.OutcomeTombstone
	default:
		outcome = contract.OutcomeReplacement
	}
	// An update with no entries and nothing left out renders the
	// Tombstone.
	text := render.AssembleCatalogSeq(cur.Lines(), update, cur.Omitted(),
		render.CatalogNotes{Remote: cur.RemoteOrigins(), UserInvocation: cfg.UserInvocation, SearchTool: cfg.SearchTool})
	source := events.WithActivated(events.AssembleCatalogSeq(cur.Records(), update, cur.Omitted()), cur.Activated())
	// The host will hand this record back at a later step: remember it as
	// parsed, so the plugin never decodes its own publication.
	e.remember(source, cur.Digest(), cur.Activated())
	msg := contract.Message{
		ID:      catalogMessageID(req.SessionID, head, cur.Digest()),
		Role:    contract.RoleUser,
		Content: []contract.ContentBlock{{Type: "text", Text: text}},
		Source:  source,
	}
	// What a budget shortened or left out is reported with the catalog
	// that shows it.
	resp := contract.StepResponse{Outcome: outcome, Diagnostics: cur.Diagnostics(), Reasons: publishReasons(outcome, cur, base)}
	if len(catalogs) == 0 {
		resp.Edits = append(resp.Edits, contract.Edit{Op: contract.EditAppend, Message: msg})
		return resp
	}
	// Replace the first proposed catalog in place and drop the others.
	// The publication keeps its own id: a proposed catalog may be one the
	// log already holds (re-proposed downstream), and a second message
	// under that id would make the durable log ambiguous.
	resp.Edits = append(resp.Edits, contract.Edit{Op: contract.EditReplace, Index: catalogs[0], Message: msg})
	resp.Edits = append(resp.Edits, removeCatalogs(catalogs[1:], -1)...)
	return resp
}

// catalogMessageID names a new catalog message after the session, the log
// position it follows and its digest: unique within a session and the same
// whichever plugin process computes it.
func catalogMessageID(session string, head contract.SessionHead, d digest.Digest) string {
	return "skill-catalog-" + session + "-" + strconv.FormatUint(head.Seq, 10) + "-" + d.String()[:12]
}

// currentView returns the projection of the agent's current snapshot, using
// the host's token hint and conditional requests so an unchanged snapshot
// does not cross the process boundary again. ahead is the snapshot the host
// sent with the step (contract.StepRequest.Snapshot), if any: taken in
// place of the callback when it is incomplete, or a delta against the
// snapshot the plugin holds for the place.
func (e *engine) currentView(ctx context.Context, host contract.Host, cfg contract.MountOptions, req contract.SnapshotRequest, hint string, ahead *contract.Snapshot) (*view.View, bool, error) {
	// Views are kept per projection: the description cap and the budget.
	// The key is built on the stack: the steady-state step only looks it up.
	var keyBuf [2*20 + 2]byte
	proj := strconv.AppendInt(keyBuf[:0], int64(cfg.DescriptionMaxLength), 10)
	if cfg.CatalogBudget > 0 {
		proj = strconv.AppendInt(append(proj, '/'), int64(cfg.CatalogBudget), 10)
	}
	if searches(cfg) {
		proj = append(proj, "/s"...) // its views carry a search index
	}
	if hint != "" {
		if v, ok := e.views.Get(hint + "\x00" + string(proj)); ok {
			return v, true, nil
		}
	}
	capKey := string(proj)
	placeKey := req.Cwd + "\x00" + req.AgentScope + "\x00" + capKey
	last, _ := e.lastTokens.Get(placeKey)
	// Keep the view itself: concurrent steps may evict it from the cache
	// before the host answers "not modified". It is also the base the next
	// view of this place is built on.
	held, ok := e.views.Get(last + "\x00" + capKey)
	if !ok || (searches(cfg) && held.Index() == nil) {
		last = "" // only ask conditionally for what we still hold
	}
	req.IfNoneMatch = last
	req.AcceptDelta = last != ""
	var snap contract.Snapshot
	var err error
	switch {
	case ahead != nil && !ahead.Complete:
		return nil, false, nil
	case ahead != nil && ahead.DeltaBase != "" && ahead.DeltaBase == last:
		snap = *ahead
	default:
		if snap, err = host.Snapshot(ctx, req); err != nil {
			return nil, false, hostFailed("skill snapshot: %w", err)
		}
	}
	if snap.NotModified {
		if last == "" || held == nil {
			return nil, false, hostFailed("skill snapshot: host answered not modified to an unconditional request")
		}
		return held, true, nil
	}
	if !snap.Complete {
		return nil, false, nil
	}
	// A new view is built on the unfitted one it replaces, and fitted to
	// the budget once, here: the cached view is the fitted one, so a step
	// whose snapshot did not change never fits again.
	var prev *view.View
	if held != nil {
		prev = held.Unfitted()
	}
	var v *view.View
	if snap.DeltaBase == "" {
		v = view.Build(snap.Skills, cfg.DescriptionMaxLength, prev)
	} else {
		if !req.AcceptDelta || snap.DeltaBase != last {
			return nil, false, hostFailed("skill snapshot: host sent a delta against %q, the plugin asked for one against %q", snap.DeltaBase, last)
		}
		if v, err = view.ApplyDelta(prev, snap.Skills, snap.Removed, cfg.DescriptionMaxLength); err != nil {
			return nil, false, hostFailed("skill snapshot: %w", err)
		}
	}
	if searches(cfg) {
		v.SetIndex(indexOf(prev, snap))
	}
	if cfg.CatalogBudget > 0 {
		v = view.Fit(v, cfg.CatalogBudget)
	}
	if snap.Token != "" {
		key := snap.Token + "\x00" + capKey
		e.views.Add(key, v, len(key)+v.Bytes())
		e.lastTokens.Add(placeKey, snap.Token, len(placeKey)+len(snap.Token))
	}
	return v, true, nil
}

// parse recognizes a readable catalog record, remembering results by
// content hash so a baseline already seen is never parsed again. The
// catalog it returns carries the digest only: that is all the rules
// compare.
func (e *engine) parse(source []byte) (events.Catalog, bool) {
	if len(source) == 0 {
		return events.Catalog{}, false
	}
	key := xxh3.Hash128(source).Bytes()
	if p, hit := e.parsed.Get(key); hit {
		return events.Catalog{Digest: p.digest, Activated: p.activated}, p.ok
	}
	c, ok := events.ParseCatalog(source)
	if ok || events.IsCatalogKind(source) {
		// Foreign sources are rejected by a cheap scan and need no cache
		// slot; catalog-kind ones are worth remembering.
		e.parses.Add(1)
		e.parsed.Add(key, parsedSource{digest: c.Digest, ok: ok, activated: c.Activated}, namesBytes(c.Activated))
	}
	return events.Catalog{Digest: c.Digest, Activated: c.Activated}, ok
}

// remember records the digest of a catalog record the plugin encoded
// itself, and the skills it names as activated.
func (e *engine) remember(source []byte, d digest.Digest, activated []string) {
	e.parsed.Add(xxh3.Hash128(source).Bytes(), parsedSource{digest: d, ok: true, activated: activated}, namesBytes(activated))
}

// rememberRelevant records a relevant-skills record the plugin encoded
// itself, so the host may send it back by its digest.
func (e *engine) rememberRelevant(source []byte, names []string, forID string) {
	r := &events.Relevant{Names: names, For: forID}
	size := len(forID)
	for _, n := range names {
		size += len(n) + 16
	}
	e.parsed.Add(xxh3.Hash128(source).Bytes(), parsedSource{relevant: r}, size)
}

// baseline returns what the session's durable events say the model has
// seen. With a head hint equal to the remembered head it costs nothing; with
// a newer head on the same surface it reads only the new events, from those
// the host sent with the step when they continue what it remembers, or with
// ReadEvents; otherwise (first step, restarted plugin, compaction) it scans
// backwards from the newest event until the newest visible readable catalog.
func (e *engine) baseline(ctx context.Context, host contract.Host, session string, hint *contract.SessionHead, recent *contract.RecentEvents) (events.Baseline, contract.SessionHead, error) {
	st, ok := e.sessions.Get(session)
	if ok && hint != nil {
		switch {
		case hint.SurfaceRevision != st.head.SurfaceRevision:
			ok = false // compaction since the remembered scan: full rescan
		case hint.Seq == st.head.Seq:
			return st.baseline, st.head, nil
		case hint.Seq < st.head.Seq:
			ok = false // the log went backwards: trust nothing remembered
		default:
			if base, used := e.continueWith(st, *hint, recent); used {
				e.sessions.Add(session, sessionState{head: *hint, baseline: base}, len(session)+baselineBytes(base))
				return base, *hint, nil
			}
		}
	}
	for attempt := 0; attempt < maxRescanAttempts; attempt++ {
		var after uint64
		if ok {
			after = st.head.Seq
		}
		newer, head, stable, err := e.scan(ctx, host, session, after, firstPage(after, hint))
		if err != nil {
			return events.Baseline{}, contract.SessionHead{}, err
		}
		if !stable { // the surface changed while reading: start over
			ok = false
			continue
		}
		if ok {
			if head.SurfaceRevision != st.head.SurfaceRevision || head.Seq < st.head.Seq {
				ok = false // compaction since the remembered scan: full rescan
				continue
			}
			newer = newer.Over(st.baseline)
		}
		e.sessions.Add(session, sessionState{head: head, baseline: newer}, len(session)+baselineBytes(newer))
		return newer, head, nil
	}
	return events.Baseline{}, contract.SessionHead{}, hostFailed("session %q: durable events kept changing visibility during %d scans", session, maxRescanAttempts)
}

// continueWith extends what a session's state says with the events the host
// sent along with the step: used only when they start exactly where the
// state ends and stay within the new head, newest first, so that together
// they cover the whole log.
func (e *engine) continueWith(st sessionState, head contract.SessionHead, recent *contract.RecentEvents) (events.Baseline, bool) {
	if recent == nil || recent.AfterSeq != st.head.Seq {
		return events.Baseline{}, false
	}
	next := head.Seq + 1
	for _, ev := range recent.Events {
		if ev.Seq >= next || ev.Seq <= recent.AfterSeq {
			return events.Baseline{}, false
		}
		next = ev.Seq
	}
	sc := events.NewScanner(e.parse)
	for _, ev := range recent.Events {
		var done bool
		if ev.SourceDigest != nil {
			// A source the plugin produced, sent by its digest: known
			// only while the parse cache still holds it.
			p, ok := e.parsedByDigest(ev.SourceDigest)
			switch {
			case !ok:
				return events.Baseline{}, false
			case p.relevant != nil:
				done = sc.FeedRelevant(ev.Visible, *p.relevant)
			default:
				done = sc.FeedParsed(ev.Seq, ev.Visible, events.Catalog{Digest: p.digest, Activated: p.activated}, p.ok)
			}
		} else {
			done = sc.Feed(events.LogEvent{Seq: ev.Seq, Source: ev.Source, Visible: ev.Visible})
		}
		if done {
			break
		}
	}
	return sc.Baseline().Over(st.baseline), true
}

// parsedByDigest looks a source up by its contract.SourceDigestOf.
func (e *engine) parsedByDigest(d []byte) (parsedSource, bool) {
	var key [16]byte
	if len(d) != len(key) {
		return parsedSource{}, false
	}
	copy(key[:], d)
	return e.parsed.Get(key)
}

// firstPage is the size of a scan's first page. A scan that continues a
// remembered one (after > 0) must read every event up to the head, which
// the step's head says how many there are, so it asks for all of them at
// once (up to maxEventsPage); a scan from nothing expects the newest
// catalog near the head and starts small.
func firstPage(after uint64, hint *contract.SessionHead) int {
	if after == 0 || hint == nil || hint.Seq <= after {
		return firstEventsPage
	}
	return int(min(max(hint.Seq-after, firstEventsPage), maxEventsPage))
}

// scan reads events with seq > after, newest first, page by page (the
// first of size events, doubling up to maxEventsPage), until the newest
// visible readable catalog or the bound. It returns the head as of the
// first page; stable is false if the surface revision changed between
// pages.
func (e *engine) scan(ctx context.Context, host contract.Host, session string, after uint64, size int) (base events.Baseline, head contract.SessionHead, stable bool, err error) {
	sc := events.NewScanner(e.parse)
	var before uint64
	for first := true; ; first = false {
		page, err := host.ReadEvents(ctx, contract.EventsRequest{SessionID: session, BeforeSeq: before, AfterSeq: after, MaxEvents: size})
		if err != nil {
			return events.Baseline{}, contract.SessionHead{}, false, hostFailed("read session events: %w", err)
		}
		if first {
			head = page.Head
		} else if page.Head.SurfaceRevision != head.SurfaceRevision {
			return events.Baseline{}, contract.SessionHead{}, false, nil
		}
		for _, ev := range page.Events {
			// Pages run newest first and never revisit an event; a host
			// that breaks this would make the scan loop or stop early.
			if (before != 0 && ev.Seq >= before) || ev.Seq <= after {
				return events.Baseline{}, contract.SessionHead{}, false, hostFailed("read session events: host returned seq %d outside (%d, %d)", ev.Seq, after, before)
			}
			before = ev.Seq
			if sc.Feed(events.LogEvent{Seq: ev.Seq, Source: ev.Source, Visible: ev.Visible}) {
				return sc.Baseline(), head, true, nil
			}
		}
		if !page.More {
			return sc.Baseline(), head, true, nil
		}
		if len(page.Events) == 0 {
			return events.Baseline{}, contract.SessionHead{}, false, hostFailed("read session events: host reported more events but sent none")
		}
		if before <= after+1 {
			return sc.Baseline(), head, true, nil
		}
		if size < maxEventsPage {
			size *= 2
		}
	}
}

// baselineBytes is what a baseline keeps alive beyond its fixed size: the
// names and ids it remembers of relevant-skills messages.
func baselineBytes(b events.Baseline) int {
	n := 0
	for _, s := range b.Shown {
		n += len(s) + 16
	}
	for _, s := range b.Answered {
		n += len(s) + 16
	}
	return n + namesBytes(b.Activated)
}

// endSession forgets what the engine remembered about a session.
func (e *engine) endSession(session string) {
	e.sessions.Remove(session)
	e.reattachClean.Remove(session)
}
