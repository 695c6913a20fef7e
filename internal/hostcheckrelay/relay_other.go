//go:build !unix

package hostcheckrelay

import (
	"errors"
	"runtime"

	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

// errUnsupported: the relay passes descriptors over a Unix domain socket.
var errUnsupported = errors.New("the host checker needs Unix domain sockets that pass descriptors, which " + runtime.GOOS + " does not offer")

// Relay is the checker's end; on this system it cannot be opened.
type Relay struct{}

// Result is what the plugins the checker started for a host reported.
type Result struct {
	Report   hostcheck.Report
	Plugins  int
	Problems []string
}

// Listen fails: see errUnsupported.
func Listen(path, exe string) (*Relay, error) { return nil, errUnsupported }

// Path is never called: Listen never returns a Relay.
func (r *Relay) Path() string { return "" }

// Close is never called: Listen never returns a Relay.
func (r *Relay) Close() Result { return Result{} }

// Stub fails: see errUnsupported.
func Stub(path string, env []string) (int, error) { return 1, errUnsupported }
