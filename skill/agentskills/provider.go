package agentskills

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/fsnotify/fsnotify"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// ProviderLabel is the Provider field of every summary this package
// produces.
const ProviderLabel = "agentskills"

// ErrClosed is returned by List and Load after Close.
var ErrClosed = errors.New("agentskills: provider is closed")

// Severity of a diagnostic.
type Severity string

const (
	// SeverityWarning: the skill still loads, or nothing was lost.
	SeverityWarning Severity = "warning"
	// SeverityError: a skill was skipped, or a root could not be read.
	SeverityError Severity = "error"
)

// Diagnostic describes a problem found while scanning.
type Diagnostic struct {
	// Path is the file or directory concerned.
	Path string
	// Skill is the skill's name when known, else its directory name; empty
	// for problems with a whole root.
	Skill    string
	Severity Severity
	Message  string
	// Reason is, for an error that kept a skill from loading, the short
	// cause a Survey counts it under (one of the Reason constants); ""
	// for every other diagnostic.
	Reason string
}

// String formats d on one line. The path and the message (which may quote
// a path) are shown as skill.QuoteUnsafe writes them, since directory names
// may hold newlines and terminal escapes.
func (d Diagnostic) String() string {
	path, msg := skill.QuoteUnsafe(d.Path), skill.QuoteUnsafe(d.Message)
	if d.Skill != "" {
		return fmt.Sprintf("%s: %s: skill %q: %s", d.Severity, path, d.Skill, msg)
	}
	return fmt.Sprintf("%s: %s: %s", d.Severity, path, msg)
}

// reason is d as one line of skills.Observation.Incomplete: its path, when
// it has one, and its message, without the severity.
func (d Diagnostic) reason() string {
	if d.Path == "" {
		return skill.QuoteUnsafe(d.Message)
	}
	return skill.QuoteUnsafe(d.Path) + ": " + skill.QuoteUnsafe(d.Message)
}

// Skill is a discovered skill with everything the provider knows about it.
// Frontmatter maps are shared with the provider's cache and must not be
// modified.
type Skill struct {
	Name        string
	Description string
	Invocation  skill.InvocationPolicy
	// Dir is the skill's directory as found under its root (symbolic links
	// not resolved); it is the skill's resource base.
	Dir string
	// File is Dir's SKILL.md.
	File string
	// Root is the skill root Dir sits in.
	Root  string
	Scope Scope
	// Frontmatter holds every field, including metadata that never
	// reaches a catalog.
	Frontmatter Frontmatter
	// SearchText is the start of the instructions' prose
	// (skill.SearchTextOf), which the plugin's skill search ranks by.
	SearchText string
}

// Provider is a skills.Provider (and skills.Invalidator) over Agent Skills
// directories. It is safe for concurrent use.
type Provider struct {
	cfg   config
	ws    *watchSet   // nil without Options.Watch
	files *frontCache // parsed frontmatter by SKILL.md path and version

	closing   chan struct{}
	loopDone  chan struct{}
	closeOnce sync.Once

	// scanMu serializes scans, so that watch bookkeeping and the entry
	// budget see one scan at a time. Cached answers do not take it.
	scanMu sync.Mutex

	mu          sync.Mutex
	invalidate  func()
	closed      bool
	gen         uint64 // bumped by every relevant change
	watchFailed bool   // a watcher error since the last scan
	roots       map[string]*rootScan
	resolved    map[resKey]*resolution
	// recent is the latest resolution of each key, watching or not, for
	// ContentDigest to find a listed skill's directory without scanning
	// every root again (at most maxRecentResolutions keys).
	recent    map[resKey]*resolution
	diags     map[string][]Diagnostic // by working directory, latest scan
	seenRoots map[string]bool         // roots found existing by some scan
}

var (
	_ skills.Provider    = (*Provider)(nil)
	_ skills.Invalidator = (*Provider)(nil)
)

type resKey struct {
	cwd, projectRoot string
	trusted          bool
}

// resolution is the merged view of all roots for one working directory.
type resolution struct {
	roots     []string // the roots read, in precedence order
	skills    []Skill  // sorted by name
	summaries []skill.Summary
	byName    map[string]int
	complete  bool
	unwatched bool
	diags     []Diagnostic
	// why says what made the resolution incomplete (skills.Observation.Incomplete).
	why []string
}

// New validates opts and returns a provider; nil means every default (see
// [Options]). With opts.Watch it starts a file watcher; call Close to stop
// it.
func New(opts *Options) (*Provider, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	p := &Provider{
		cfg:       cfg,
		files:     newFrontCache(frontCacheMaxEntries, frontCacheMaxBytes),
		closing:   make(chan struct{}),
		loopDone:  make(chan struct{}),
		roots:     make(map[string]*rootScan),
		resolved:  make(map[resKey]*resolution),
		recent:    make(map[resKey]*resolution),
		diags:     make(map[string][]Diagnostic),
		seenRoots: make(map[string]bool),
	}
	if cfg.watch {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			return nil, fmt.Errorf("agentskills: starting file watcher: %w", err)
		}
		p.ws = newWatchSet(w)
		go p.watchLoop()
	} else {
		close(p.loopDone)
	}
	return p, nil
}

// SetInvalidate implements skills.Invalidator. With Options.Watch, f is
// called (from the watcher's goroutine) once per coalesced burst of
// relevant changes. Without it, nothing can tell when the directories
// change, so every List ends by calling f, which keeps a registry from
// caching snapshots that involve this provider.
func (p *Provider) SetInvalidate(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.invalidate = f
}

// Invalidate drops every cached scan, forgets which roots existed (so a
// root removed on purpose then lists as empty instead of incomplete), and
// calls the invalidate callback. Hosts call it after a trust decision
// changes.
func (p *Provider) Invalidate() {
	p.dropCaches(false)
	p.mu.Lock()
	clear(p.seenRoots)
	p.mu.Unlock()
	p.fireInvalidate()
}

func (p *Provider) dropCaches(watchErr bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen++
	clear(p.roots)
	clear(p.resolved)
	if watchErr {
		p.watchFailed = true
	}
}

func (p *Provider) fireInvalidate() {
	p.mu.Lock()
	f := p.invalidate
	p.mu.Unlock()
	if f != nil {
		f()
	}
}

// Close stops the watcher. List and Load fail afterwards.
func (p *Provider) Close() error {
	var err error
	p.closeOnce.Do(func() {
		p.mu.Lock()
		p.closed = true
		p.mu.Unlock()
		p.files.clear()
		if p.ws != nil {
			close(p.closing)
			err = p.ws.w.Close()
			<-p.loopDone
		}
	})
	if err != nil {
		return fmt.Errorf("agentskills: closing file watcher: %w", err)
	}
	return nil
}

// List implements skills.Provider. The observation is incomplete when a
// root could not be listed, a SKILL.md could not be read for a reason that
// may pass (see the package documentation), the MaxDirs budget ran out, or
// the watcher reported an error since the previous scan.
func (p *Provider) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	res, err := p.resolve(ctx, req.Cwd, true)
	if err != nil {
		return skills.Observation{}, err
	}
	if p.ws == nil || res.unwatched {
		p.fireInvalidate()
	}
	obs := skills.Observation{Skills: slices.Clone(res.summaries), Complete: res.complete}
	if !res.complete {
		obs.Incomplete = slices.Clone(res.why)
	}
	return obs, nil
}

// Load implements skills.Provider. It picks the skill List would offer for
// req.Cwd and reads its SKILL.md now, so the body and the directives are
// always current (a changed `model:` reaches the next load). Its
// directives are Trusted: the file is the host's own. found
// is false when no such skill is offered, including when the file changed
// into something that no longer declares a valid skill of that name.
func (p *Provider) Load(ctx context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	res, err := p.resolve(ctx, req.Cwd, false)
	if err != nil {
		return skill.Definition{}, false, err
	}
	i, ok := res.byName[req.Name]
	if !ok {
		if !res.complete {
			return skill.Definition{}, false, fmt.Errorf("agentskills: skill %q not found, and some skill roots could not be read", req.Name)
		}
		return skill.Definition{}, false, nil
	}
	sk := res.skills[i]
	// Read through the skill's directory, opened once, as the host's
	// resource reads are (see OpenSkillDirectory).
	data, err := loadSkillFile(sk.Dir)
	if err != nil {
		if errors.Is(err, errSkillFileGone) {
			return skill.Definition{}, false, nil
		}
		return skill.Definition{}, false, fmt.Errorf("agentskills: loading skill %q from %s: %w", req.Name, sk.File, err)
	}
	if !utf8.Valid(data) {
		// Refused as a file whose frontmatter is not UTF-8 is, and as
		// `validate` calls it invalid: the protocol carries UTF-8 only.
		return skill.Definition{}, false, fmt.Errorf("agentskills: loading skill %q: %w", req.Name, skill.CheckUTF8(sk.File, string(data)))
	}
	pr, body := parseWhole(data)
	fm, _, err := p.cfg.lenience().interpret(pr, filepath.Base(sk.Dir))
	if err != nil || fm.Name != req.Name {
		return skill.Definition{}, false, nil
	}
	return skill.Definition{
		Summary:       fm.summary(fm.Name, skill.SearchTextOf(body)),
		ResourceBase:  &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: sk.Dir},
		Content:       body,
		Directives:    trusted(fm.Directives),
		ArgumentNames: fm.ArgumentNames,
	}, true, nil
}

// trusted returns a copy of d marked Trusted: a SKILL.md on disk is the
// host's own, in a directory it chose to read (a project's only when it
// trusts the project).
func trusted(d *skill.Directives) *skill.Directives {
	d = d.Clone()
	if d != nil {
		d.Trusted = true
	}
	return d
}

// Skills returns the skills offered for a working directory, sorted by
// name, with their full frontmatter, and whether every root was read.
func (p *Provider) Skills(ctx context.Context, cwd string) ([]Skill, bool, error) {
	res, err := p.resolve(ctx, cwd, false)
	if err != nil {
		return nil, false, err
	}
	return slices.Clone(res.skills), res.complete, nil
}

// Diagnostics returns the diagnostics of the latest scan of every working
// directory listed so far, sorted by path.
func (p *Provider) Diagnostics() []Diagnostic {
	p.mu.Lock()
	var out []Diagnostic
	for _, d := range p.diags {
		out = append(out, d...)
	}
	p.mu.Unlock()
	return sortDiags(out)
}

func sortDiags(ds []Diagnostic) []Diagnostic {
	slices.SortFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Skill, b.Skill),
			cmp.Compare(a.Severity, b.Severity), cmp.Compare(a.Message, b.Message))
	})
	return slices.Compact(ds)
}

// resolve returns the merged view for cwd, from the cache when watching.
// Only List consumes a pending watcher error, so that the next observation
// the host sees reports it.
func (p *Provider) resolve(ctx context.Context, cwd string, consume bool) (*resolution, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cwd, err := cleanCwd(cwd)
	if err != nil {
		return nil, err
	}
	lay, key := p.locate(cwd)
	if res, err := p.cached(key); res != nil || err != nil {
		return res, err
	}
	p.scanMu.Lock()
	defer p.scanMu.Unlock()
	if res, err := p.cached(key); res != nil || err != nil {
		return res, err
	}

	gen, watchFailed := p.startScan(consume)
	roots, diags := p.rootsFor(lay, key.trusted)
	m := newMerger(len(roots), diags, watchFailed)
	for _, spec := range roots {
		s := p.scan(ctx, spec, max(0, p.cfg.maxDirs-m.used), gen)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m.add(spec, s, p.cfg.maxDirs)
	}
	res := m.finish()
	for _, spec := range roots {
		res.roots = append(res.roots, spec.path)
	}
	p.store(ctx, key, cwd, res, gen)
	return res, nil
}

// cleanCwd validates a request's working directory and cleans it; ""
// means none.
func cleanCwd(cwd string) (string, error) {
	if cwd == "" {
		return "", nil
	}
	if !filepath.IsAbs(cwd) {
		return "", fmt.Errorf("agentskills: working directory %q is not absolute", cwd)
	}
	return filepath.Clean(cwd), nil
}

// locate returns the project layout of cwd and the key its resolution is
// cached under, which includes the current trust decision so that a new
// decision is never answered from the old one's cache.
func (p *Provider) locate(cwd string) (layout, resKey) {
	lay := p.cfg.projectLayout(cwd)
	trusted := lay.projectRoot != "" && p.cfg.trust != nil && p.cfg.trust(lay.projectRoot)
	return lay, resKey{cwd: cwd, projectRoot: lay.projectRoot, trusted: trusted}
}

// startScan returns the generation a scan starts under (a change after it
// keeps the scan out of the cache) and whether the watcher failed since
// the previous scan; consume clears that failure.
func (p *Provider) startScan(consume bool) (gen uint64, watchFailed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	gen, watchFailed = p.gen, p.watchFailed
	if consume {
		p.watchFailed = false
	}
	return gen, watchFailed
}

// rootsFor returns the roots to scan in precedence order (the project's
// when it is trusted, then the user's) and diagnostics about roots left
// out: existing project roots of an untrusted project, and the user's
// roots when there is no home directory.
func (p *Provider) rootsFor(lay layout, trusted bool) ([]rootSpec, []Diagnostic) {
	var roots []rootSpec
	var diags []Diagnostic
	if lay.projectRoot != "" {
		user := make(map[string]bool, len(p.cfg.userRoots))
		for _, r := range p.cfg.userRoots {
			user[r.path] = true
		}
		// A project root that is also a user root (the working directory
		// is the home directory) is scanned once, as a user root.
		proj := dedupRoots(lay.roots, user)
		if trusted {
			roots = append(roots, proj...)
		} else {
			for _, r := range proj {
				if fi, err := os.Stat(r.path); err == nil && fi.IsDir() {
					diags = append(diags, Diagnostic{Path: r.path, Severity: SeverityWarning,
						Message: fmt.Sprintf("project %s is not trusted; its skills are ignored", lay.projectRoot)})
				}
			}
		}
	}
	roots = append(roots, p.cfg.userRoots...)
	if p.cfg.homeErr != nil {
		diags = append(diags, Diagnostic{Severity: SeverityWarning,
			Message: fmt.Sprintf("no home directory, so no user-level skills: %v", p.cfg.homeErr)})
	}
	return roots, diags
}

// merger combines root scans, in precedence order, into one resolution.
type merger struct {
	res      *resolution
	diags    []Diagnostic
	used     int  // entries examined so far, against Options.MaxDirs
	overflow bool // the entry budget ran out
	seenRoot map[string]bool
	seenDir  map[string]string // resolved skill directory → first path
}

func newMerger(roots int, diags []Diagnostic, watchFailed bool) *merger {
	m := &merger{
		res:      &resolution{complete: true, byName: make(map[string]int)},
		diags:    diags,
		seenRoot: make(map[string]bool, roots),
		seenDir:  make(map[string]string),
	}
	if watchFailed {
		m.res.complete = false
		d := Diagnostic{Severity: SeverityError,
			Message: "the file watcher reported an error, so changes may have been missed; this listing is incomplete"}
		m.diags = append(m.diags, d)
		m.res.why = append(m.res.why, d.reason())
	}
	return m
}

// add merges the scan s of spec, charging its entries to the budget.
func (m *merger) add(spec rootSpec, s *rootScan, maxDirs int) {
	if s.real != "" {
		// Two configured roots may be one directory (a symlinked client
		// directory); the first, higher-ranked one counts.
		if m.seenRoot[s.real] {
			return
		}
		m.seenRoot[s.real] = true
	}
	m.diags = append(m.diags, s.diags...)
	m.res.complete = m.res.complete && s.complete
	m.res.why = append(m.res.why, s.why...)
	m.res.unwatched = m.res.unwatched || s.unwatched
	m.used += s.entries
	if m.used > maxDirs {
		if !m.overflow {
			m.overflow = true
			d := Diagnostic{Path: spec.path, Severity: SeverityError,
				Message: fmt.Sprintf("more than %d entries in skill roots (Options.MaxDirs); this listing is incomplete", maxDirs)}
			m.diags = append(m.diags, d)
			m.res.why = append(m.res.why, d.reason())
		}
		m.res.complete = false
	}
	m.res.skills = slices.Grow(m.res.skills, len(s.cands))
	for _, c := range s.cands {
		m.addCandidate(spec, c)
	}
}

// addCandidate keeps c unless its directory was already seen through
// another path or a skill of its name came first.
func (m *merger) addCandidate(spec rootSpec, c candidate) {
	if first, ok := m.seenDir[c.real]; ok {
		m.diags = append(m.diags, Diagnostic{Path: c.file, Skill: c.fm.Name, Severity: SeverityWarning,
			Message: fmt.Sprintf("same directory as %s (reached through a symbolic link); considered once", first)})
		return
	}
	m.seenDir[c.real] = c.dir
	if i, ok := m.res.byName[c.fm.Name]; ok {
		w := m.res.skills[i]
		m.diags = append(m.diags, Diagnostic{Path: c.file, Skill: c.fm.Name, Severity: SeverityWarning,
			Message: fmt.Sprintf("shadowed by the %s skill of the same name at %s", w.Scope, w.Dir)})
		return
	}
	m.res.byName[c.fm.Name] = len(m.res.skills)
	m.res.skills = append(m.res.skills, Skill{
		Name:        c.fm.Name,
		Description: c.fm.Description,
		Invocation:  c.fm.Invocation(),
		Dir:         c.dir,
		File:        c.file,
		Root:        spec.path,
		Scope:       spec.scope,
		Frontmatter: c.fm,
		SearchText:  c.searchText,
	})
}

// finish sorts the skills by name and derives the summaries, the name
// index and the sorted diagnostics.
func (m *merger) finish() *resolution {
	res := m.res
	slices.SortFunc(res.skills, func(a, b Skill) int { return cmp.Compare(a.Name, b.Name) })
	res.summaries = make([]skill.Summary, len(res.skills))
	for i := range res.skills {
		s := &res.skills[i]
		res.byName[s.Name] = i
		res.summaries[i] = s.Frontmatter.summary(s.Name, s.SearchText)
		res.summaries[i].Description, res.summaries[i].Invocation = s.Description, s.Invocation
	}
	res.diags = sortDiags(m.diags)
	return res
}

// store records res's diagnostics as cwd's latest and, when watching,
// caches res if it is complete, fully watched and nothing changed since
// its scan began.
func (p *Provider) store(ctx context.Context, key resKey, cwd string, res *resolution, gen uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	prev := p.diags[cwd]
	defer p.logDiags(ctx, prev, res.diags) // after the unlock
	p.diags[cwd] = res.diags
	if _, ok := p.recent[key]; !ok && len(p.recent) >= maxRecentResolutions {
		clear(p.recent) // a host of many working directories: start over
	}
	p.recent[key] = res
	if p.ws != nil && res.complete && !res.unwatched && p.gen == gen {
		p.resolved[key] = res
	}
}

// cached returns the cached resolution for key, if watching and current.
func (p *Provider) cached(key resKey) (*resolution, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrClosed
	}
	if p.ws == nil {
		return nil, nil
	}
	return p.resolved[key], nil
}

// scan returns a root's scan, cached while watching and unchanged.
func (p *Provider) scan(ctx context.Context, spec rootSpec, budget int, gen uint64) *rootScan {
	if p.ws == nil {
		s := scanRoot(ctx, spec, p.cfg.lenience(), budget, nil, p.files)
		p.checkVanished(s)
		return s
	}
	p.mu.Lock()
	s := p.roots[spec.path]
	p.mu.Unlock()
	if s != nil {
		return s
	}
	b := p.ws.begin()
	s = scanRoot(ctx, spec, p.cfg.lenience(), budget, b, p.files)
	p.ws.commit(spec.path, b)
	p.checkVanished(s)
	if s.cacheable {
		p.mu.Lock()
		if p.gen == gen {
			p.roots[spec.path] = s
		}
		p.mu.Unlock()
	}
	return s
}

// checkVanished remembers the roots a scan found, and makes the scan of
// a root found earlier and missing now incomplete: a root that vanishes
// is far more often an unmounted volume or a checkout being switched than
// every skill in it removed on purpose, so the last good catalog stays.
// A root never seen stays an empty, complete one (user-level directories
// such as ~/.claude/skills often do not exist). Invalidate forgets the
// roots seen.
func (p *Provider) checkVanished(s *rootScan) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case s.real != "":
		p.seenRoots[s.spec.path] = true
	case s.absent && p.seenRoots[s.spec.path]:
		s.fail(s.spec.path, "", "skill root existed earlier and is gone now (an unmounted volume, a checkout being switched?); this listing is incomplete until it is back, or until the host calls Invalidate to accept that it is gone")
	}
}

// logDiags logs the diagnostics of cwd's new scan that its previous scan
// did not have: errors at warning level, warnings at info level. A
// diagnostic that persists is logged once, not at every step.
func (p *Provider) logDiags(ctx context.Context, prev, cur []Diagnostic) {
	if !p.cfg.logger.Enabled(ctx, slog.LevelInfo) {
		return
	}
	old := make(map[Diagnostic]bool, len(prev))
	for _, d := range prev {
		old[d] = true
	}
	for _, d := range cur {
		if old[d] {
			continue
		}
		level := slog.LevelInfo
		if d.Severity == SeverityError {
			level = slog.LevelWarn
		}
		p.cfg.logger.Log(ctx, level, "agentskills: "+d.Message, "path", d.Path, "skill", d.Skill, "severity", string(d.Severity))
	}
}
