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
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/hostsdk/mcpskills"
)

// Sync brings the server's MCP resource list up to date with the
// directory: the index and each served skill's SKILL.md (other files are
// served through the skill://{name}/{+path} template, not listed). Every
// Sync tells connected clients that the list changed
// (notifications/resources/list_changed, debounced) and tells those that
// subscribed to the index that it was updated, because any change below the
// directory may change the index. Watch calls it when files change; a host
// that changes the files itself may call it directly.
func (s *Server) Sync() {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	entries, _ := s.index() // an unreadable directory lists no skills
	want := make(map[string]bool, len(entries))
	for _, e := range entries {
		want[e.URL] = true
	}
	var gone []string
	for uri := range s.listed {
		if !want[uri] {
			gone = append(gone, uri)
		}
	}
	s.srv.RemoveResources(gone...)
	// Re-adding the index announces a change even when the set of skills
	// is the same: a description or a file may have changed.
	s.srv.AddResource(&mcp.Resource{URI: mcpskills.IndexURI, Name: "index", Title: "Skills index", MIMEType: "application/json",
		Description: "Every skill this server publishes: name, type, description and the URI of its SKILL.md."}, s.readIndex)
	for _, e := range entries {
		s.srv.AddResource(&mcp.Resource{URI: e.URL, Name: e.Name, Description: e.Description, MIMEType: "text/markdown"}, s.readResource)
	}
	s.listed = want
	_ = s.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: mcpskills.IndexURI})
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
// are in place. Hidden directories (.git) are not followed.
func (s *Server) Watch(ctx context.Context) error {
	if s.dir == "" {
		return errors.New("skillserver: only a server made with NewDir watches a directory")
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("skillserver: watch %s: %w", s.dir, err)
	}
	watched := 0
	add := func(dir string) {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if watched >= maxWatchedDirs {
				s.addDiagnostic(fmt.Sprintf("more than %d directories below %s: changes in the others are not noticed", maxWatchedDirs, s.dir))
				return filepath.SkipAll
			}
			if w.Add(p) == nil {
				watched++
			}
			return nil
		})
	}
	if _, err := os.Stat(s.dir); err != nil {
		w.Close()
		return fmt.Errorf("skillserver: watch %s: %w", s.dir, err)
	}
	add(s.dir)
	go func() {
		defer w.Close()
		timer := time.NewTimer(syncDelay)
		timer.Stop()
		for {
			select {
			case <-ctx.Done():
				timer.Stop()
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Create) {
					if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
						add(ev.Name)
					}
				}
				timer.Reset(syncDelay)
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
				// An overflow lost events: resynchronize.
				timer.Reset(syncDelay)
			case <-timer.C:
				s.Sync()
			}
		}
	}()
	return nil
}

// addDiagnostic records a diagnostic about the server as a whole, kept
// beside the index's own.
func (s *Server) addDiagnostic(d string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchDiag = d
}
