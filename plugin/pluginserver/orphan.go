package pluginserver

import (
	"log/slog"
	"os"
	"time"
)

// hostCheckInterval is how often the plugin checks that its host is alive:
// a plugin whose host died exits within about this long.
const hostCheckInterval = 250 * time.Millisecond

// watchHost calls exit once the process that started the plugin (the host,
// which go-plugin makes the plugin's parent) is gone, whatever ended it: a
// SIGKILL, an OOM kill or a panic that skipped Close. Without it, the
// plugin would be adopted by init and run forever, because its gRPC server
// does not notice that the host's end of the connection went away.
//
// A process whose parent dies is re-parented, so its parent process id
// changes; that is what is watched, on every Unix. The parent-death signal
// of Linux is not used: it fires when the host's forking thread ends, which
// in a Go host can happen while the host lives on. A plugin that starts
// with parent 1 (the host is a container's init, or was already gone) has
// nothing to watch. On Windows a parent's death changes no process id, and
// the plugin relies on the host's Close.
func watchHost(interval time.Duration, getppid func() int, exit func()) (stop func()) {
	parent := getppid()
	done := make(chan struct{})
	if parent <= 1 {
		return func() {}
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if getppid() != parent {
					exit()
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

// exitOrphaned ends a plugin whose host is gone. The plugin holds nothing
// durable (the host owns every session log), so there is nothing to flush.
func exitOrphaned(logger *slog.Logger) func() {
	return func() {
		logger.Warn("host process is gone; plugin exiting")
		os.Exit(0)
	}
}
