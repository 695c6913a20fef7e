package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// MaxMessageBytes is the largest message the host and the plugin exchange,
// either way: 64 MiB. A step whose request would be larger (a downstream
// decision holding more than that), or a tool call whose arguments would
// be, is not sent and fails with an error that matches ErrMessageTooLarge;
// so does a call that a larger answer or callback failed. Tool arguments
// that fit reach the plugin, which answers bad ones with a tool error.
const MaxMessageBytes = contract.MaxMessageBytes

// ErrMessageTooLarge is matched (errors.Is) by the error of a step or
// tool call that a message over MaxMessageBytes failed. The plugin process
// is not at fault and keeps running.
var ErrMessageTooLarge = contract.ErrMessageTooLarge

// ConfigError is a plugin configuration the plugin refused. Its message names
// the option and its bound.
type ConfigError = contract.ConfigError

// Plugin is the plugin loaded by a Host, with its mounts. The instance it
// runs (a process, or the engine in the host's process) is replaced on
// demand after it is lost, and every mount is configured again.
type Plugin struct {
	host     *Host
	launcher Launcher
	log      *slog.Logger

	mu     sync.Mutex
	inst   Instance // nil when none runs
	mounts []*Mount
	closed bool
}

// instanceLocked returns the running instance, launching one (and
// configuring every mount again) when there is none. p.mu must be held.
func (p *Plugin) instanceLocked(ctx context.Context) (Instance, error) {
	if p.closed {
		return nil, errors.New("hostsdk: plugin is closed")
	}
	if p.inst != nil && !p.inst.Exited() {
		return p.inst, nil
	}
	if p.inst != nil {
		p.inst.Stop()
		p.inst = nil
	}
	inst, err := p.launcher.Launch(ctx, p.log)
	if err != nil {
		return nil, err
	}
	for _, m := range p.mounts {
		if err := m.configureLocked(ctx, inst); err != nil {
			inst.Stop()
			return nil, fmt.Errorf("replay mount in scope %q: %w", m.scope, err)
		}
	}
	p.inst = inst
	return inst, nil
}

// running returns the running instance, launching one if needed.
func (p *Plugin) running(ctx context.Context) (Instance, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.instanceLocked(ctx)
}

// call runs fn against inst. A panic in fn (an in-process engine's) is the
// plugin's failure, not the host's end. A failure after which the instance
// is lost drops it, so the next call launches another, and is returned as
// a *lostError.
func (p *Plugin) call(inst Instance, what string, fn func() error) error {
	err := guard(what, fn)
	if err == nil || !inst.Lost(err) {
		return err
	}
	p.mu.Lock()
	if p.inst == inst {
		p.inst = nil
	}
	p.mu.Unlock()
	return &lostError{err: err}
}

// errPluginPanic is wrapped by the error of a call that panicked.
var errPluginPanic = errors.New("the plugin panicked")

// guard runs fn, turning a panic into an error.
func guard(what string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %w: %v", what, errPluginPanic, r)
		}
	}()
	return fn()
}

// Close removes the plugin's tools from every scope it was mounted in and
// stops its instance.
func (p *Plugin) Close() error {
	if p == nil {
		return nil // nothing was started
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	for _, m := range p.mounts {
		m.unregisterTools()
	}
	p.mounts = nil
	if p.inst != nil {
		p.inst.Stop()
		p.inst = nil
	}
	h := p.host
	h.mu.Lock()
	for i, q := range h.plugins {
		if q == p {
			h.plugins = append(h.plugins[:i], h.plugins[i+1:]...)
			break
		}
	}
	h.mu.Unlock()
	return nil
}

// Ping makes one empty round trip to the plugin.
func (p *Plugin) Ping(ctx context.Context) error {
	if p == nil {
		return ErrNotLoaded
	}
	inst, err := p.running(ctx)
	if err != nil {
		return err
	}
	return p.call(inst, "ping", func() error { return inst.Ping(ctx) })
}

// PID returns the process id of the running plugin process, or 0 (also
// for a plugin that runs in the host's process).
func (p *Plugin) PID() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inst == nil {
		return 0
	}
	return p.inst.PID()
}

// endSession tells the running instance that a session ended.
func (p *Plugin) endSession(ctx context.Context, sessionID string) error {
	p.mu.Lock()
	inst := p.inst
	p.mu.Unlock()
	if inst == nil {
		return nil // a fresh instance holds nothing for the session
	}
	return p.call(inst, "end session", func() error { return inst.EndSession(ctx, sessionID) })
}

func (p *Plugin) mountList() []*Mount {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*Mount(nil), p.mounts...)
}
