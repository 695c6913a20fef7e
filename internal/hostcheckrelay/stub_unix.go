//go:build unix

package hostcheckrelay

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"syscall"
)

// Stub is the stand-in's side, run by the plugin binary a host started
// with hostcheck.RelayEnv set to path: it asks the checker there to start
// the plugin on this process's standard input, output and error, with the
// go-plugin handshake variables of env, and returns the plugin's exit
// status once the plugin has exited. The connection stays open until this
// process exits, which tells the checker to kill the plugin.
func Stub(path string, env []string) (int, error) {
	conn, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return 1, fmt.Errorf("connect to the host checker: %w", err)
	}
	defer conn.Close()
	if _, _, err := conn.WriteMsgUnix([]byte{requestMagic}, syscall.UnixRights(0, 1, 2), nil); err != nil {
		return 1, fmt.Errorf("pass standard input, output and error to the host checker: %w", err)
	}
	if err := json.NewEncoder(conn).Encode(request{Env: handshakeVars(env)}); err != nil {
		return 1, fmt.Errorf("ask the host checker for its plugin: %w", err)
	}
	var status [1]byte
	if _, err := io.ReadFull(conn, status[:]); err != nil {
		return 1, fmt.Errorf("the host checker ended before its plugin did: %w", err)
	}
	return int(status[0]), nil
}
