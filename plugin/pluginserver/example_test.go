package pluginserver_test

import (
	"context"
	"log"
	"os"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/plugin/pluginserver"
)

// The main function of a plugin binary (cmd/skillcatalog-plugin) is one
// call. Serve speaks go-plugin's handshake with the host that started the
// process, so this example is compiled, not run.
func ExampleServe() {
	pluginserver.Serve()
}

// A runtime that ships one binary is its own plugin: started by itself as
// the plugin, it serves and exits; started by a user, it goes on and
// launches itself. The example needs a process started by a host, so it is
// compiled, not run.
func ExampleServeIfRequested() {
	pluginserver.ServeIfRequested()

	exe, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	host, err := hostsdk.Open(context.Background(), &hostsdk.OpenOptions{
		SkillDirs: []string{"skills"},
		Launcher:  pluginproc.Binary{Path: exe},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
}
