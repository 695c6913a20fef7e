// Package pluginserver runs the skill-catalog plugin as a process a host
// starts through HashiCorp go-plugin: a plugin binary's main function calls
// Serve. It serves the engine (plugin.Core, a contract.Service) through
// the gRPC adapters of internal/wire.
package pluginserver

import (
	"log/slog"
	"os"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/skillcatalog/skillcatalog/internal/wire"
	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/discovery"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

// Serve runs the plugin until the host disconnects, or exits the process
// within a second of the host's death (see watchHost). It must be called
// from a process the host started through the go-plugin handshake. Mounts
// configured with a discovery have their skills discovered by the plugin
// itself (package plugin/discovery), whose providers are closed when Serve
// returns.
//
// Started by a host under check (hostcheck.RelayEnv is set), it serves
// nothing itself: the host checker starts the plugin in its place (see
// internal/hostcheckrelay), and Serve exits with that plugin's status.
func Serve() {
	// go-plugin relays the plugin's stderr to the host's logger and takes
	// hclog's JSON lines apart, logging any other line at debug; both
	// loggers write that form, from debug (trace) up, so the host's logger
	// decides what is kept, and the log package's and gRPC's lines go
	// through the plugin's logger with their levels (routeLibraryLogs).
	// hclog is only go-plugin's own.
	goLog := hclog.New(&hclog.LoggerOptions{Name: "skillcatalog", Level: hclog.Debug, JSONFormat: true})
	logger := slog.New(newLogHandler(os.Stderr))
	routeLibraryLogs(logger, os.Getenv)
	if path := os.Getenv(hostcheck.RelayEnv); path != "" {
		os.Exit(standIn(path, logger))
	}
	// A plugin must not outlive its host, however the host ended.
	defer watchHost(hostCheckInterval, os.Getppid, exitOrphaned(logger))()
	// Discovery wraps the checker, so that under check the host's
	// callbacks checked for a discovering mount are its ReadEvents and the
	// plugin's own discovery.
	svc := discovery.New(checkedIfAsked(plugin.New(&plugin.Options{Logger: logger}), logger), &discovery.Options{Logger: logger})
	defer func() {
		if err := svc.Close(); err != nil {
			logger.Warn("close the discovered skills' providers", "err", err)
		}
	}()
	goplugin.Serve(wire.ServeConfig(svc, goLog))
}
