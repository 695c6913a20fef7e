package mcpskills

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// commandTransport runs a server command and speaks MCP over its stdin and
// stdout, as the SDK's CommandTransport does, with lines bounded at
// maxReadFrameBytes: the SDK's CommandTransport offers no bound but its
// default of MaxMessageBytes, which the JSON escaping of a file well under
// skill.MaxResourceBytes can exceed. The SDK reads one line at a time per
// connection, so a connection holds at most one such line.
type commandTransport struct {
	cmd *exec.Cmd
}

func (t *commandTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	// The connection is closed by closing stdin, not stdout.
	tr := &mcp.IOTransport{Reader: io.NopCloser(stdout), Writer: &processStdin{WriteCloser: stdin, cmd: t.cmd}, MaxLineLength: maxReadFrameBytes}
	return tr.Connect(ctx)
}

// processStdin is the server's stdin; closing it stops the server: it is
// given terminateWait to exit after its stdin closes, then as long again
// after SIGTERM, and is then killed.
type processStdin struct {
	io.WriteCloser
	cmd *exec.Cmd
}

func (s *processStdin) Close() error {
	if err := s.WriteCloser.Close(); err != nil {
		return fmt.Errorf("closing stdin: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	wait := func() (error, bool) {
		select {
		case err := <-exited:
			return err, true
		case <-time.After(terminateWait):
			return nil, false
		}
	}
	if err, ok := wait(); ok {
		return err
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	if err := s.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	if err, ok := wait(); ok {
		return err
	}
	return errors.New("the server process did not exit after it was killed")
}
