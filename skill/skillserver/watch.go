package skillserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Sync scans the skills directory again and publishes what it found: the
// MCP resource list (the index and each served skill's SKILL.md), a
// notifications/resources/list_changed to connected clients (debounced),
// and notifications/resources/updated to those that subscribed to the
// index, because any change below the directory may change the index or an
// entry. Watch calls it when files change; a host that changes the files
// itself may call it directly.
func (s *Server) Sync() {
	_, _ = s.refresh(true)
}

// Watch bounds.
const (
	// maxWatchedDirs bounds the directories Watch follows; directories past
	// it are not watched (a diagnostic says so), and Sync still runs on
	// changes elsewhere.
	maxWatchedDirs = 4096
	// syncDelay gathers a burst of changes (a git checkout, an editor's
	// save) into one Sync.
	syncDelay = 50 * time.Millisecond
)

// Watch follows the directory of a server made with NewDir and calls Sync
// after files below it change, until ctx ends. It returns once the watches
// are in place. Hidden directories (.git) are not followed; skill
// directories linked into the skills directory are. While every directory
// is watched, requests are answered from the last scan instead of a new
// one; past maxWatchedDirs, see settled.
func (s *Server) Watch(ctx context.Context) error {
	if s.dir == "" {
		return errors.New("skillserver: only a server made with NewDir watches a directory")
	}
	if _, err := os.Stat(s.dir); err != nil {
		return fmt.Errorf("skillserver: watch %s: %w", s.dir, err)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("skillserver: watch %s: %w", s.dir, err)
	}
	dw := &dirWatcher{s: s, w: w, complete: true}
	dw.add(s.dir)
	// Changes from here on are noticed: a scan now serves until the next.
	s.Sync()
	s.watching.Store(dw.complete)
	go dw.run(ctx)
	return nil
}

// dirWatcher follows a server's directory with fsnotify.
type dirWatcher struct {
	s        *Server
	w        *fsnotify.Watcher
	watched  int
	complete bool // every directory is watched
}

// add watches dir and the directories below it, but hidden ones, and the
// skill directories linked into the skills directory.
func (dw *dirWatcher) add(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			return skipDir(d)
		}
		if !d.IsDir() {
			if d.Type()&fs.ModeSymlink != 0 && filepath.Dir(p) == dw.s.dir {
				// A skill directory linked in: scans follow it.
				if target, err := filepath.EvalSymlinks(p); err == nil {
					if fi, err := os.Stat(target); err == nil && fi.IsDir() {
						dw.add(target)
					}
				}
			}
			return nil
		}
		if dw.watched >= maxWatchedDirs {
			dw.complete = false
			dw.s.watching.Store(false)
			dw.s.addDiagnostic(fmt.Sprintf("more than %d directories below %s: changes in the others are not noticed, so every listing (skills/list, the index) scans the directory again; skills/get and directory reads check the skill asked about", maxWatchedDirs, dw.s.dir))
			return filepath.SkipAll
		}
		if dw.w.Add(p) == nil {
			dw.watched++
		}
		return nil
	})
}

// run calls Sync after a burst of changes, until ctx ends.
func (dw *dirWatcher) run(ctx context.Context) {
	defer dw.s.watching.Store(false)
	defer dw.w.Close()
	timer := time.NewTimer(syncDelay)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case ev, ok := <-dw.w.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Create) {
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
					dw.add(ev.Name)
				}
			}
			timer.Reset(syncDelay)
		case _, ok := <-dw.w.Errors:
			if !ok {
				return
			}
			// An overflow lost events: resynchronize.
			timer.Reset(syncDelay)
		case <-timer.C:
			dw.s.Sync()
		}
	}
}

// addDiagnostic records a diagnostic about the server as a whole, kept
// beside the index's own.
func (s *Server) addDiagnostic(d string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchDiag = d
}

// skipDir skips d if it is a directory.
func skipDir(d fs.DirEntry) error {
	if d.IsDir() {
		return fs.SkipDir
	}
	return nil
}
