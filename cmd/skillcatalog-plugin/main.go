// Command skillcatalog-plugin is the skill-catalog plugin binary. A host
// starts it through the go-plugin handshake (for example with the hostsdk
// package); run by hand it explains itself and exits with status 1.
package main

import (
	"fmt"
	"os"

	"github.com/skillcatalog/skillcatalog/internal/wire"
	"github.com/skillcatalog/skillcatalog/plugin/pluginserver"
)

const usage = `skillcatalog-plugin is the skill-catalog plugin for agent runtimes.

It serves the skillcatalog.v1 gRPC protocol to a host that starts it through
the HashiCorp go-plugin handshake; it is not meant to be run by hand.

Load it from a Go host with the hostsdk package:

    host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: registry, Sessions: store})
    plugin, err := host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: "/path/to/skillcatalog-plugin"}})
    mount, err := plugin.Mount(ctx, tools.GlobalScope, nil)

or run the contract suite against this build:

    skillcatalog conform --plugin /path/to/skillcatalog-plugin testdata/conformance
`

func main() {
	if !wire.CookieSet(os.Getenv) {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(1)
	}
	pluginserver.Serve()
}
