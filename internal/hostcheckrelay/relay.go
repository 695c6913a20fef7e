// Package hostcheckrelay carries a host check's report where the host under
// check cannot forge it.
//
// The host under check starts the plugin binary itself, so whatever it
// hands that process (arguments, environment, a file path, a secret) the
// host can read, and whatever that process writes somewhere the host can
// reach, the host can write too. So the plugin whose report counts is not
// the process the host starts: that process is a stand-in. Started through
// the handshake with hostcheck.RelayEnv in its environment, it connects to
// the checker's socket at that path, passes the checker its standard input,
// output and error (as descriptors, over the socket) and the go-plugin
// handshake variables it was given, and waits. The checker starts its own
// binary as the plugin on those descriptors, so the plugin's handshake line
// reaches the host on the stand-in's standard output and the host talks to
// that plugin as it would to the stand-in; the checker hands the plugin one
// end of a socket pair (hostcheck.ReportFDEnv), the only way the report
// travels. When the plugin exits, the checker sends the stand-in its exit
// status and the stand-in exits with it; when the stand-in's connection
// ends (the host killed it, or the host died), the checker kills the
// plugin.
//
// What the host can do with the checker's socket is ask for a plugin,
// which it then has to drive through real steps for them to count: what
// connects and does not ask for a plugin is refused and fails the check.
// The report's socket pair is held by the checker and by its plugin, a
// child of the checker, not of the host; a socket cannot be opened through
// /proc/PID/fd, and the plugin is started from the checker's own image
// (/proc/self/exe where there is one), not from a path the host could
// rename another binary over.
package hostcheckrelay

import (
	"fmt"
	"strings"

	"github.com/skillcatalog/skillcatalog/internal/wire"
)

// requestMagic is the first byte a stand-in sends, the one its descriptors
// travel with.
const requestMagic = 0xb7

// Bounds of what the checker reads from a connection before it starts a
// plugin, and of the plugins it runs at once for one host.
const (
	maxRequestBytes   = 64 << 10
	maxRequestVars    = 64
	maxPluginsRunning = 32
)

// request is what a stand-in asks of the checker, after its descriptors.
type request struct {
	// Env holds the go-plugin handshake variables the host started the
	// stand-in with ("NAME=value"), for the plugin the checker starts.
	Env []string `json:"env"`
}

// check refuses a request whose variables are not handshake variables: the
// host chooses those of the plugin it starts, and no others.
func (r request) check() error {
	if len(r.Env) > maxRequestVars {
		return fmt.Errorf("%d environment variables, more than the %d allowed", len(r.Env), maxRequestVars)
	}
	for _, kv := range r.Env {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || !wire.HandshakeVar(name) {
			return fmt.Errorf("environment entry %.64q is not a go-plugin handshake variable", kv)
		}
	}
	return nil
}

// handshakeVars returns the entries of env that are go-plugin handshake
// variables.
func handshakeVars(env []string) []string {
	var out []string
	for _, kv := range env {
		if name, _, ok := strings.Cut(kv, "="); ok && wire.HandshakeVar(name) {
			out = append(out, kv)
		}
	}
	return out
}
