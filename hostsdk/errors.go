package hostsdk

import (
	"context"
	"errors"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/skillcatalog/skillcatalog/plugin"
)

// PluginError is a call that failed because of the plugin: its process
// died or hung, or it answered with an error of its own.
type PluginError struct {
	Err error
	// Stopped reports that the host stopped the plugin process (it had died,
	// or did not answer a Ping after the failed call). The next call starts
	// a new process and replays every mount; the durable session log lets
	// it resume without republishing.
	Stopped bool
}

func (e *PluginError) Error() string { return "skill-catalog plugin: " + e.Err.Error() }
func (e *PluginError) Unwrap() error { return e.Err }

// HostError is a call that failed because of the host's side while the
// plugin was healthy: a skill provider or the session store failed, or was
// still working when the call's deadline passed. The plugin process keeps
// running; fix or wait for the dependency, not the plugin.
type HostError struct {
	Err error
}

func (e *HostError) Error() string { return "skill-catalog host: " + e.Err.Error() }
func (e *HostError) Unwrap() error { return e.Err }

// ErrNotLoaded is returned by the methods of a *Plugin or *Mount that a
// failed Load or Mount left nil.
var ErrNotLoaded = errors.New("hostsdk: the plugin is not loaded (Load or Mount failed)")

// stoppedError marks a call error after which the host stopped the plugin
// process.
type stoppedError struct{ err error }

func (e *stoppedError) Error() string { return e.err.Error() }
func (e *stoppedError) Unwrap() error { return e.err }

// callTracker remembers, per session, the host callbacks in flight, how
// many failed or were cut off by their deadline (so that a failed plugin
// call can be blamed on the side that caused it), and how many of each
// kind the plugin made (StepResult.Callbacks).
type callTracker struct {
	mu       sync.Mutex
	sessions map[string]*sessionCalls
}

type sessionCalls struct {
	inflight int
	failures uint64
	made     Callbacks
}

// callbackKind picks the counter of one kind of callback.
type callbackKind func(*Callbacks) *int

func snapshotCall(c *Callbacks) *int     { return &c.Snapshot }
func readEventsCall(c *Callbacks) *int   { return &c.ReadEvents }
func getSkillCall(c *Callbacks) *int     { return &c.GetSkill }
func readResourceCall(c *Callbacks) *int { return &c.ReadResource }

// begin records a callback of a kind for session and returns the function
// that records its end with its error.
func (t *callTracker) begin(session string, kind callbackKind) func(ctx context.Context, err error) {
	t.mu.Lock()
	if t.sessions == nil {
		t.sessions = make(map[string]*sessionCalls)
	}
	s := t.sessions[session]
	if s == nil {
		s = &sessionCalls{}
		t.sessions[session] = s
	}
	s.inflight++
	*kind(&s.made)++
	t.mu.Unlock()
	return func(ctx context.Context, err error) {
		t.mu.Lock()
		s.inflight--
		if err != nil || ctx.Err() != nil {
			s.failures++
		}
		t.mu.Unlock()
	}
}

// callMark is a session's failure count and callbacks at one moment.
type callMark struct {
	calls    *sessionCalls // nil: none tracked yet
	failures uint64
	made     Callbacks
}

// mark returns the session's counts, to compare after a call.
func (t *callTracker) mark(session string) callMark {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.sessions[session]; s != nil {
		return callMark{calls: s, failures: s.failures, made: s.made}
	}
	return callMark{}
}

// madeSince returns the callbacks made for session since mark. A session
// forgotten in between (EndSession) and tracked again counts from zero.
func (t *callTracker) madeSince(session string, mark callMark) Callbacks {
	now := t.mark(session)
	if now.calls != mark.calls {
		return now.made
	}
	return now.made.since(mark.made)
}

// hostSide reports whether one of the session's callbacks failed since
// mark, or is still running.
func (t *callTracker) hostSide(session string, mark callMark) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.sessions[session]
	return s != nil && (s.inflight > 0 || s.failures != mark.failures)
}

// forget drops what the tracker remembers of an ended session.
func (t *callTracker) forget(session string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.sessions[session]; s != nil && s.inflight == 0 {
		delete(t.sessions, session)
	}
}

// callError turns the error of a plugin call into what the runtime acts on:
// the caller's own cancellation or deadline as it is (errors.Is holds with
// context.Canceled or context.DeadlineExceeded); a failure the plugin
// reported from a host callback (status Aborted over the wire, a marked
// error or a *plugin.InvocationError in process), or a deadline that passed
// while host callbacks were failing or running, as a *HostError; anything
// else as a *PluginError.
//
// callerFirst says the caller's deadline came before the one the host set
// for the call (see callerDeadlineFirst): a deadline error is then the
// caller's, even if the plugin reported it a moment before the caller's
// context expired.
func (h *Host) callError(callerCtx context.Context, callerFirst bool, session string, mark callMark, err error) error {
	var stopped *stoppedError
	if errors.As(err, &stopped) {
		return &PluginError{Err: stopped.err, Stopped: true}
	}
	if callerCtx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return err
	}
	if callerFirst && errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var callback *hostCallbackError
	var invocation *plugin.InvocationError
	switch {
	case errors.As(err, &callback), errors.As(err, &invocation), status.Code(err) == codes.Aborted:
		return &HostError{Err: err}
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		if h.calls.hostSide(session, mark) {
			return &HostError{Err: err}
		}
	}
	return &PluginError{Err: err}
}

// callerDeadlineFirst reports whether ctx's deadline comes no later than a
// timeout the host is about to start.
func callerDeadlineFirst(ctx context.Context, timeout time.Duration) bool {
	d, ok := ctx.Deadline()
	return ok && !d.After(time.Now().Add(timeout))
}
