//go:build !unix

package agentskills

import "testing"

func mkfifo(t *testing.T, _ string) error {
	t.Skip("no FIFOs on this platform")
	return nil
}
