package agentskills

import (
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watchSpec is one watched directory and why it is watched.
type watchSpec struct {
	dir   string // resolved path, as given to the watcher
	root  bool   // a skill root: any entry change matters
	skill bool   // a skill directory: only SKILL.md matters
	child string // an ancestor of a root: only this entry matters
}

// dirRole merges the reasons a directory is watched.
type dirRole struct {
	root, skill bool
	children    map[string]bool
}

// watchSet tracks the watcher's directories. Roles are keyed by resolved
// path because events are named after the path that was watched.
//
// mu guards roles, byRoot and added and is never held while calling into
// the watcher: the watcher's reader may block sending an error to the event
// loop, which itself needs mu to classify events.
type watchSet struct {
	w *fsnotify.Watcher

	mu     sync.Mutex
	byRoot map[string][]watchSpec // root path → specs of its latest scan
	roles  map[string]*dirRole
	added  map[string]bool
}

func newWatchSet(w *fsnotify.Watcher) *watchSet {
	return &watchSet{
		w:      w,
		byRoot: make(map[string][]watchSpec),
		roles:  make(map[string]*dirRole),
		added:  make(map[string]bool),
	}
}

// watchBuilder collects the watches of one root scan.
type watchBuilder struct {
	ws    *watchSet
	specs []watchSpec
}

func (ws *watchSet) begin() *watchBuilder { return &watchBuilder{ws: ws} }

// add registers the role first, so that an event arriving right after the
// watch exists is already classified, then adds the watch. Adding a watched
// directory again is cheap and repairs watches the kernel dropped when a
// directory was removed and recreated.
func (b *watchBuilder) add(spec watchSpec) error {
	b.specs = append(b.specs, spec)
	ws := b.ws
	ws.mu.Lock()
	mergeRole(ws.roles, spec)
	ws.mu.Unlock()
	if err := ws.w.Add(spec.dir); err != nil {
		return err
	}
	ws.mu.Lock()
	ws.added[spec.dir] = true
	ws.mu.Unlock()
	return nil
}

func mergeRole(roles map[string]*dirRole, spec watchSpec) {
	r := roles[spec.dir]
	if r == nil {
		r = &dirRole{}
		roles[spec.dir] = r
	}
	r.root = r.root || spec.root
	r.skill = r.skill || spec.skill
	if spec.child != "" {
		if r.children == nil {
			r.children = make(map[string]bool)
		}
		r.children[spec.child] = true
	}
}

// watchRoot watches a root and the chain of directories above it up to
// its anchor, so that creating, removing or renaming any of them is noticed,
// even when the root does not exist yet. When nothing up to the anchor
// exists, the chain continues upward to the nearest existing directory.
func (b *watchBuilder) watchRoot(spec rootSpec) error {
	var firstErr error
	note := func(err error) {
		if err != nil && !isAbsent(err) && firstErr == nil {
			firstErr = err
		}
	}
	watched := false
	for p := spec.path; ; {
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		if watched && !within(p, spec.anchor) {
			break
		}
		if real, err := filepath.EvalSymlinks(parent); err == nil {
			if err := b.add(watchSpec{dir: real, child: filepath.Base(p)}); err == nil {
				watched = true
			} else {
				note(err)
			}
		}
		p = parent
	}
	if real, err := filepath.EvalSymlinks(spec.path); err == nil {
		note(b.add(watchSpec{dir: real, root: true}))
	}
	return firstErr
}

// within reports whether p is strictly below anchor.
func within(p, anchor string) bool {
	return len(p) > len(anchor) && strings.HasPrefix(p, anchor) &&
		(strings.HasSuffix(anchor, string(filepath.Separator)) || p[len(anchor)] == filepath.Separator)
}

func (b *watchBuilder) watchSkill(real string) error {
	return b.add(watchSpec{dir: real, skill: true})
}

// commit makes the builder's specs the watches of root and removes watches
// that no root needs any more.
func (ws *watchSet) commit(root string, b *watchBuilder) {
	ws.mu.Lock()
	ws.byRoot[root] = b.specs
	roles := make(map[string]*dirRole, len(ws.roles))
	for _, specs := range ws.byRoot {
		for _, s := range specs {
			mergeRole(roles, s)
		}
	}
	ws.roles = roles
	var stale []string
	for dir := range ws.added {
		if roles[dir] == nil {
			stale = append(stale, dir)
			delete(ws.added, dir)
		}
	}
	ws.mu.Unlock()
	for _, dir := range stale {
		// The kernel may already have dropped it with the directory.
		_ = ws.w.Remove(dir)
	}
}

// relevant reports whether an event can change a listing: anything about
// a root's entries, a skill's SKILL.md, a watched directory itself, or the
// entry of an ancestor leading to a root. Changes to a skill's other files
// (resources) and unrelated entries of ancestors are ignored.
func (ws *watchSet) relevant(ev fsnotify.Event) bool {
	name := filepath.Clean(ev.Name)
	dir, base := filepath.Dir(name), filepath.Base(name)
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if r := ws.roles[name]; r != nil && (r.root || r.skill || !ev.Has(fsnotify.Write)) {
		return true
	}
	r := ws.roles[dir]
	if r == nil {
		return false
	}
	return r.root || (r.skill && base == skillFileName) || r.children[base]
}

// watchLoop classifies watcher events, drops caches at once, and fires the
// invalidate callback after the burst has been quiet for the debounce
// period (at most maxDelay after its first event).
func (p *Provider) watchLoop() {
	defer close(p.loopDone)
	maxDelay := 10 * p.cfg.debounce
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var pending bool
	var first time.Time
	arm := func() {
		now := time.Now()
		if !pending {
			pending, first = true, now
			timer.Reset(p.cfg.debounce)
			return
		}
		if now.Sub(first) < maxDelay {
			timer.Reset(p.cfg.debounce)
		}
	}
	for {
		select {
		case <-p.closing:
			timer.Stop()
			return
		case ev, ok := <-p.ws.w.Events:
			if !ok {
				return
			}
			if p.ws.relevant(ev) {
				p.cfg.logger.Debug("agentskills: change", "path", ev.Name, "op", ev.Op.String())
				p.dropCaches(false)
				arm()
			}
		case err, ok := <-p.ws.w.Errors:
			if !ok {
				return
			}
			p.cfg.logger.Warn("agentskills: watcher error; the next listing is incomplete", "err", err)
			p.dropCaches(true)
			arm()
		case <-timer.C:
			pending = false
			p.fireInvalidate()
		}
	}
}
