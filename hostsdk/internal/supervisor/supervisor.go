// Package supervisor runs the plugin binary as a process of its own through
// HashiCorp go-plugin, for the host SDK. It is handed what a launch needs
// (the binary, its arguments and environment, an optional SHA-256
// checksum, a logger) and does what a process needs: start it (AutoMTLS
// on, the checksum verified before the binary runs, on Linux over the very
// bytes that run; see verifyAndPin), bridge go-plugin's log and the
// plugin's, relayed from its stderr, to the host's slog.Logger,
// tell a failed call that got no answer from a process that died or hangs
// (it must also fail a Ping), and stop it, killing it when it does not stop
// in time or no longer answers.
//
// The plugin watches for its host's death itself (package pluginserver),
// so a host that is killed leaks no process. Restarting is the Host's: it
// launches another process when the one it holds is lost, and configures
// every mount again. Package pluginproc is the public door to this one.
package supervisor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"time"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/skillcatalog/skillcatalog/internal/wire"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// Options says which binary to start and how.
type Options struct {
	// Path of the plugin binary. Required.
	Path string
	// Args passed to the binary.
	Args []string
	// Env is extra environment for the plugin process ("KEY=value").
	Env []string
	// Checksum, when set, is the expected SHA-256 of the binary; a binary
	// that does not match is refused before it runs. On Linux the bytes
	// verified are the bytes that run (see verifyAndPin).
	Checksum []byte
	// Logger receives go-plugin's and the plugin's log output.
	Logger *slog.Logger
}

// ErrChecksumMismatch is returned by Start when the binary's SHA-256
// differs from Options.Checksum.
var ErrChecksumMismatch = errors.New("pluginproc: plugin binary checksum does not match; refusing to run it")

// Process is one running plugin process: the protocol's service over its
// connection, and the process itself.
type Process struct {
	contract.Service
	cmd    *exec.Cmd
	client *goplugin.Client
}

// Start starts the binary and connects to it.
func Start(opts Options) (*Process, error) {
	if opts.Path == "" {
		return nil, errors.New("plugin binary: no path")
	}
	cmd := exec.Command(opts.Path, opts.Args...)
	cmd.Env = append(cmd.Environ(), opts.Env...)
	cfg := wire.ClientConfig(cmd)
	cfg.Logger = hclogFor(opts.Logger, "plugin")
	if len(opts.Checksum) > 0 {
		release, err := verifyAndPin(cmd, cfg, opts.Checksum)
		if err != nil {
			return nil, fmt.Errorf("start plugin %s: %w", opts.Path, err)
		}
		defer release()
	}
	client := goplugin.NewClient(cfg)
	rpc, err := client.Client()
	if err != nil {
		client.Kill()
		if errors.Is(err, goplugin.ErrChecksumsDoNotMatch) {
			return nil, fmt.Errorf("start plugin %s: %w", opts.Path, ErrChecksumMismatch)
		}
		return nil, fmt.Errorf("start plugin %s: %w", opts.Path, err)
	}
	svc, err := wire.Dispense(rpc)
	if err != nil {
		client.Kill()
		return nil, fmt.Errorf("dispense plugin %s: %w", opts.Path, err)
	}
	return &Process{Service: svc, cmd: cmd, client: client}, nil
}

// Exited reports that the process has ended.
func (p *Process) Exited() bool { return p.client.Exited() }

// PID returns the process id, or 0 once the process has ended.
func (p *Process) PID() int {
	if p.client.Exited() {
		return 0
	}
	if rc := p.client.ReattachConfig(); rc != nil {
		return rc.Pid
	}
	return 0
}

// pingTimeout bounds the liveness probe after a failed call.
const pingTimeout = 2 * time.Second

// Lost reports whether err, the error of one of the process's calls, means
// the process can answer no more: it has ended, or the call got no answer
// (wire.Unanswered) and a Ping gets none either. A call that failed or ran
// out of time while the plugin was waiting on the host (a slow provider, a
// storage error) does not condemn a process that still answers. A lost
// process is killed.
func (p *Process) Lost(err error) bool {
	dead := p.Exited()
	if !dead && wire.Unanswered(err) {
		ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
		dead = p.Ping(ctx) != nil
		cancel()
	}
	if dead {
		p.kill()
	}
	return dead
}

// gracefulStop bounds a graceful shutdown before the process is killed.
const gracefulStop = 5 * time.Second

// Stop shuts the process down gracefully, and kills it if it does not
// answer in time.
func (p *Process) Stop() {
	done := make(chan struct{})
	go func() {
		p.client.Kill()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(gracefulStop):
		if p.cmd.Process != nil {
			_ = p.cmd.Process.Kill()
		}
		<-done
	}
}

// kill ends a process that no longer answers. go-plugin's graceful
// shutdown would wait forever for a stopped process, so the OS process
// goes first.
func (p *Process) kill() {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
	p.client.Kill()
}
