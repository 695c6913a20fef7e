package hostsdk

import (
	"context"
	"errors"
	"time"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
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

// ErrClosed is returned, wrapped, by a Host's steps, tool calls, session
// reads and writes, Load and Mount after Host.Close: a closed host has no
// plugin and no session logs, and answering as if nothing were mounted
// would leave an agent running without its skills. A host lives as long as
// the agents that use it.
var ErrClosed = errors.New("hostsdk: the host was closed (Host.Close); it must live as long as the agents that use it")

// lostError is the error of a call after which the plugin's instance was
// lost (Instance.Lost) and dropped: the transport's own verdict.
type lostError struct{ err error }

func (e *lostError) Error() string { return e.err.Error() }
func (e *lostError) Unwrap() error { return e.err }

// blame turns the error of a plugin call into what the runtime acts on:
//
//   - a call after which the instance was lost is a *PluginError with
//     Stopped set;
//   - the caller's own cancellation or deadline comes back as it is
//     (errors.Is holds with context.Canceled or context.DeadlineExceeded);
//   - a failure of the host's side (errors.Is(err, contract.ErrHostFailed):
//     a callback failed or was still running, a provider could not load an
//     invoked skill) is a *HostError;
//   - anything else is a *PluginError.
//
// callerFirst says the caller's deadline came before the one the host set
// for the call (see callerDeadlineFirst): a deadline error is then the
// caller's, even if the plugin reported it a moment before the caller's
// context expired.
func blame(callerCtx context.Context, callerFirst bool, err error) error {
	var lost *lostError
	switch {
	case errors.As(err, &lost):
		return &PluginError{Err: lost.err, Stopped: true}
	case callerCtx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)),
		callerFirst && errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, contract.ErrHostFailed):
		return &HostError{Err: err}
	}
	return &PluginError{Err: err}
}

// callerDeadlineFirst reports whether ctx's deadline comes no later than a
// timeout the host is about to start.
func callerDeadlineFirst(ctx context.Context, timeout time.Duration) bool {
	d, ok := ctx.Deadline()
	return ok && !d.After(time.Now().Add(timeout))
}

// storeError is the error of a step whose session-store call failed: the
// caller's own cancellation or deadline as it is, anything else (the step's
// deadline included) a *HostError.
func storeError(callerCtx context.Context, callerFirst bool, err error) error {
	if callerCtx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) ||
		callerFirst && errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &HostError{Err: err}
}
