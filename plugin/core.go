package plugin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
)

// Options configures a Core ([New]). Every field is optional: the zero
// value, like a nil *Options, means the defaults.
type Options struct {
	// Logger receives the plugin's log output; nil discards it.
	Logger *slog.Logger
}

// Core is the skill-catalog plugin without a transport: its mounts, their
// tool bindings and the catalog rules. The gRPC server in package
// pluginserver converts the protocol's messages and calls it; a host that
// runs the plugin in its own process calls it directly. It is safe for
// concurrent use.
type Core struct {
	engine *engine
	log    *slog.Logger

	mu     sync.Mutex
	nextID int
	mounts map[string]*mountState
}

type mountState struct {
	mount mount
	host  contract.Host
	scope string
}

var _ contract.Service = (*Core)(nil)

// New returns a Core with no mounts and empty caches, configured by opts
// (see [Options]); nil means every default (no log output).
func New(opts *Options) *Core {
	var logger *slog.Logger
	if opts != nil {
		logger = opts.Logger
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Core{engine: newEngine(), log: logger, mounts: make(map[string]*mountState)}
}

// SkillTool returns the definition of the `skill` tool the plugin asks the
// host to register.
func SkillTool() contract.ToolDefinition {
	return contract.ToolDefinition{
		Name:         contract.SkillToolName,
		Description:  render.SkillToolDescription,
		InputSchema:  []byte(render.SkillToolInputSchema),
		OutputSchema: []byte(render.SkillToolOutputSchema),
	}
}

// Configure validates a mount's options and returns the tools the host must
// register into the mount's scope. host is how the mount calls the host
// back. A refused configuration is a *ConfigError.
func (c *Core) Configure(_ context.Context, host contract.Host, req contract.ConfigureRequest) (contract.ConfigureResponse, error) {
	if host == nil {
		return contract.ConfigureResponse{}, errors.New("configure: no host to call back")
	}
	if req.Discovery != "" {
		// Discovery is served by a wrapper (package plugin/discovery); the
		// engine alone would call the host for skills it was told not to.
		return contract.ConfigureResponse{}, &contract.ConfigError{Message: "discovery is set, but this instance of the plugin runs the engine alone and discovers no skills: " +
			"run the plugin binary, or serve the engine through plugin/discovery"}
	}
	cfg, err := ParseConfig(req.Config)
	if err != nil {
		return contract.ConfigureResponse{}, &contract.ConfigError{Message: err.Error()}
	}
	c.mu.Lock()
	c.nextID++
	id := "mount-" + strconv.Itoa(c.nextID)
	c.mounts[id] = &mountState{mount: mount{cfg: cfg, embed: new(embedState)}, host: host, scope: req.Scope}
	c.mu.Unlock()
	c.log.Debug("mounted", "mount", id, "scope", req.Scope, contract.OptionDescriptionMaxLength, cfg.DescriptionMaxLength, contract.OptionCatalogBudget, cfg.CatalogBudget, contract.OptionResourceTool, cfg.ResourceTool, contract.OptionSearchTool, cfg.SearchTool, contract.OptionRelevantSkills, cfg.RelevantSkills)
	tools := []contract.ToolDefinition{SkillTool()}
	if cfg.ResourceTool {
		tools = append(tools, resourceToolDefinition())
	}
	if cfg.SearchTool {
		tools = append(tools, searchToolDefinition())
	}
	return contract.ConfigureResponse{MountID: id, Tools: tools, AcceptsSourceDigests: true, AcceptsStepSnapshots: true}, nil
}

// BindTools records the identities the host minted for a mount's tools.
func (c *Core) BindTools(_ context.Context, mountID string, bindings []contract.ToolBinding) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ms, ok := c.mounts[mountID]
	if !ok {
		return unknownMount(mountID)
	}
	for _, b := range bindings {
		if b.ToolName == contract.SkillToolName {
			ms.mount.skillIdentity = b.DefinitionIdentity
		}
	}
	return nil
}

// Unmount forgets a mount. Unmounting an unknown mount does nothing.
func (c *Core) Unmount(_ context.Context, mountID string) error {
	c.mu.Lock()
	delete(c.mounts, mountID)
	c.mu.Unlock()
	return nil
}

// PreStep applies the catalog rules for one model step of req.MountID.
func (c *Core) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	ms, err := c.mount(req.MountID)
	if err != nil {
		return contract.StepResponse{}, err
	}
	return c.engine.preStep(ctx, ms.host, ms.mount, req)
}

// ExecuteSkillTool runs one call of call.MountID's tools: the `skill`
// tool (call.ToolName empty or contract.SkillToolName), or the resource-read
// tool (contract.ResourceToolName) or the skill-search tool
// (contract.SearchToolName) of a mount that registered it, for an agent
// whose `skill` is the mount's own (call.SkillToolIdentity). A name the
// mount did not register is answered with an error result.
func (c *Core) ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (contract.ToolResult, error) {
	ms, err := c.mount(call.MountID)
	if err != nil {
		return contract.ToolResult{}, err
	}
	switch {
	case call.ToolName == "" || call.ToolName == contract.SkillToolName:
		return c.engine.executeSkillTool(ctx, ms.host, ms.mount, call)
	case call.ToolName == contract.ResourceToolName && ms.mount.cfg.ResourceTool:
		if call.SkillToolIdentity != ms.mount.skillIdentity || ms.mount.skillIdentity == "" {
			// The resources belong to the skills the agent loads with this
			// mount's `skill`; an agent without it reads none of them.
			return errorResult(render.ResourceToolWithoutSkill()), nil
		}
		return c.engine.executeResourceTool(ctx, ms.host, ms.mount, call)
	case call.ToolName == contract.SearchToolName && ms.mount.cfg.SearchTool:
		if call.SkillToolIdentity != ms.mount.skillIdentity || ms.mount.skillIdentity == "" {
			// What a search finds is loaded with this mount's `skill`; an
			// agent without it can load none of it.
			return errorResult(render.SearchWithoutSkill()), nil
		}
		return c.engine.executeSearchTool(ctx, ms.host, ms.mount, call)
	}
	return errorResult(render.UnknownTool(call.ToolName)), nil
}

// EndSession drops what the plugin cached for a session.
func (c *Core) EndSession(_ context.Context, sessionID string) error {
	c.engine.endSession(sessionID)
	return nil
}

// mount returns a copy of a mount's state, so a step never races with a
// later BindTools.
func (c *Core) mount(id string) (mountState, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ms, ok := c.mounts[id]
	if !ok {
		return mountState{}, unknownMount(id)
	}
	return *ms, nil
}

// Ping answers at once: a service that can run this is alive.
func (c *Core) Ping(ctx context.Context) error {
	return ctx.Err()
}

// hostFailed is the error of a step or tool call that the host's side
// failed: a callback's error, or an answer the contract does not allow.
func hostFailed(format string, args ...any) error {
	return contract.HostFailed(fmt.Errorf(format, args...))
}

func unknownMount(id string) error {
	return fmt.Errorf("%w %q", contract.ErrUnknownMount, id)
}
