// Package inprocess runs the skill-catalog plugin in the host's own
// process as the plugin binary runs it: the engine, and the plugin's own
// skill discovery for mounts configured with one
// (hostsdk.Plugin.MountDiscovering). hostsdk.LoadOptions.InProcess runs the
// engine alone, without linking the providers discovery needs (the MCP
// client, file watching); load this Launcher instead when a mount
// discovers:
//
//	p, err := host.Load(ctx, hostsdk.LoadOptions{Launcher: inprocess.Launcher{}})
//
// Like LoadOptions.InProcess it has no process of its own and no
// isolation, so it is for hosts that trust the plugin. Stopping the
// instance (Plugin.Close, Host.Close) closes the discovered skills'
// providers.
package inprocess

import (
	"context"
	"log/slog"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/discovery"
)

// Launcher launches the plugin in the host's process: a hostsdk.Launcher.
type Launcher struct{}

var _ hostsdk.Launcher = Launcher{}

// Launch returns an instance of the engine served through discovery;
// logger receives the plugin's and the providers' log output.
func (Launcher) Launch(_ context.Context, logger *slog.Logger) (hostsdk.Instance, error) {
	return instance{discovery.New(plugin.New(&plugin.Options{Logger: logger}), logger), logger}, nil
}

// String names the launcher in the host's log.
func (Launcher) String() string { return "in-process" }

// instance is the service as a hostsdk.Instance: it never exits on its
// own, and stopping it closes the providers.
type instance struct {
	*discovery.Service
	log *slog.Logger
}

func (instance) Exited() bool    { return false }
func (instance) Lost(error) bool { return false }
func (instance) PID() int        { return 0 }

func (i instance) Stop() {
	if err := i.Close(); err != nil {
		i.log.Warn("close the discovered skills' providers", "err", err)
	}
}
