package hostsdk

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"sync"
	"time"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/internal/wire"
	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// LoadOptions says which plugin binary to start and how.
type LoadOptions struct {
	// Path of the plugin binary. Required.
	Path string
	// Args passed to the binary.
	Args []string
	// Env is extra environment for the plugin process ("KEY=value").
	Env []string
	// Checksum, when set, is the expected SHA-256 of the binary; a binary
	// that does not match is refused before it runs.
	Checksum []byte
	// Logger receives the plugin's log output; nil uses the Host's logger.
	Logger *slog.Logger
	// InProcess runs the plugin's rules in the host's own process instead
	// of starting a binary: the same API, answers and durable output,
	// without a subprocess — and without its isolation, so it is for hosts
	// that trust the plugin (tests, single-tenant tools, serverless
	// functions). Path, Args, Env and Checksum must then be empty.
	InProcess bool
}

// ConfigError is a plugin configuration the plugin refused. Its message names
// the option and its bound.
type ConfigError = contract.ConfigError

// MaxMessageBytes is the largest message the host and the plugin exchange,
// either way: 64 MiB. A step whose request would be larger (a downstream
// decision holding more than that), or a tool call whose arguments would
// be, is not sent and fails with an error that matches ErrMessageTooLarge;
// so does a call that a larger answer or callback failed. Tool arguments
// that fit reach the plugin, which answers bad ones with a tool error.
const MaxMessageBytes = contract.MaxMessageBytes

// ErrMessageTooLarge is matched (errors.Is) by the error of a PreStep or
// CallTool that a message over MaxMessageBytes failed. The plugin process
// is not at fault and keeps running.
var ErrMessageTooLarge = contract.ErrMessageTooLarge

// ErrChecksumMismatch is returned by Load when the binary's SHA-256 differs
// from LoadOptions.Checksum.
var ErrChecksumMismatch = errors.New("plugin binary checksum does not match; refusing to run it")

// Plugin is one plugin binary loaded by a Host. Its process is restarted on
// demand after it dies.
type Plugin struct {
	host *Host
	opts LoadOptions
	log  *slog.Logger

	mu     sync.Mutex
	proc   pluginConn // nil when not running
	mounts []*Mount
	closed bool
}

// process is one running plugin process and its connections.
type process struct {
	cmd    *exec.Cmd
	client *goplugin.Client
	plugin contract.Service
	host   contract.Host
}

// Load starts a plugin binary and connects to it.
func (h *Host) Load(ctx context.Context, opts LoadOptions) (*Plugin, error) {
	switch {
	case opts.InProcess && (opts.Path != "" || len(opts.Args) > 0 || len(opts.Env) > 0 || len(opts.Checksum) > 0):
		return nil, errors.New("hostsdk: LoadOptions.InProcess runs no binary: leave Path, Args, Env and Checksum empty")
	case !opts.InProcess && opts.Path == "":
		return nil, errors.New("hostsdk: LoadOptions.Path is required (or set LoadOptions.InProcess)")
	}
	logger := opts.Logger
	if logger == nil {
		name := opts.Path
		if opts.InProcess {
			name = "in-process"
		}
		logger = h.log.With("plugin", name)
	}
	p := &Plugin{host: h, opts: opts, log: logger}
	p.mu.Lock()
	_, err := p.processLocked(ctx)
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.plugins = append(h.plugins, p)
	h.mu.Unlock()
	return p, nil
}

// processLocked returns the running process, starting one (and replaying
// every mount) when there is none. p.mu must be held.
func (p *Plugin) processLocked(ctx context.Context) (pluginConn, error) {
	if p.closed {
		return nil, errors.New("hostsdk: plugin is closed")
	}
	if p.proc != nil && !p.proc.Exited() {
		return p.proc, nil
	}
	if p.proc != nil {
		p.proc.Stop()
		p.proc = nil
	}
	var proc pluginConn
	if p.opts.InProcess {
		proc = newInProcess(p.host, plugin.Options{Logger: p.log})
	} else {
		var err error
		if proc, err = p.start(); err != nil {
			return nil, err
		}
	}
	for _, m := range p.mounts {
		if err := m.configureLocked(ctx, proc); err != nil {
			proc.Stop()
			return nil, fmt.Errorf("replay mount in scope %q: %w", m.scope, err)
		}
	}
	p.proc = proc
	return proc, nil
}

func (p *Plugin) start() (*process, error) {
	cmd := exec.Command(p.opts.Path, p.opts.Args...)
	cmd.Env = append(cmd.Environ(), p.opts.Env...)
	cfg := wire.ClientConfig(cmd)
	cfg.Logger = hclogFor(p.log, "plugin")
	if len(p.opts.Checksum) > 0 {
		cfg.SecureConfig = &goplugin.SecureConfig{Checksum: p.opts.Checksum, Hash: sha256.New()}
	}
	client := goplugin.NewClient(cfg)
	rpc, err := client.Client()
	if err != nil {
		client.Kill()
		if errors.Is(err, goplugin.ErrChecksumsDoNotMatch) {
			return nil, fmt.Errorf("start plugin %s: %w", p.opts.Path, ErrChecksumMismatch)
		}
		return nil, fmt.Errorf("start plugin %s: %w", p.opts.Path, err)
	}
	svc, err := wire.Dispense(rpc)
	if err != nil {
		client.Kill()
		return nil, fmt.Errorf("dispense plugin %s: %w", p.opts.Path, err)
	}
	return &process{cmd: cmd, client: client, plugin: svc, host: hostCallbacks{p.host}}, nil
}

// gracefulStop bounds a graceful shutdown before the process is killed.
const gracefulStop = 5 * time.Second

func (proc *process) Configure(ctx context.Context, req contract.ConfigureRequest) (contract.ConfigureResponse, error) {
	return proc.plugin.Configure(ctx, proc.host, req)
}

func (proc *process) BindTools(ctx context.Context, mountID string, bindings []contract.ToolBinding) error {
	return proc.plugin.BindTools(ctx, mountID, bindings)
}

func (proc *process) Unmount(ctx context.Context, mountID string) error {
	return proc.plugin.Unmount(ctx, mountID)
}

func (proc *process) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	return proc.plugin.PreStep(ctx, req)
}

func (proc *process) ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (contract.ToolResult, error) {
	return proc.plugin.ExecuteSkillTool(ctx, call)
}

func (proc *process) EndSession(ctx context.Context, sessionID string) error {
	return proc.plugin.EndSession(ctx, sessionID)
}

func (proc *process) Ping(ctx context.Context) error { return proc.plugin.Ping(ctx) }

func (proc *process) Exited() bool { return proc.client.Exited() }

func (proc *process) PID() int {
	if proc.client.Exited() {
		return 0
	}
	if rc := proc.client.ReattachConfig(); rc != nil {
		return rc.Pid
	}
	return 0
}

// Stop shuts the process down gracefully, and kills it if it does not
// answer in time.
func (proc *process) Stop() {
	done := make(chan struct{})
	go func() {
		proc.client.Kill()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(gracefulStop):
		if proc.cmd.Process != nil {
			_ = proc.cmd.Process.Kill()
		}
		<-done
	}
}

// Kill ends a process that no longer answers. go-plugin's graceful shutdown
// would wait forever for a stopped process, so the OS process goes first.
func (proc *process) Kill() {
	if proc.cmd.Process != nil {
		_ = proc.cmd.Process.Kill()
	}
	proc.client.Kill()
}

// Close removes the plugin's tools from every scope it was mounted in and
// stops the plugin process.
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
	if p.proc != nil {
		p.proc.Stop()
		p.proc = nil
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
	proc, err := p.running(ctx)
	if err != nil {
		return err
	}
	return p.checkCallError(proc, proc.Ping(ctx))
}

// PID returns the process id of the running plugin process, or 0 (also
// for a plugin that runs in the host's process).
func (p *Plugin) PID() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.proc == nil {
		return 0
	}
	return p.proc.PID()
}

func (p *Plugin) running(ctx context.Context) (pluginConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.processLocked(ctx)
}

// pingTimeout bounds the liveness probe after a failed call.
const pingTimeout = 2 * time.Second

// checkCallError replaces a process that is dead or unresponsive, so the
// next call starts a fresh one. A call that failed or ran out of time while
// the plugin was waiting on the host (a slow provider, a storage error) does
// not condemn the process: it must also fail a Ping.
func (p *Plugin) checkCallError(proc pluginConn, err error) error {
	if err == nil {
		return nil
	}
	dead := proc.Exited()
	if !dead && wire.Unanswered(err) {
		ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
		perr := proc.Ping(ctx)
		cancel()
		dead = perr != nil
	}
	if dead {
		p.mu.Lock()
		if p.proc == proc {
			proc.Kill()
			p.proc = nil
		}
		p.mu.Unlock()
		return &stoppedError{err: err}
	}
	return err
}

func (p *Plugin) endSession(ctx context.Context, sessionID string) error {
	p.mu.Lock()
	proc := p.proc
	p.mu.Unlock()
	if proc == nil {
		return nil // a fresh process holds nothing for the session
	}
	return p.checkCallError(proc, proc.EndSession(ctx, sessionID))
}

func (p *Plugin) mountList() []*Mount {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*Mount(nil), p.mounts...)
}

// Mount is the plugin configured in one scope.
type Mount struct {
	plugin     *Plugin
	scope      string
	configJSON string

	// Guarded by plugin.mu.
	mountID    string
	identities map[string]string // tool name → definition identity
}

// Mount configures the plugin in scope (tools.GlobalScope or an agent's
// composition scope) with a JSON object of plugin options ("" for defaults),
// and registers the plugin's tools into that scope. A configuration the
// plugin refuses is returned as a *ConfigError.
func (p *Plugin) Mount(ctx context.Context, scope, configJSON string) (*Mount, error) {
	if p == nil {
		return nil, ErrNotLoaded
	}
	if _, err := p.host.cfg.Tools.Chain(scope); err != nil {
		return nil, fmt.Errorf("mount: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	proc, err := p.processLocked(ctx)
	if err != nil {
		return nil, err
	}
	m := &Mount{plugin: p, scope: scope, configJSON: configJSON}
	if err := m.configureLocked(ctx, proc); err != nil {
		m.unregisterTools()
		var cerr *ConfigError
		if !errors.As(err, &cerr) && proc.Exited() {
			proc.Stop()
			p.proc = nil
		}
		return nil, err
	}
	p.mounts = append(p.mounts, m)
	return m, nil
}

// configureLocked sends the mount's configuration, registers its tools on
// first use (later replays keep the identities) and binds them.
func (m *Mount) configureLocked(ctx context.Context, proc pluginConn) error {
	resp, err := proc.Configure(ctx, contract.ConfigureRequest{Config: m.configJSON, Scope: m.scope})
	if err != nil {
		var cerr *ConfigError
		if errors.As(err, &cerr) {
			return cerr
		}
		return fmt.Errorf("configure plugin: %w", err)
	}
	if err := m.bindLocked(ctx, proc, resp); err != nil {
		// The plugin holds a mount the host will never use: release it.
		_ = proc.Unmount(ctx, resp.MountID)
		return err
	}
	m.mountID = resp.MountID
	return nil
}

// bindLocked registers the mount's tools on first use (later replays keep
// the identities) and tells the plugin the identities.
func (m *Mount) bindLocked(ctx context.Context, proc pluginConn, resp contract.ConfigureResponse) error {
	if m.identities == nil {
		m.identities = make(map[string]string)
		for _, t := range resp.Tools {
			id, err := m.plugin.host.cfg.Tools.Register(m.scope, tools.Definition{
				Name:         t.Name,
				Description:  t.Description,
				InputSchema:  t.InputSchema,
				OutputSchema: t.OutputSchema,
			})
			if err != nil {
				return fmt.Errorf("register tool %q in scope %q: %w", t.Name, m.scope, err)
			}
			m.identities[t.Name] = id
		}
	}
	bindings := make([]contract.ToolBinding, 0, len(m.identities))
	for name, id := range m.identities {
		bindings = append(bindings, contract.ToolBinding{ToolName: name, DefinitionIdentity: id})
	}
	if err := proc.BindTools(ctx, resp.MountID, bindings); err != nil {
		return fmt.Errorf("bind tools: %w", err)
	}
	return nil
}

func (m *Mount) unregisterTools() {
	for _, id := range m.identities {
		m.plugin.host.cfg.Tools.Unregister(id)
	}
}

// Scope returns the scope the mount is in.
func (m *Mount) Scope() string {
	if m == nil {
		return ""
	}
	return m.scope
}

// ToolIdentity returns the definition identity the host minted for the
// mount's tool of that name, or "".
func (m *Mount) ToolIdentity(name string) string {
	if m == nil {
		return ""
	}
	m.plugin.mu.Lock()
	defer m.plugin.mu.Unlock()
	return m.identities[name]
}

// Unmount removes the mount's tools from its scope and releases the mount in
// the plugin.
func (m *Mount) Unmount(ctx context.Context) error {
	if m == nil {
		return ErrNotLoaded
	}
	p := m.plugin
	p.mu.Lock()
	for i, q := range p.mounts {
		if q == m {
			p.mounts = append(p.mounts[:i], p.mounts[i+1:]...)
			break
		}
	}
	m.unregisterTools()
	m.identities = map[string]string{}
	proc, id := p.proc, m.mountID
	p.mu.Unlock()
	if proc == nil {
		return nil // a fresh process will not know the mount
	}
	return p.checkCallError(proc, proc.Unmount(ctx, id))
}

// call runs fn against the running process with the mount's current id,
// restarting the process first if it died.
func (m *Mount) call(ctx context.Context, fn func(proc pluginConn, mountID string) error) error {
	p := m.plugin
	p.mu.Lock()
	proc, err := p.processLocked(ctx)
	id := m.mountID
	p.mu.Unlock()
	if err != nil {
		return err
	}
	return p.checkCallError(proc, fn(proc, id))
}
