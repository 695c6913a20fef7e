package hostsdk

import (
	"context"
	"errors"
	"fmt"

	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// Mount is the plugin configured in one scope.
type Mount struct {
	plugin     *Plugin
	scope      string
	configJSON string
	// discovery is the JSON of the Discovery the plugin discovers the
	// mount's skills with; empty when the host's registry serves them.
	discovery string

	// Guarded by plugin.mu.
	mountID    string
	identities map[string]string // tool name → definition identity
	// sourceDigests: the plugin resolves recent events sent by their
	// sources' digests (contract.ConfigureResponse.AcceptsSourceDigests).
	sourceDigests bool
	// stepSnapshots: the plugin takes a snapshot computed ahead of a step
	// (contract.ConfigureResponse.AcceptsStepSnapshots).
	stepSnapshots bool
}

// Mount configures the plugin in scope ([tools.GlobalScope] or an agent's
// composition scope) with opts (nil for the defaults), and registers the
// plugin's tools into that scope. opts is sent in its JSON form
// ([MountOptions.JSON]); a value the plugin refuses is returned as a
// [*ConfigError] naming the option and its bound.
func (p *Plugin) Mount(ctx context.Context, scope string, opts *MountOptions) (*Mount, error) {
	return p.mount(ctx, scope, mountJSON(opts), "")
}

// MountJSON is Mount with the configuration as a JSON object of plugin
// options ("" for the defaults), for a host that keeps it as text: a
// configuration file, a scenario. Unknown options are refused by name.
func (p *Plugin) MountJSON(ctx context.Context, scope, configJSON string) (*Mount, error) {
	return p.mount(ctx, scope, configJSON, "")
}

// mountJSON is opts' JSON form, "" for nil.
func mountJSON(opts *MountOptions) string {
	if opts == nil {
		return ""
	}
	return opts.JSON()
}

// mount configures the plugin in scope and adds the mount to the plugin's
// mounts; discovery is the JSON of the Discovery the plugin discovers its
// skills with, or empty.
func (p *Plugin) mount(ctx context.Context, scope, configJSON, discovery string) (*Mount, error) {
	if p == nil {
		return nil, ErrNotLoaded
	}
	if err := p.host.checkOpen("mount in scope", scope); err != nil {
		return nil, err
	}
	if _, err := p.host.opts.Tools.Chain(scope); err != nil {
		return nil, fmt.Errorf("mount: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	inst, err := p.instanceLocked(ctx)
	if err != nil {
		return nil, err
	}
	m := &Mount{plugin: p, scope: scope, configJSON: configJSON, discovery: discovery}
	if err := m.configureLocked(ctx, inst); err != nil {
		m.unregisterTools()
		var cerr *ConfigError
		if !errors.As(err, &cerr) && inst.Exited() {
			inst.Stop()
			p.inst = nil
		}
		return nil, err
	}
	p.mounts = append(p.mounts, m)
	return m, nil
}

// MountOptions configure a mount ([Plugin.Mount]; nil for the defaults);
// their JSON form is what [Plugin.MountJSON] takes.
type MountOptions = contract.MountOptions

// configureLocked sends the mount's configuration to inst, registers its
// tools on first use (later replays keep the identities) and binds them.
func (m *Mount) configureLocked(ctx context.Context, inst Instance) error {
	var resp contract.ConfigureResponse
	err := guard("configure", func() (err error) {
		resp, err = inst.Configure(ctx, m.plugin.host.callbacks, contract.ConfigureRequest{Config: m.configJSON, Scope: m.scope, Discovery: m.discovery})
		return err
	})
	if err != nil {
		var cerr *ConfigError
		if errors.As(err, &cerr) {
			return cerr
		}
		return fmt.Errorf("configure plugin: %w", err)
	}
	if err := m.bindLocked(ctx, inst, resp); err != nil {
		// The plugin holds a mount the host will never use: release it.
		_ = guard("unmount", func() error { return inst.Unmount(ctx, resp.MountID) })
		return err
	}
	m.mountID, m.sourceDigests, m.stepSnapshots = resp.MountID, resp.AcceptsSourceDigests, resp.AcceptsStepSnapshots
	return nil
}

// acceptsSourceDigests reports whether the plugin, as last configured,
// resolves recent events sent by their sources' digests.
func (m *Mount) acceptsSourceDigests() bool {
	m.plugin.mu.Lock()
	defer m.plugin.mu.Unlock()
	return m.sourceDigests
}

// acceptsStepSnapshots reports whether the plugin, as last configured,
// takes a snapshot computed ahead of a step.
func (m *Mount) acceptsStepSnapshots() bool {
	m.plugin.mu.Lock()
	defer m.plugin.mu.Unlock()
	return m.stepSnapshots
}

// bindLocked registers the mount's tools on first use (later replays keep
// the identities) and tells the plugin the identities.
func (m *Mount) bindLocked(ctx context.Context, inst Instance, resp contract.ConfigureResponse) error {
	if m.identities == nil {
		m.identities = make(map[string]string)
		for _, t := range resp.Tools {
			id, err := m.plugin.host.opts.Tools.Register(m.scope, tools.Definition{
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
	if err := guard("bind tools", func() error { return inst.BindTools(ctx, resp.MountID, bindings) }); err != nil {
		return fmt.Errorf("bind tools: %w", err)
	}
	return nil
}

func (m *Mount) unregisterTools() {
	for _, id := range m.identities {
		m.plugin.host.opts.Tools.Unregister(id)
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
	inst, id := p.inst, m.mountID
	p.mu.Unlock()
	if inst == nil {
		return nil // a fresh instance will not know the mount
	}
	return p.call(inst, "unmount", func() error { return inst.Unmount(ctx, id) })
}

// call runs fn against the running instance with the mount's current id,
// launching one first if none runs. Its error says whom to blame only with
// blame.
func (m *Mount) call(ctx context.Context, what string, fn func(svc contract.Service, mountID string) error) error {
	p := m.plugin
	p.mu.Lock()
	inst, err := p.instanceLocked(ctx)
	id := m.mountID
	p.mu.Unlock()
	if err != nil {
		return err
	}
	return p.call(inst, what, func() error { return fn(p.host.tel.service(inst), id) })
}
