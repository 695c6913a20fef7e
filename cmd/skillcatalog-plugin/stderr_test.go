package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/skillcatalog/skillcatalog/internal/wire"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
)

// lockedBuffer is a bytes.Buffer safe for go-plugin's stderr reader and
// the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestEveryStderrLineHasALevel: go-plugin reads the plugin's stderr and
// logs each line at the level its JSON names, or at debug when it names
// none. Every line the plugin writes is such a JSON line, gRPC's own log
// among them (asked for here with GRPC_GO_LOG_SEVERITY_LEVEL=info), so
// a host's logger gets each at its level.
func TestEveryStderrLineHasALevel(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "skillcatalog-plugin")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "GRPC_GO_LOG_SEVERITY_LEVEL=info")
	var raw lockedBuffer
	cfg := wire.ClientConfig(cmd)
	cfg.Stderr = &raw
	cfg.Logger = hclog.NewNullLogger()
	client := goplugin.NewClient(cfg)
	rpc, err := client.Client()
	if err != nil {
		client.Kill()
		t.Fatal(err)
	}
	svc, err := wire.Dispense(rpc)
	if err != nil {
		client.Kill()
		t.Fatal(err)
	}
	if _, err := svc.Configure(context.Background(), contracttest.NewHost(), contract.ConfigureRequest{Config: `{"catalogDescriptionMaxLength": 42}`}); err != nil {
		t.Error(err)
	}
	client.Kill()
	lines, levels := 0, map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader([]byte(raw.String())))
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		lines++
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Errorf("a stderr line that is not JSON: %s", sc.Bytes())
			continue
		}
		level, _ := rec["@level"].(string)
		if level == "" {
			t.Errorf("a stderr line without @level: %s", sc.Bytes())
		}
		levels[level]++
	}
	if levels["info"] == 0 {
		t.Errorf("no info line among the plugin's %d stderr lines (gRPC's, asked for, or the plugin's own): %v", lines, levels)
	}
}
