package mcpskills

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestProviderConformance runs the provider suite against a real test
// server over each transport.
func TestProviderConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(t *testing.T, s *mcpfake.Server) *Provider
	}{
		{"InMemory", func(t *testing.T, s *mcpfake.Server) *Provider {
			return newMemProvider(t, &memServer{Server: s}, Options{Label: "remote"})
		}},
		{"HTTP", func(t *testing.T, s *mcpfake.Server) *Provider {
			s.RequireHeader("Authorization", testToken)
			h, err := s.ListenHTTP("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = h.Stop() })
			return newHTTPProvider(t, Options{Label: "remote", URL: h.URL(), Headers: map[string]string{"Authorization": testToken}})
		}},
		{"Stdio", func(t *testing.T, s *mcpfake.Server) *Provider {
			return newRelayProvider(t, s, Options{Label: "remote"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			skilltest.RunProvider(t, func(t *testing.T) skilltest.Harness {
				s := mcpfake.New()
				return harness(tc.open(t, s), s)
			})
		})
	}
}

// harness drives p, a provider for s, through the server's skills.
func harness(p *Provider, s *mcpfake.Server) skilltest.Harness {
	return skilltest.Harness{
		Provider: p,
		SetSkill: func(t *testing.T, name, description string) {
			s.SetSkill(name, description, "---\nname: "+name+"\n---\n# "+name+"\n")
		},
		RemoveSkill: func(t *testing.T, name string) { s.RemoveSkill(name) },
		Block: func(t *testing.T, op skilltest.Op, name string) (func(context.Context) error, func()) {
			uri := IndexURI
			if op == skilltest.OpLoad {
				uri = mcpfake.SkillURI(name)
			}
			s.SetBlocking(uri, true)
			started := func(ctx context.Context) error {
				select {
				case got := <-s.Started():
					if got != uri {
						return fmt.Errorf("the server blocked a read of %s, want %s", got, uri)
					}
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			return started, func() { s.SetBlocking(uri, false) }
		},
		SessionState: func(id string) bool {
			p.mu.Lock()
			defer p.mu.Unlock()
			return p.sessions[id] != nil
		},
	}
}

// stdioRelayEnv makes the test binary relay its stdin and stdout to the
// unix socket named by the variable's value (see TestMain), so that a
// provider reaches an in-process test server through a real stdio child.
const stdioRelayEnv = "MCPSKILLS_TEST_STDIO_RELAY"

func runStdioRelay(sock string) int {
	c, err := net.Dial("unix", sock)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	go func() {
		_, _ = io.Copy(c, os.Stdin)
		_ = c.(*net.UnixConn).CloseWrite()
	}()
	_, _ = io.Copy(os.Stdout, c)
	return 0
}

// newRelayProvider returns a stdio provider whose server process relays to
// s, served in this process.
func newRelayProvider(t *testing.T, s *mcpfake.Server, cfg Options) *Provider {
	t.Helper()
	// Socket paths are short-lived and must stay under the platform's
	// length limit, which test-named temporary directories can exceed.
	dir, err := os.MkdirTemp("", "mcpskills")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() {
				ss, err := s.MCPServer().Connect(context.Background(), &mcp.IOTransport{Reader: c, Writer: c}, nil)
				if err != nil {
					_ = c.Close()
					return
				}
				_ = ss.Wait()
			})
		}
	})
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
		_ = os.RemoveAll(dir)
	})

	cfg.Command = []string{os.Args[0], "-test.run=^$"}
	cfg.Env = []string{stdioRelayEnv + "=" + sock}
	p, err := New(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Registered after the server's cleanup, so it runs first.
	t.Cleanup(func() {
		if err := p.Close(); err != nil && !errors.Is(err, ErrClosed) {
			t.Errorf("Close: %v", err)
		}
	})
	return p
}
