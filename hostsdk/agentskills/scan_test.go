package agentskills

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

// cachedResolutions returns how many listings the watcher's cache holds.
func (p *Provider) cachedResolutions() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.resolved)
}

func TestClassifyReadError(t *testing.T) {
	t.Parallel()
	path := func(op string, err error) error { return &fs.PathError{Op: op, Path: "/r/s/SKILL.md", Err: err} }
	tests := []struct {
		name string
		err  error
		want readFailure
	}{
		{"no such file", path("stat", syscall.ENOENT), readAbsent},
		{"fs.ErrNotExist", fs.ErrNotExist, readAbsent},
		{"a path element is a file", path("stat", syscall.ENOTDIR), readAbsent},

		{"permission denied", path("open", syscall.EACCES), readStable},
		{"operation not permitted", path("open", syscall.EPERM), readStable},
		{"fs.ErrPermission", fs.ErrPermission, readStable},
		{"not a regular file", errNotRegular, readStable},
		{"wrapped not a regular file", fmt.Errorf("opening: %w", errNotRegular), readStable},
		{"symbolic link loop", path("stat", syscall.ELOOP), readStable},
		{"name too long", path("stat", syscall.ENAMETOOLONG), readStable},
		{"is a directory", path("read", syscall.EISDIR), readStable},
		{"no such device or address", path("open", syscall.ENXIO), readStable},

		{"I/O error", path("read", syscall.EIO), readTransient},
		{"try again", path("read", syscall.EAGAIN), readTransient},
		{"interrupted", path("read", syscall.EINTR), readTransient},
		{"too many open files", path("open", syscall.EMFILE), readTransient},
		{"file table full", path("open", syscall.ENFILE), readTransient},
		{"out of memory", path("open", syscall.ENOMEM), readTransient},
		{"stale file handle", path("stat", syscall.ESTALE), readTransient},
		{"timed out", path("read", syscall.ETIMEDOUT), readTransient},
		{"busy", path("open", syscall.EBUSY), readTransient},
		{"canceled", context.Canceled, readTransient},
		{"deadline", fmt.Errorf("reading: %w", context.DeadlineExceeded), readTransient},
		{"unknown error", errors.New("something unexpected"), readTransient},
		{"unknown errno", path("read", syscall.EPROTO), readTransient},
	}
	for _, tt := range tests {
		if got := classifyReadError(tt.err); got != tt.want {
			t.Errorf("%s: classifyReadError(%v) = %d, want %d", tt.name, tt.err, got, tt.want)
		}
	}
}

// TestReadFailureAndCompleteness checks what each class of error does to a
// root's scan: nothing for an absent file, a skipped skill for a stable
// error, an incomplete and uncacheable scan for a transient one.
func TestReadFailureAndCompleteness(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err       error
		complete  bool
		diagnosed bool
	}{
		{&fs.PathError{Op: "stat", Path: "/r/s/SKILL.md", Err: syscall.ENOENT}, true, false},
		{&fs.PathError{Op: "open", Path: "/r/s/SKILL.md", Err: syscall.EACCES}, true, true},
		{errNotRegular, true, true},
		{&fs.PathError{Op: "read", Path: "/r/s/SKILL.md", Err: syscall.EIO}, false, true},
		{&fs.PathError{Op: "read", Path: "/r/s/SKILL.md", Err: syscall.EINTR}, false, true},
	}
	for _, tt := range tests {
		s := &rootScan{complete: true, cacheable: true}
		s.readFailed("/r/s/SKILL.md", "s", skillFileName, tt.err)
		if s.complete != tt.complete || s.cacheable != tt.complete {
			t.Errorf("%v: complete=%v cacheable=%v, want both %v", tt.err, s.complete, s.cacheable, tt.complete)
		}
		if got := len(s.diags) == 1; got != tt.diagnosed {
			t.Errorf("%v: diagnostics %+v, want one: %v", tt.err, s.diags, tt.diagnosed)
			continue
		}
		if tt.diagnosed && (s.diags[0].Severity != SeverityError || s.diags[0].Path != "/r/s/SKILL.md") {
			t.Errorf("%v: diagnostic %+v, want an error naming the file", tt.err, s.diags[0])
		}
	}
}
