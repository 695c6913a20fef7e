package hostsdk

import (
	"context"
	"errors"
	"fmt"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// pluginConn is the host's end of one running plugin: a process started
// through go-plugin (process), or the plugin's Core in the host's own
// process (inProcess). Both give the same answers; only a process can die,
// hang or be killed.
type pluginConn interface {
	Configure(ctx context.Context, req contract.ConfigureRequest) (contract.ConfigureResponse, error)
	BindTools(ctx context.Context, mountID string, bindings []contract.ToolBinding) error
	Unmount(ctx context.Context, mountID string) error
	PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error)
	ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (contract.ToolResult, error)
	EndSession(ctx context.Context, sessionID string) error
	Ping(ctx context.Context) error
	// Exited reports that the plugin can answer no more calls.
	Exited() bool
	// PID is the plugin's process id, or 0 when it has none of its own.
	PID() int
	// Stop ends the plugin gracefully; Kill ends one that does not answer.
	Stop()
	Kill()
}

var (
	_ pluginConn = (*process)(nil)
	_ pluginConn = (*inProcess)(nil)
)

// inProcess runs the plugin's Core in the host's process: the same rules,
// answers and durable output as the plugin binary, without a subprocess or
// a connection. The Core calls the host back directly. A panic in the Core
// is the plugin's fault and comes back as an error, never taking the host
// down.
type inProcess struct {
	core *plugin.Core
	host contract.Host
}

func newInProcess(h *Host, opts plugin.Options) *inProcess {
	return &inProcess{core: plugin.New(opts), host: blamingHost{hostCallbacks{h}}}
}

// hostCallbackError marks an error a host callback returned to an
// in-process plugin, as status Aborted marks it over the wire: the
// dependency that failed is the host's.
type hostCallbackError struct{ err error }

func (e *hostCallbackError) Error() string { return e.err.Error() }
func (e *hostCallbackError) Unwrap() error { return e.err }

// blamingHost marks the errors of the host's callbacks.
type blamingHost struct{ contract.Host }

func blame(err error) error {
	if err == nil {
		return nil
	}
	return &hostCallbackError{err: err}
}

func (b blamingHost) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	s, err := b.Host.Snapshot(ctx, req)
	return s, blame(err)
}

func (b blamingHost) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	l, err := b.Host.GetSkill(ctx, req)
	return l, blame(err)
}

func (b blamingHost) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	p, err := b.Host.ReadEvents(ctx, req)
	return p, blame(err)
}

func (b blamingHost) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	rh, ok := b.Host.(contract.ResourceReader)
	if !ok {
		return contract.ResourceRead{}, contract.ErrNoResourceReads
	}
	r, err := rh.ReadResource(ctx, req)
	return r, blame(err)
}

// errPluginPanic is wrapped by the error of an in-process call that
// panicked.
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

func (c *inProcess) Configure(ctx context.Context, req contract.ConfigureRequest) (resp contract.ConfigureResponse, err error) {
	err = guard("configure", func() error {
		resp, err = c.core.Configure(ctx, c.host, req)
		return err
	})
	return resp, err
}

func (c *inProcess) BindTools(ctx context.Context, mountID string, bindings []contract.ToolBinding) error {
	return guard("bind tools", func() error { return c.core.BindTools(ctx, mountID, bindings) })
}

func (c *inProcess) Unmount(ctx context.Context, mountID string) error {
	return guard("unmount", func() error { return c.core.Unmount(ctx, mountID) })
}

func (c *inProcess) PreStep(ctx context.Context, req contract.StepRequest) (resp contract.StepResponse, err error) {
	err = guard("pre-step", func() error {
		resp, err = c.core.PreStep(ctx, req)
		return err
	})
	return resp, err
}

func (c *inProcess) ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (res contract.ToolResult, err error) {
	err = guard("execute skill tool", func() error {
		res, err = c.core.ExecuteSkillTool(ctx, call)
		return err
	})
	return res, err
}

func (c *inProcess) EndSession(ctx context.Context, sessionID string) error {
	return guard("end session", func() error { return c.core.EndSession(ctx, sessionID) })
}

func (c *inProcess) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return nil
}

func (c *inProcess) Exited() bool { return false }
func (c *inProcess) PID() int     { return 0 }
func (c *inProcess) Stop()        {}
func (c *inProcess) Kill()        {}
