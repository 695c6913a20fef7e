package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/discovery"
)

// LoadOptions says how to run the plugin: in a process of its own, started
// by a Launcher, or in the host's process.
type LoadOptions struct {
	// Launcher starts the plugin out of process: pluginproc.Binary{Path:
	// ...} for a plugin binary. Set it or InProcess.
	Launcher Launcher
	// InProcess runs the plugin's rules in the host's own process instead
	// of starting a binary: the same API, answers and durable output,
	// without a subprocess — and without its isolation, so it is for hosts
	// that trust the plugin (tests, single-tenant tools, serverless
	// functions). Launcher must then be nil.
	InProcess bool
	// Logger receives the plugin's log output; nil uses the Host's logger.
	Logger *slog.Logger
}

// Launcher starts instances of the plugin for a Plugin: one at Load, and
// another whenever the one running is lost. Package pluginproc launches a
// plugin binary through go-plugin.
type Launcher interface {
	// Launch starts an instance; logger receives its log output.
	Launch(ctx context.Context, logger *slog.Logger) (Instance, error)
}

// Instance is one running instance of the plugin: the protocol's service,
// and what the host needs to supervise it.
type Instance interface {
	contract.Service
	// Exited reports that the instance can answer no more calls.
	Exited() bool
	// Lost reports whether err, the error of one of the instance's calls,
	// means the instance can answer no more: its process died, or hangs.
	// A lost instance has been stopped; the Plugin launches another at
	// its next call.
	Lost(err error) bool
	// PID is the instance's process id, or 0 when it has none of its own.
	PID() int
	// Stop ends the instance, in bounded time.
	Stop()
}

// Load starts the plugin as opts say; opts is required.
func (h *Host) Load(ctx context.Context, opts *LoadOptions) (*Plugin, error) {
	if err := h.checkOpen("load the plugin", ""); err != nil {
		return nil, err
	}
	if opts == nil {
		return nil, errors.New("hostsdk: LoadOptions are required: set Launcher (pluginproc.Binary{Path: ...}) or InProcess")
	}
	switch {
	case opts.InProcess && opts.Launcher != nil:
		return nil, errors.New("hostsdk: LoadOptions.InProcess runs no binary: leave Launcher nil")
	case !opts.InProcess && opts.Launcher == nil:
		return nil, errors.New("hostsdk: LoadOptions.Launcher is required (pluginproc.Binary{Path: ...}), or set LoadOptions.InProcess")
	}
	logger := opts.Logger
	if logger == nil {
		logger = h.log.With("plugin", launcherName(opts))
	}
	launcher := opts.Launcher
	if opts.InProcess {
		launcher = inProcess{}
	}
	p := &Plugin{host: h, launcher: launcher, log: logger}
	p.mu.Lock()
	_, err := p.instanceLocked(ctx)
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.plugins = append(h.plugins, p)
	h.mu.Unlock()
	return p, nil
}

// launcherName names the plugin in the host's log: the launcher's own name
// when it has one (a binary's path).
func launcherName(opts *LoadOptions) string {
	if opts.InProcess {
		return "in-process"
	}
	if s, ok := opts.Launcher.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%T", opts.Launcher)
}

// inProcess runs the plugin in the host's process: the engine behind the
// same discovery service the plugin binary serves, so a discovering mount
// works as it does in a plugin process. The same rules, answers and
// durable output as the binary, without a subprocess or a connection. Its
// instance never exits; a panic in it is the plugin's failure and comes
// back as an error (see Plugin.call).
type inProcess struct{}

func (inProcess) Launch(_ context.Context, logger *slog.Logger) (Instance, error) {
	return inProcessInstance{discovery.New(plugin.New(&plugin.Options{Logger: logger}), &discovery.Options{Logger: logger}), logger}, nil
}

// inProcessInstance is the in-process service as an Instance.
type inProcessInstance struct {
	*discovery.Service
	log *slog.Logger
}

func (inProcessInstance) Exited() bool    { return false }
func (inProcessInstance) Lost(error) bool { return false }
func (inProcessInstance) PID() int        { return 0 }

// Stop closes the providers of the mounts the service discovered for.
func (i inProcessInstance) Stop() {
	if err := i.Close(); err != nil {
		i.log.Warn("close the discovered skills' providers", "err", err)
	}
}
