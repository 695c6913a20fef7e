//go:build !linux

package supervisor

import (
	"crypto/sha256"
	"os/exec"

	goplugin "github.com/hashicorp/go-plugin"
)

// verifyAndPin has go-plugin verify the binary: it hashes the file at the
// path and then executes the path. Without Linux's sealed memory files the
// bytes hashed and the bytes run are not tied together, so a binary
// renamed over the path between the two runs unchecked; keep the binary in
// a directory only trusted users can write to.
func verifyAndPin(_ *exec.Cmd, cfg *goplugin.ClientConfig, sum []byte) (release func(), err error) {
	cfg.SecureConfig = &goplugin.SecureConfig{Checksum: sum, Hash: sha256.New()}
	return func() {}, nil
}
