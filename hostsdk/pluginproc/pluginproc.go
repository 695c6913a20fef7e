// Package pluginproc launches the skill-catalog plugin binary for a
// hostsdk.Host, in a process of its own, through HashiCorp go-plugin over
// gRPC. It is the one door from the host SDK to processes, go-plugin and
// gRPC: package hostsdk imports none of them, so a host that runs the
// plugin in its own process (hostsdk.LoadOptions.InProcess) links none.
//
//	p, err := host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: "bin/skillcatalog-plugin"}})
//
// The Host launches the first process at Load and another whenever the one
// it holds died or hangs, and configures every mount again; the plugin
// holds nothing durable, so nothing is lost. A plugin process whose host
// died without closing it exits on its own within about a second.
package pluginproc

import (
	"context"
	"errors"
	"log/slog"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/internal/supervisor"
)

// Binary is a plugin binary to launch: a hostsdk.Launcher.
type Binary struct {
	// Path of the plugin binary. Required.
	Path string
	// Args passed to the binary.
	Args []string
	// Env is extra environment for the plugin process ("KEY=value").
	Env []string
	// Checksum, when set, is the expected SHA-256 of the binary; a binary
	// that does not match is refused before it runs (ErrChecksumMismatch).
	// Pass it in production. On Linux the binary is read once into a
	// sealed memory file, hashed, and that copy is what runs, so a binary
	// renamed over Path meanwhile cannot run in its place; Path must then
	// be an executable file, not a script. Elsewhere the file at Path is
	// hashed and then Path is executed, so keep it where only trusted
	// users can write.
	Checksum []byte
}

var _ hostsdk.Launcher = Binary{}

// ErrChecksumMismatch is returned by Launch (and so by hostsdk.Host.Load)
// when the binary's SHA-256 differs from Binary.Checksum.
var ErrChecksumMismatch = supervisor.ErrChecksumMismatch

// Launch starts the binary and connects to it. logger receives go-plugin's
// and the plugin's log output.
func (b Binary) Launch(_ context.Context, logger *slog.Logger) (hostsdk.Instance, error) {
	if b.Path == "" {
		return nil, errors.New("pluginproc: Binary.Path is required")
	}
	proc, err := supervisor.Start(supervisor.Options{Path: b.Path, Args: b.Args, Env: b.Env, Checksum: b.Checksum, Logger: logger})
	if err != nil {
		return nil, err
	}
	return proc, nil
}

// String names the binary, for the host's log.
func (b Binary) String() string { return b.Path }
