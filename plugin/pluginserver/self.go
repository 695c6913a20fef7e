package pluginserver

import (
	"os"

	"github.com/skillcatalog/skillcatalog/internal/wire"
)

// Requested reports whether a host started this process as its plugin:
// go-plugin's handshake cookie is in the environment.
func Requested() bool { return wire.CookieSet(os.Getenv) }

// ServeIfRequested lets a host's own binary serve as its plugin, so one
// binary is all a runtime ships. When a host started this process as its
// plugin (Requested), it serves the plugin and exits once the host is done
// with it; otherwise it returns at once. Call it first in main, before
// flags or configuration are read, and load the running binary as the
// plugin:
//
//	func main() {
//		pluginserver.ServeIfRequested()
//		exe, err := os.Executable()
//		...
//		p, err := host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: exe}})
//	}
func ServeIfRequested() {
	if !Requested() {
		return
	}
	Serve()
	os.Exit(0)
}
