package skills

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skilllock"
)

// RuntimeProvider is the provider label of skills registered with
// Registry.Register when RuntimeSkill.Provider is empty.
const RuntimeProvider = "runtime"

const (
	// defaultCacheEntries bounds the snapshot cache. One entry per live
	// (session, cwd, chain) is the steady state, and entries of equal
	// content share their view (an entry costs its key and a pointer), so
	// a host with this many live sessions still answers every step from
	// the cache.
	defaultCacheEntries = 16384
	// DefaultSnapshotCacheBytes is the snapshot cache's byte budget when
	// RegistryOptions leaves it 0: a view of 1,000 skills with 200-byte
	// descriptions costs some 360 KiB, so it holds about 180 distinct
	// views, and any number of sessions that share them.
	DefaultSnapshotCacheBytes = 64 << 20
	// maxConcurrentLists bounds how many strict providers are listed at
	// once for one snapshot, so a long chain cannot fan out without limit.
	// Each best-effort provider runs in a listing of its own (startList):
	// one per provider and listing request, however many snapshots wait.
	maxConcurrentLists = 8
)

// RuntimeSkill is a skill registered directly by the host at runtime.
type RuntimeSkill struct {
	Name        string
	Description string
	// Invocation is the skill's invocation policy; nil means DefaultPolicy.
	Invocation *skill.InvocationPolicy
	// Provider labels the skill's origin; empty means RuntimeProvider.
	Provider string
	// ResourceBase is where the skill's referenced files live; nil means
	// the host manages resources itself.
	ResourceBase *skill.ResourceBase
	// Content is the skill's instructions, returned verbatim by Get.
	Content string
	// Rank orders same-name skills within one scope: higher wins.
	Rank int
	// ArgumentHint says what a user may write after `/name`, for the
	// host's completion menu (skill.Summary.ArgumentHint).
	ArgumentHint string
	// WhenToUse says when the skill applies, beyond its description, for
	// the plugin's skill search (skill.Summary.WhenToUse); cut to
	// skill.MaxWhenToUseBytes.
	WhenToUse string
	// Paths scopes the skill to the files a session works with: glob
	// patterns, as a SKILL.md's `paths` (skill.ParsePaths reads them;
	// patterns it leaves out are dropped). The skill enters a session's
	// catalog once the session touched a matching file.
	Paths []string
	// Keywords are words the plugin's skill search should find the skill
	// by (skill.CleanKeywords applies). The search also ranks by the start
	// of Content (skill.SearchTextOf).
	Keywords []string
	// Directives are what the skill asks of the runtime (where it runs,
	// on which model, which tools it may use without approval); nil asks
	// for nothing. A runtime skill is the host's own: Get returns them
	// Trusted.
	Directives *skill.Directives
	// ArgumentNames name the positional arguments of `/name`, which
	// Content writes as `$name` (skill.Definition.ArgumentNames); names
	// skill.ValidArgumentName refuses bind nothing.
	ArgumentNames []string
}

// ProviderOptions configures a provider attachment.
type ProviderOptions struct {
	// Rank orders same-name skills within one scope: higher wins.
	Rank int
	// Label names the provider in its spans and metrics (the
	// skillcatalog.provider attribute); empty means the provider's Go
	// type. Keep the labels of a registry few: a metric keeps a series
	// per label. It also names the provider in Snapshot.Degraded.
	Label string
	// Availability says whether the provider's failure to list holds back
	// the whole snapshot (Strict) or only the provider's own skills
	// (BestEffort). DefaultAvailability, the zero value, lets the provider
	// decide (AvailabilityDeclarer): remote providers are best-effort,
	// every other provider strict.
	Availability Availability
	// TrustDirectives is the host's opt-in to act on the directives of
	// the provider's skills (skill.Directives: a fork, a model, tools to
	// pre-approve) as it acts on its own: Get marks them Trusted. Without
	// it, the directives of a skill with an Origin (a remote source's) are
	// requests, never Trusted, and any other skill's keep the mark its
	// provider gave them (agentskills marks its files' trusted). Opt in
	// per server: one provider per origin.
	TrustDirectives bool
}

// Query selects what a snapshot observes.
type Query struct {
	SessionID string
	// Cwd is the session's working directory, passed to providers.
	Cwd string
	// Chain lists the scope ids to consider, nearest first, for example
	// ["agent:reviewer", "global"]. Scopes not listed are ignored; a scope
	// listed twice counts at its first position.
	Chain []string
}

// Snapshot is the set of skills visible to a Query.
type Snapshot struct {
	// Skills holds one summary per visible name, including skills the model
	// may not invoke, sorted by name in byte order. The caller owns it.
	Skills []skill.Summary
	// Complete is false when some strict provider failed or reported an
	// incomplete observation; Skills then holds what could be observed. A
	// best-effort provider's failure leaves it true (see Degraded).
	Complete bool
	// Token is a revision token derived only from Skills' content, so equal
	// content yields an equal token across processes. It is empty when the
	// snapshot is incomplete.
	Token string
	// Diagnostics name the skill names that skills of more than one origin
	// share, and say under which qualified names the remote ones are listed
	// (see Registry.Snapshot). They are for the host's operators, never the
	// model.
	Diagnostics []string
	// Incomplete says why an incomplete snapshot is incomplete: one line
	// per provider that failed to list (naming it, its scope and its
	// error) or reported an incomplete observation, in the order of the
	// query's chain. It is for the host's operators, never the model.
	Incomplete []string
	// Degraded says which best-effort providers could not list, in the
	// order of the query's chain: one line per provider, naming it, its
	// scope and its error, and saying whether its last-good listing was
	// kept or it was left out. Skills is then complete for every other
	// source. A degraded snapshot is never cached, so the next snapshot
	// lists the provider again. It is for the host's operators, never the
	// model.
	Degraded []string
	// LockedOut are the skills the registry's lock (RegistryOptions.Lock)
	// left out, in name order: each with its reason (ReasonLockMismatch,
	// ReasonNotLocked) and a detail for the host's operators.
	LockedOut []LockedOut
}

// LoadError is returned by Registry.Get when the winning provider's Load
// fails. Err is the provider's error, whose text callers may show verbatim.
type LoadError struct {
	Name     string
	Provider string
	Err      error
}

func (e *LoadError) Error() string {
	return fmt.Sprintf("skills: load %q from provider %q: %v", e.Name, e.Provider, e.Err)
}

func (e *LoadError) Unwrap() error { return e.Err }

// Registry holds runtime skill registrations and providers, grouped by scope,
// and answers snapshot and load queries over them. It is safe for concurrent
// use. The zero value is not usable; call [NewRegistry].
type Registry struct {
	mu     sync.Mutex
	rev    uint64 // bumped on every change that can alter a snapshot
	seq    uint64 // registration order shared by runtime skills and providers
	ends   uint64 // EndSession calls so far
	scopes map[string]*scopeSources
	cache  *snapshotCache
	texts  *textVerdicts // whether a version of a resource file is text
	tel    providerTelemetry
	// lock and unlocked are RegistryOptions.Lock and Unlocked, fixed at
	// construction.
	lock     *skilllock.Lock
	unlocked UnlockedPolicy
	// digests is RegistryOptions.RecordDigests, or a lock: every listed
	// skill's ContentDigest is computed.
	digests bool
}

type scopeSources struct {
	runtime map[string]*runtimeEntry
	// sorted holds the entries of runtime in name order, so a snapshot of
	// the scope's runtime skills needs no sort; listed and from, when not
	// nil, are their summaries and sources, the snapshot itself, built
	// when a plan first needs it after a change and never modified: a
	// change drops them, leaving them to whoever holds them. token is the
	// snapshot's token, "" until computed after a change; journal tells
	// what changed since recent snapshots (SnapshotChanges), so a change
	// needs neither.
	sorted    []*runtimeEntry
	listed    []skill.Summary
	from      []source
	token     string
	journal   journal
	providers []*providerEntry // registration order
}

// put adds e under its name, or replaces the entry of that name.
func (src *scopeSources) put(e *runtimeEntry) {
	i, found := slices.BinarySearchFunc(src.sorted, e.def.Name, compareEntryName)
	if found {
		src.changed(e.def.Name, src.sorted[i], len(src.sorted))
		src.sorted[i] = e
	} else {
		src.changed(e.def.Name, nil, len(src.sorted)+1)
		src.sorted = slices.Insert(src.sorted, i, e)
	}
	src.runtime[e.def.Name] = e
}

// remove drops the entry of name, which must exist.
func (src *scopeSources) remove(name string) {
	i, _ := slices.BinarySearchFunc(src.sorted, name, compareEntryName)
	src.changed(name, src.sorted[i], len(src.sorted)-1)
	src.sorted = slices.Delete(src.sorted, i, i+1)
	delete(src.runtime, name)
}

// changed records a change of name, whose entry was before, leaving a
// scope of size skills: the snapshot and its token are dropped, and the
// journal keeps the change.
func (src *scopeSources) changed(name string, before *runtimeEntry, size int) {
	src.listed, src.from, src.token = nil, nil, ""
	src.journal.record(name, before, size)
}

// share returns the scope's snapshot and its token, building them if a
// change dropped them, for a plan to keep; the token is marked in the
// journal, since the snapshot is about to be handed out.
func (src *scopeSources) share() ([]skill.Summary, []source, string) {
	if src.listed == nil {
		src.listed = make([]skill.Summary, len(src.sorted))
		src.from = make([]source, len(src.sorted))
		for i, e := range src.sorted {
			src.listed[i], src.from[i] = e.def.Summary, source{runtime: e}
		}
	}
	token := src.currentToken()
	src.journal.mark(token, len(src.sorted))
	return src.listed, src.from, token
}

func compareEntryName(e *runtimeEntry, name string) int { return strings.Compare(e.def.Name, name) }

// runtimeEntry is immutable once published; replacing a registration
// publishes a new entry, so readers may hold one without the lock.
type runtimeEntry struct {
	def   skill.Definition
	rank  int
	order uint64
}

type providerEntry struct {
	r     *Registry
	p     Provider
	rank  int
	label string // ProviderOptions.Label, or the provider's type
	order uint64 // set under r.mu before publication
	// trustDirectives is ProviderOptions.TrustDirectives.
	trustDirectives bool
	invalidator     bool
	// good, for a best-effort provider, holds its last complete listings;
	// nil for a strict one.
	good    *lastGood
	removed bool // guarded by r.mu
}

// invalidate is handed to Invalidator providers. After removal it does
// nothing: the removal already bumped the revision.
func (e *providerEntry) invalidate() {
	e.r.mu.Lock()
	defer e.r.mu.Unlock()
	if !e.removed {
		e.r.bumpLocked()
	}
}

// RegistryOptions configures [NewRegistry]. Every field is optional: the
// zero value, like a nil *RegistryOptions, means the defaults.
type RegistryOptions struct {
	// SnapshotCacheBytes bounds the bytes the cache of complete snapshots
	// keeps alive: each distinct view's summaries (names, descriptions,
	// providers, origins, qualified names), sources and diagnostics, counted
	// once however many sessions share it, and every entry's key. Least
	// recently used entries are dropped to stay within it; their sessions'
	// next snapshots are computed afresh. 0 means DefaultSnapshotCacheBytes.
	SnapshotCacheBytes int
	// TracerProvider, when set, records a span for every call of a
	// provider (List, Load, ReadSkillResource, OpenSkillDirectory), a
	// child of the caller's span. nil records none.
	TracerProvider trace.TracerProvider
	// MeterProvider, when set, records the latency of every provider call
	// and counts the failed ones (see the package documentation). nil
	// records nothing.
	MeterProvider metric.MeterProvider
	// Lock, when set, pins every skill a snapshot lists to the content
	// digest the lock records for it (see the package documentation,
	// "Locked skills"): a skill whose content has another digest is left
	// out of every snapshot and not loaded (ReasonLockMismatch, in
	// Snapshot.LockedOut), never served in place of the locked one. nil
	// locks nothing.
	Lock *skilllock.Lock
	// Unlocked says what a registry with a Lock does with a skill the lock
	// does not name: UnlockedLeaveOut (the zero value) or UnlockedAllow.
	Unlocked UnlockedPolicy
	// RecordDigests sets the ContentDigest of every skill a snapshot
	// lists (as a Lock does), without a lock, so that a session's catalog
	// records say which version of each skill it listed. It costs a
	// digest of every listed skill (a read of a local skill's files) each
	// time a snapshot is computed rather than taken from the cache.
	RecordDigests bool
}

// NewRegistry returns an empty registry configured by opts; nil means every
// default ([DefaultSnapshotCacheBytes], no spans, no metrics). It fails
// when SnapshotCacheBytes is negative, with an error naming the option and
// its bound, and when the telemetry's instruments cannot be created.
func NewRegistry(opts *RegistryOptions) (*Registry, error) {
	var o RegistryOptions
	if opts != nil {
		o = *opts
	}
	if o.SnapshotCacheBytes < 0 {
		return nil, fmt.Errorf("skills: RegistryOptions.SnapshotCacheBytes %d is negative; want 0 (the default, %d) or more", o.SnapshotCacheBytes, DefaultSnapshotCacheBytes)
	}
	if o.SnapshotCacheBytes == 0 {
		o.SnapshotCacheBytes = DefaultSnapshotCacheBytes
	}
	if o.Unlocked > UnlockedAllow {
		return nil, fmt.Errorf("skills: RegistryOptions.Unlocked %d is not UnlockedLeaveOut (0) or UnlockedAllow (1)", o.Unlocked)
	}
	tel, err := newProviderTelemetry(o.TracerProvider, o.MeterProvider)
	if err != nil {
		return nil, err
	}
	return &Registry{
		tel:    tel,
		scopes: make(map[string]*scopeSources),
		cache:  newSnapshotCache(defaultCacheEntries, o.SnapshotCacheBytes),
		texts:  newTextVerdicts(textVerdictEntries),
		lock:   o.Lock, unlocked: o.Unlocked, digests: o.RecordDigests || o.Lock != nil,
	}, nil
}

// Register adds s to scope, or replaces the same-name registration in that
// scope while keeping its original registration order.
func (r *Registry) Register(scope string, s RuntimeSkill) error {
	if scope == "" {
		return fmt.Errorf("skills: register %q: scope is empty", s.Name)
	}
	if !skill.ValidName(s.Name) {
		return fmt.Errorf("skills: register in scope %q: invalid name %q: must match %s", scope, s.Name, skill.NamePattern)
	}
	if strings.TrimSpace(s.Description) == "" {
		return fmt.Errorf("skills: register %q in scope %q: description is empty", s.Name, scope)
	}
	if rb := s.ResourceBase; rb != nil {
		if err := rb.Validate(); err != nil {
			return fmt.Errorf("skills: register %q in scope %q: %w", s.Name, scope, err)
		}
	}
	policy := skill.DefaultPolicy()
	if s.Invocation != nil {
		policy = *s.Invocation
	}
	provider := s.Provider
	if provider == "" {
		provider = RuntimeProvider
	}
	def := skill.Definition{
		Summary: skill.Summary{
			Name:         s.Name,
			Description:  s.Description,
			Invocation:   policy,
			Provider:     provider,
			ArgumentHint: s.ArgumentHint,
			WhenToUse:    skill.CutText(s.WhenToUse, skill.MaxWhenToUseBytes),
			Keywords:     skill.CleanKeywords(s.Keywords),
			SearchText:   skill.SearchTextOf(s.Content),
			Paths:        runtimePaths(s.Paths),
		},
		ResourceBase:  s.ResourceBase.Clone(),
		Content:       s.Content,
		Directives:    ownDirectives(s.Directives),
		ArgumentNames: slices.Clone(s.ArgumentNames),
	}
	if err := checkDirectives(def.Directives); err != nil {
		return fmt.Errorf("skills: register %q in scope %q: %w", s.Name, scope, err)
	}
	if err := def.CheckUTF8(); err != nil {
		// Refused, as a SKILL.md whose frontmatter is not UTF-8 is: the
		// protocol cannot carry it, and every session would fail on it.
		return fmt.Errorf("skills: register %q in scope %q: %w", s.Name, scope, err)
	}
	e := &runtimeEntry{def: def, rank: s.Rank}

	r.mu.Lock()
	defer r.mu.Unlock()
	src := r.scopeLocked(scope)
	if old, ok := src.runtime[s.Name]; ok {
		e.order = old.order
	} else {
		r.seq++
		e.order = r.seq
	}
	src.put(e)
	r.bumpLocked()
	return nil
}

// Unregister removes the runtime registration of name in scope and reports
// whether there was one.
func (r *Registry) Unregister(scope, name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	src, ok := r.scopes[scope]
	if !ok {
		return false
	}
	if _, ok := src.runtime[name]; !ok {
		return false
	}
	src.remove(name)
	r.bumpLocked()
	return true
}

// AddProvider attaches p to scope and returns a function that detaches it;
// calling that function more than once is harmless. If p implements
// Invalidator, SetInvalidate is called once, before p becomes visible.
// Nil options mean the defaults. options.Availability says what p's failure
// to list does to a snapshot; an Availability other than the documented
// constants panics. Detaching a best-effort provider forgets its last-good
// listings.
// Snapshots involving a provider that does not implement Invalidator are
// never cached, because nothing would tell the registry when it changes.
func (r *Registry) AddProvider(scope string, p Provider, options *ProviderOptions) (remove func()) {
	if p == nil {
		panic("skills: AddProvider called with a nil Provider")
	}
	var opts ProviderOptions
	if options != nil {
		opts = *options
	}
	e := &providerEntry{r: r, p: p, rank: opts.Rank, label: providerLabel(p, opts), trustDirectives: opts.TrustDirectives}
	if bestEffort(p, opts.Availability) {
		e.good = newLastGood()
	}
	if inv, ok := p.(Invalidator); ok {
		e.invalidator = true
		// Outside the lock: the provider may invalidate synchronously.
		inv.SetInvalidate(e.invalidate)
	}

	r.mu.Lock()
	r.seq++
	e.order = r.seq
	src := r.scopeLocked(scope)
	src.providers = append(src.providers, e)
	r.bumpLocked()
	r.mu.Unlock()

	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			e.removed = true
			if src, ok := r.scopes[scope]; ok {
				src.providers = slices.DeleteFunc(src.providers, func(x *providerEntry) bool { return x == e })
			}
			r.bumpLocked()
		})
	}
}

// Invalidate drops every cached snapshot and bumps the revision.
func (r *Registry) Invalidate() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.bumpLocked()
}

// Revision returns the registry's revision, which changes whenever a
// registration changes or a provider or caller invalidates.
func (r *Registry) Revision() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rev
}

// Snapshot returns the skills visible to q. Providers of every scope in
// q.Chain are listed concurrently unless a complete snapshot for q is
// cached. The only error is ctx's, returned as soon as ctx is done; provider
// failures yield Complete=false instead. A best-effort provider is waited
// for at most its share of ctx's time (BestEffortShare) and is degraded
// past it (see the package documentation).
//
// The host's own skills (registered at runtime, or from providers whose
// summaries have no Origin) resolve a shared name by precedence: nearest
// scope, then higher rank, then registration order. A remote skill (one
// with an Origin) never takes a name from, nor loses it to, a skill of
// another identity: when its name is shared by a local skill, by another
// server's skill or by another skill of its own server, every remote skill
// of that name is listed under its QualifiedName ("docs:acme/refunds"), the
// local winner keeps the plain name, and Snapshot.Diagnostics says so.
func (r *Registry) Snapshot(ctx context.Context, q Query) (Snapshot, error) {
	s, err := r.SharedSnapshot(ctx, q)
	if err != nil {
		return Snapshot{}, err
	}
	s.Skills, s.Diagnostics, s.Incomplete = slices.Clone(s.Skills), slices.Clone(s.Diagnostics), slices.Clone(s.Incomplete)
	s.Degraded, s.LockedOut = slices.Clone(s.Degraded), slices.Clone(s.LockedOut)
	return s, nil
}

// SharedSnapshot is Snapshot without the copy: its slices are the
// registry's own, shared with its cache and every other caller, and must
// not be modified. The registry never changes a slice it has handed out (a
// later change builds a new one), so they may be kept for as long as needed.
// It is for callers that only read a large snapshot, such as a host
// sending it to a plugin.
func (r *Registry) SharedSnapshot(ctx context.Context, q Query) (Snapshot, error) {
	v, err := r.view(ctx, q)
	if err != nil {
		return Snapshot{}, err
	}
	return Snapshot{
		Skills: slices.Clip(v.skills), Complete: v.complete, Token: v.token,
		Diagnostics: slices.Clip(v.diagnostics), Incomplete: slices.Clip(v.incomplete), Degraded: slices.Clip(v.degraded),
		LockedOut: slices.Clip(v.locked),
	}, nil
}

// CachedToken returns the token of the cached complete snapshot for q, if
// there is one, without calling any provider. When every skill q sees is a
// runtime skill of one scope, there always is: their token is hashed once
// after each change, without building the snapshot.
func (r *Registry) CachedToken(q Query) (string, bool) {
	key := cacheKey(q)
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.cache.get(key, r.rev); ok {
		return v.token, true
	}
	if src, ok := r.onlyRuntimeLocked(q.Chain); ok {
		return src.currentToken(), true
	}
	return "", false
}

// Get loads the definition of the skill that wins name under q. The
// winner comes from q's snapshot (the cached one when available). A runtime
// winner returns its registration; a provider winner is asked to Load the
// name, and fields its definition leaves empty are filled from the listed
// summary. found is false when no source offers name (or the winning
// provider no longer does). A Load failure is returned as a *LoadError.
//
// An incomplete snapshot cannot prove that a name is absent: a provider
// whose listing failed may still offer it (the model may know it from the
// last catalog it saw). When such a snapshot does not list name, every
// provider whose listing failed or was incomplete is asked to Load it, in
// precedence order; the first that finds it wins, and when none does, the
// first Load failure is returned. A best-effort provider's failure leaves
// the snapshot complete, as the plugin takes it: a skill of its last-good
// listing is listed, and loading it asks that provider, whose error is
// returned as for any listed skill; a name the snapshot does not list is
// not found, and the failed provider is not asked for it.
func (r *Registry) Get(ctx context.Context, q Query, name string) (skill.Definition, bool, error) {
	def, _, found, err := r.get(ctx, q, name)
	return def, found, err
}

// get is Get, also returning the winning source.
func (r *Registry) get(ctx context.Context, q Query, name string) (skill.Definition, source, bool, error) {
	if err := ctx.Err(); err != nil {
		return skill.Definition{}, source{}, false, err
	}
	if !skill.ValidListedName(name) {
		return skill.Definition{}, source{}, false, nil
	}
	v, err := r.view(ctx, q)
	if err != nil {
		return skill.Definition{}, source{}, false, err
	}
	i, ok := slices.BinarySearchFunc(v.skills, name, func(s skill.Summary, n string) int { return strings.Compare(s.Name, n) })
	if !ok {
		def, src, found, err := loadUnlisted(ctx, q, name, v.unlisted)
		if err != nil || !found || r.lock == nil {
			return def, src, found, err
		}
		return r.lockUnlisted(ctx, q, def, src)
	}
	sum, src := v.skills[i], v.sources[i]
	if src.runtime != nil {
		def := src.runtime.def.Clone()
		def.ContentDigest = sum.ContentDigest
		return def, src, true, nil
	}
	def, found, err := src.provider.loadChecked(ctx, LoadRequest{SessionID: q.SessionID, Cwd: q.Cwd, Name: name})
	if err != nil {
		return skill.Definition{}, source{}, false, &LoadError{Name: name, Provider: sum.Provider, Err: err}
	}
	if !found {
		return skill.Definition{}, source{}, false, nil
	}
	if err := r.checkLoaded(ctx, q, sum, src, def); err != nil {
		return skill.Definition{}, source{}, false, &LoadError{Name: name, Provider: sum.Provider, Err: err}
	}
	// The listing says what the skill is called and where it comes from
	// (the origin and its kind): a remote skill may be listed under its
	// qualified name.
	if def.Name == "" || sum.Origin != "" {
		def.Name = sum.Name
	}
	def.Origin, def.OriginKind, def.QualifiedName = sum.Origin, sum.OriginKind, sum.QualifiedName
	// The version the listing digested (and a lock checked again above).
	def.ContentDigest = sum.ContentDigest
	if def.Description == "" {
		def.Description = sum.Description
	}
	if def.Provider == "" {
		def.Provider = sum.Provider
	}
	if def.Invocation == (skill.InvocationPolicy{}) {
		def.Invocation = sum.Invocation
	}
	src.provider.markTrust(&def)
	return def, src, true, nil
}

// EndSession drops the session's cached snapshots and the best-effort
// providers' last-good listings for it, and forwards the call to every
// attached provider implementing SessionEnder (once per attachment).
func (r *Registry) EndSession(sessionID string) {
	var enders []SessionEnder
	var goods []*lastGood
	r.mu.Lock()
	r.ends++
	r.cache.dropSession(sessionID)
	for _, src := range r.scopes {
		for _, e := range src.providers {
			if se, ok := e.p.(SessionEnder); ok {
				enders = append(enders, se)
			}
			if e.good != nil {
				goods = append(goods, e.good)
			}
		}
	}
	r.mu.Unlock()
	for _, g := range goods {
		g.dropSession(sessionID)
	}
	for _, se := range enders {
		se.EndSession(sessionID)
	}
}

func (r *Registry) scopeLocked(scope string) *scopeSources {
	src, ok := r.scopes[scope]
	if !ok {
		src = &scopeSources{runtime: make(map[string]*runtimeEntry)}
		r.scopes[scope] = src
	}
	return src
}

// bumpLocked advances the revision. Every cached entry was keyed by an older
// revision and can never be hit again, so the cache is emptied at once.
func (r *Registry) bumpLocked() {
	r.rev++
	r.cache.clear()
}

// source is where a snapshot's winning summary came from: exactly one of
// runtime or provider is set.
type source struct {
	runtime  *runtimeEntry
	provider *providerEntry
}

// view is a computed snapshot plus the winning source of each skill, in the
// same order. Cached views are shared and never modified.
type view struct {
	skills   []skill.Summary
	sources  []source
	complete bool
	token    string
	// unlisted are the providers whose listing failed or was incomplete,
	// in precedence order: they may offer skills the view does not list.
	unlisted []*providerEntry
	// diagnostics say which names were shared across origins and how the
	// remote skills among them are listed instead.
	diagnostics []string
	// incomplete says which providers made the view incomplete, and why.
	incomplete []string
	// degraded says which best-effort providers could not list, and what
	// stood in for them. A degraded view is never cached.
	degraded []string
	// locked are the skills the registry's lock left out.
	locked []LockedOut
}

// loadUnlisted asks the providers of an incomplete snapshot for a name the
// snapshot does not list (see Get).
func loadUnlisted(ctx context.Context, q Query, name string, providers []*providerEntry) (skill.Definition, source, bool, error) {
	var firstErr error
	for _, e := range providers {
		def, found, err := e.loadChecked(ctx, LoadRequest{SessionID: q.SessionID, Cwd: q.Cwd, Name: name})
		if ctx.Err() != nil {
			return skill.Definition{}, source{}, false, ctx.Err()
		}
		switch {
		case err != nil:
			if firstErr == nil {
				firstErr = &LoadError{Name: name, Provider: def.Provider, Err: err}
			}
			continue
		case !found:
			continue
		}
		if def.Name == "" || def.Origin != "" {
			def.Name = name
		}
		if def.Invocation == (skill.InvocationPolicy{}) {
			// Without a listed summary to fill it from, a policy the
			// provider leaves unset is the default one.
			def.Invocation = skill.DefaultPolicy()
		}
		e.markTrust(&def)
		return def, source{provider: e}, true, nil
	}
	return skill.Definition{}, source{}, false, firstErr
}

// plan is what a snapshot computation captured under the lock.
type plan struct {
	rev       uint64
	ends      uint64
	cacheable bool
	runtime   []candidate
	providers []*providerEntry
	provScope []int // chain position of each provider
	// listed and from, when the chain's only skills are the runtime skills
	// of one scope, are their summaries and sources in name order: the
	// view as it is (and runtime is left empty).
	listed []skill.Summary
	from   []source
	token  string
}

type candidate struct {
	sum   skill.Summary
	scope int // position in the deduplicated chain: lower is nearer
	rank  int
	order uint64
	sub   int // position within one provider's observation
	src   source
}

func (r *Registry) view(ctx context.Context, q Query) (*view, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key := cacheKey(q)
	r.mu.Lock()
	if v, ok := r.cache.get(key, r.rev); ok {
		r.mu.Unlock()
		return v, nil
	}
	p := r.planLocked(q)
	r.mu.Unlock()

	req := ListRequest{SessionID: q.SessionID, Cwd: q.Cwd}
	results, err := listAll(ctx, req, p.providers)
	if err != nil {
		return nil, err
	}
	degraded := standIn(q, p, req, results)
	v := merge(p, results)
	v.degraded = degraded
	if !v.complete {
		v.incomplete = whyIncomplete(q, p, results)
	}
	if r.digests {
		if v, err = r.applyLock(ctx, q, v); err != nil {
			return nil, err
		}
	}
	// A degraded view is not kept: the next snapshot lists the failed
	// provider again, and replaces its stand-in when it answers. Nor is one
	// a lock left skills out of: every step says so (LockedOut) until the
	// skills match again.
	if v.complete && p.cacheable && len(degraded) == 0 && len(v.locked) == 0 {
		r.mu.Lock()
		// A change during the computation may or may not be reflected in v,
		// so v is only kept if nothing changed. An ending session must not
		// get an entry back from a computation that raced with EndSession.
		if r.rev == p.rev && r.ends == p.ends {
			v = r.cache.put(key, q.SessionID, p.rev, v)
		}
		r.mu.Unlock()
	}
	return v, nil
}

func (r *Registry) planLocked(q Query) plan {
	p := plan{rev: r.rev, ends: r.ends, cacheable: true}
	if only, ok := r.onlyRuntimeLocked(q.Chain); ok {
		p.listed, p.from, p.token = only.share()
		return p
	}
	n := 0
	for _, scope := range q.Chain {
		if src, ok := r.scopes[scope]; ok {
			n += len(src.runtime)
		}
	}
	p.runtime = make([]candidate, 0, n) // an upper bound when the chain repeats a scope
	seen := make(map[string]bool, len(q.Chain))
	pos := 0
	for _, scope := range q.Chain {
		if seen[scope] {
			continue
		}
		seen[scope] = true
		src, ok := r.scopes[scope]
		if ok {
			for _, e := range src.sorted {
				p.runtime = append(p.runtime, candidate{
					sum: e.def.Summary, scope: pos, rank: e.rank, order: e.order, src: source{runtime: e},
				})
			}
			for _, e := range src.providers {
				p.providers = append(p.providers, e)
				p.provScope = append(p.provScope, pos)
				if !e.invalidator {
					p.cacheable = false
				}
			}
		}
		pos++
	}
	return p
}

// onlyRuntimeLocked returns the one scope of chain that holds skills, when
// it holds runtime skills only and no other scope of chain holds any.
func (r *Registry) onlyRuntimeLocked(chain []string) (*scopeSources, bool) {
	if r.digests {
		return nil, false // every snapshot is digested (and checked against a lock)
	}
	var only *scopeSources
	for _, scope := range chain {
		src, ok := r.scopes[scope]
		if !ok || src == only || len(src.runtime) == 0 && len(src.providers) == 0 {
			continue
		}
		if only != nil || len(src.providers) > 0 {
			return nil, false
		}
		only = src
	}
	return only, only != nil
}

// whyIncomplete names each provider whose listing failed or was
// incomplete, with its scope and error: the registry keeps what a provider
// said, which would otherwise be lost in Complete=false.
func whyIncomplete(q Query, p plan, results []listResult) []string {
	scopes := chainScopes(q.Chain)
	var out []string
	for i, res := range results {
		if res.err == nil && res.obs.Complete {
			continue
		}
		who := fmt.Sprintf("provider %T in scope %q", p.providers[i].p, scopes[p.provScope[i]])
		if res.err != nil {
			out = append(out, who+": "+failure(res))
		} else {
			out = append(out, who+" "+failure(res))
		}
	}
	return out
}

type listResult struct {
	obs Observation
	err error
}

// listAll lists every provider: the strict ones with at most
// maxConcurrentLists in flight, the best-effort ones each in a listing of
// its own (startList), waited for at most their share of ctx's time
// (bestEffortWait) and reported as ErrStillListing past it. It returns as
// soon as ctx is done; strict providers still running then are expected to
// honour ctx and finish on their own.
func listAll(ctx context.Context, req ListRequest, providers []*providerEntry) ([]listResult, error) {
	if len(providers) == 0 {
		return nil, nil
	}
	results := make([]listResult, len(providers))
	wait := bestEffortWait(ctx, time.Now())
	var flights []*listFlight
	var strict []int
	for i, e := range providers {
		if e.good == nil {
			strict = append(strict, i)
			continue
		}
		if flights == nil {
			flights = make([]*listFlight, len(providers))
		}
		flights[i] = e.startList(ctx, req)
	}
	if err := listStrict(ctx, req, providers, strict, results); err != nil {
		return nil, err
	}
	for i, f := range flights {
		if f == nil {
			continue
		}
		res, err := f.wait(ctx, wait)
		if err != nil {
			return nil, err
		}
		results[i] = res
	}
	return results, nil
}

// listStrict lists the providers at the indexes strict into results, with
// at most maxConcurrentLists in flight, and returns ctx's error as soon as
// ctx is done.
func listStrict(ctx context.Context, req ListRequest, providers []*providerEntry, strict []int, results []listResult) error {
	if len(strict) == 0 {
		return nil
	}
	workers := min(len(strict), maxConcurrentLists)
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(strict) {
					return
				}
				i := strict[k]
				if err := ctx.Err(); err != nil {
					results[i].err = err
					continue
				}
				obs, err := providers[i].list(ctx, req)
				results[i] = listResult{obs: obs, err: err}
			}
		}()
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
	// Checked after done too: a provider may have returned early because ctx
	// ended, and that must not pass for a provider failure.
	return ctx.Err()
}

func merge(p plan, results []listResult) *view {
	if p.listed != nil {
		return sortedView(p.listed, p.from, p.token)
	}
	cands, unlisted, complete := collect(p, results)
	idx := sortedByName(cands)
	v := resolve(cands, idx)
	v.complete = complete
	if complete {
		v.token = snapshotToken(v.skills)
	}
	// Precedence as for candidates of one name: nearest scope, then higher
	// rank, then registration order.
	slices.SortStableFunc(unlisted, func(i, j int) int {
		a, b := p.providers[i], p.providers[j]
		return cmp.Or(cmp.Compare(p.provScope[i], p.provScope[j]), cmp.Compare(b.rank, a.rank), cmp.Compare(a.order, b.order))
	})
	for _, i := range unlisted {
		v.unlisted = append(v.unlisted, p.providers[i])
	}
	return v
}

// sortedView is the complete view of the runtime skills of one scope,
// given in name order with their sources: nothing shares a name, so each
// is listed as it is. The view keeps the slices, which nobody modifies.
func sortedView(listed []skill.Summary, from []source, token string) *view {
	return &view{skills: listed, sources: from, complete: true, token: token}
}

// collect gathers the runtime candidates and every listable summary the
// providers returned, and the providers whose listing failed or was
// incomplete (indexes into p.providers).
func collect(p plan, results []listResult) (cands []candidate, unlisted []int, complete bool) {
	complete = true
	n := len(p.runtime)
	for _, res := range results {
		n += len(res.obs.Skills)
	}
	cands = slices.Grow(p.runtime, n-len(p.runtime))
	for i, res := range results {
		if res.err != nil || !res.obs.Complete {
			complete = false
			unlisted = append(unlisted, i)
		}
		if res.err != nil {
			continue
		}
		e := p.providers[i]
		for j, s := range res.obs.Skills {
			// A name outside the grammar could never be invoked, so it is
			// not offered at all.
			if !listable(s) {
				continue
			}
			cands = append(cands, candidate{
				sum: s, scope: p.provScope[i], rank: e.rank, order: e.order, sub: j, src: source{provider: e},
			})
		}
	}
	return cands, unlisted, complete
}

// listable reports whether a provider's summary can be listed: a valid name,
// text that is all UTF-8 (the protocol carries no other) and, for a remote skill, a valid qualified name under its own origin, so
// that it can be listed under that name when its name collides, and an
// origin kind package skill defines, so that the plugin can name its source.
func listable(s skill.Summary) bool {
	if !skill.ValidName(s.Name) || s.CheckUTF8() != nil {
		return false
	}
	if s.Origin == "" {
		return s.QualifiedName == ""
	}
	if !s.OriginKind.Valid() {
		return false
	}
	label, _, _ := strings.Cut(s.QualifiedName, string(skill.QualifierSeparator))
	return label == s.Origin && skill.ValidQualifiedName(s.QualifiedName)
}

// sortedByName returns the candidates' indexes in name order, the best
// candidate of each name first: nearest scope, higher rank, earlier
// registration, earlier in its provider's listing. Sorting indices rather
// than the wide candidates keeps the sort from moving pointer-laden structs
// around.
func sortedByName(cands []candidate) []int32 {
	idx := make([]int32, len(cands))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(i, j int32) int {
		a, b := &cands[i], &cands[j]
		// Names almost always differ, so decide on them before building
		// the tie-breakers (cmp.Or would evaluate all of them).
		if c := strings.Compare(a.sum.Name, b.sum.Name); c != 0 {
			return c
		}
		return precedence(a, b)
	})
	return idx
}

func precedence(a, b *candidate) int {
	return cmp.Or(
		cmp.Compare(a.scope, b.scope),
		cmp.Compare(b.rank, a.rank), // higher rank first
		cmp.Compare(a.order, b.order),
		cmp.Compare(a.sub, b.sub),
	)
}

// resolve picks, for each name, what the view lists. The host's own skills
// (runtime and on disk) shadow each other: the best candidate wins the
// name. A remote skill never shadows, nor is it shadowed by, a skill of
// another origin: when its name is shared by a skill of any other identity
// (a local skill, another server's, another of its own server's), every
// remote skill of that name is listed under its qualified name instead, the
// local winner keeps the plain name, and a diagnostic names the collision.
// The same remote skill offered through more than one scope is one
// identity: its best candidate counts.
func resolve(cands []candidate, idx []int32) *view {
	v := &view{
		skills:  make([]skill.Summary, 0, len(idx)),
		sources: make([]source, 0, len(idx)),
	}
	var qualified []int32 // remote candidates listed under their qualified names
	for start := 0; start < len(idx); {
		end := start + 1
		for end < len(idx) && cands[idx[end]].sum.Name == cands[idx[start]].sum.Name {
			end++
		}
		group := idx[start:end]
		start = end
		if !collides(cands, group) {
			c := &cands[group[0]]
			v.skills = append(v.skills, c.sum)
			v.sources = append(v.sources, c.src)
			continue
		}
		local := -1
		for k, i := range group {
			if cands[i].sum.Origin == "" && local < 0 {
				local = k
			} else if cands[i].sum.Origin != "" {
				qualified = append(qualified, i)
			}
		}
		if local >= 0 {
			c := &cands[group[local]]
			v.skills = append(v.skills, c.sum)
			v.sources = append(v.sources, c.src)
		}
		v.diagnostics = append(v.diagnostics, collisionDiagnostic(cands, group, local >= 0))
	}
	if len(qualified) > 0 {
		v.mergeQualified(cands, qualified)
	}
	return v
}

// collides reports whether a group of same-name candidates holds a remote
// skill and a skill of another identity.
func collides(cands []candidate, group []int32) bool {
	if len(group) < 2 {
		return false
	}
	remote := false
	first := identity(&cands[group[0]])
	same := true
	for _, i := range group {
		remote = remote || cands[i].sum.Origin != ""
		same = same && identity(&cands[i]) == first
	}
	return remote && !same
}

// identity tells skills of one name apart across origins: every local
// candidate is one identity (they shadow each other), a remote one is its
// qualified name.
func identity(c *candidate) string {
	return c.sum.QualifiedName
}

// mergeQualified adds the remote candidates of colliding names under their
// qualified names (the best candidate of each, when a server's skill is
// offered through more than one scope) and keeps the view sorted.
func (v *view) mergeQualified(cands []candidate, qualified []int32) {
	slices.SortFunc(qualified, func(i, j int32) int {
		a, b := &cands[i], &cands[j]
		if c := strings.Compare(a.sum.QualifiedName, b.sum.QualifiedName); c != 0 {
			return c
		}
		return precedence(a, b)
	})
	extra := make([]skill.Summary, 0, len(qualified))
	extraSrc := make([]source, 0, len(qualified))
	for k, i := range qualified {
		c := &cands[i]
		if k > 0 && cands[qualified[k-1]].sum.QualifiedName == c.sum.QualifiedName {
			if prev := &cands[qualified[k-1]]; prev.src.provider != c.src.provider {
				plural, one := labelSharers(prev.sum.OriginKind, c.sum.OriginKind)
				v.diagnostics = append(v.diagnostics, fmt.Sprintf(
					"skill %q is offered by two %s labelled %q; give each %s a label of its own (the nearer, higher-ranked one is listed)",
					c.sum.QualifiedName, plural, c.sum.Origin, one))
			}
			continue
		}
		sum := c.sum
		sum.Name = sum.QualifiedName
		extra = append(extra, sum)
		extraSrc = append(extraSrc, c.src)
	}
	skills := make([]skill.Summary, 0, len(v.skills)+len(extra))
	sources := make([]source, 0, len(v.skills)+len(extra))
	i, j := 0, 0
	for i < len(v.skills) || j < len(extra) {
		if j == len(extra) || (i < len(v.skills) && v.skills[i].Name < extra[j].Name) {
			skills, sources = append(skills, v.skills[i]), append(sources, v.sources[i])
			i++
			continue
		}
		skills, sources = append(skills, extra[j]), append(sources, extraSrc[j])
		j++
	}
	v.skills, v.sources = skills, sources
}

// labelSharers names, for a diagnostic, two remote sources of the given
// kinds that share a label, in the plural and one of them: "remote
// servers" and "server" when both are MCP servers (as every source was
// before websites), "websites" and "website" when both are websites,
// "remote sources" and "source" otherwise.
func labelSharers(a, b skill.OriginKind) (plural, one string) {
	switch {
	case a != b:
		return "remote sources", "source"
	case a == skill.OriginWebsite:
		return "websites", "website"
	}
	return "remote servers", "server"
}

// collisionDiagnostic says which origins share a name and how each remote
// skill is listed instead.
func collisionDiagnostic(cands []candidate, group []int32, local bool) string {
	var origins, names []string
	if local {
		origins = append(origins, "this host")
	}
	for _, i := range group {
		s := &cands[i].sum
		if s.Origin == "" || slices.Contains(names, strconv.Quote(s.QualifiedName)) {
			continue
		}
		if o := s.OriginKind.String() + " " + strconv.Quote(s.Origin); !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
		names = append(names, strconv.Quote(s.QualifiedName))
	}
	return fmt.Sprintf("skill name %q is shared by skills of %s: the remote ones are listed as %s",
		cands[group[0]].sum.Name, strings.Join(origins, ", "), strings.Join(names, ", "))
}

// cacheKey encodes (session, cwd, chain) unambiguously: every part is
// length-prefixed, so no two different queries share a key.
func cacheKey(q Query) string {
	n := len(q.SessionID) + len(q.Cwd) + 3*binary.MaxVarintLen64
	for _, s := range q.Chain {
		n += len(s) + binary.MaxVarintLen64
	}
	b := make([]byte, 0, n)
	b = appendString(b, q.SessionID)
	b = appendString(b, q.Cwd)
	b = binary.AppendUvarint(b, uint64(len(q.Chain)))
	for _, s := range q.Chain {
		b = appendString(b, s)
	}
	return string(b)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// runtimePaths is the skill.Summary.Paths of a runtime skill's patterns.
func runtimePaths(values []string) string {
	patterns, _ := skill.ParsePaths(values)
	return skill.JoinPaths(patterns)
}
