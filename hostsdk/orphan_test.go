package hostsdk_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/pluginproc"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// The orphan tests run the test binary again as a host process (TestMain
// sees testHostMode), kill it with SIGKILL, and watch its plugin.
const (
	testHostMode   = "SKILLCATALOG_TEST_HOST_MODE"
	testHostPlugin = "SKILLCATALOG_TEST_HOST_PLUGIN"
	// orphanBound is generous: the plugin checks for its host four times a
	// second, but a loaded CI machine may be slow to schedule it.
	orphanBound = 30 * time.Second
)

// runTestHost is a host process: it loads and mounts the plugin, prints the
// plugin's process id and, in mode "mid-prestep", starts a step whose skill
// listing hangs and says so; then it waits to be killed.
func runTestHost(mode string) int {
	if mode == "replica" {
		return runReplicaProcess()
	}
	ctx := context.Background()
	reg, err := skills.NewRegistry(nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	hang := skilltest.New(nil)
	if mode == "mid-prestep" {
		hang.SetHang(skilltest.OpList, true)
	}
	reg.AddProvider(tools.GlobalScope, hang, nil)
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: reg, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	p, err := host.Load(ctx, &hostsdk.LoadOptions{Launcher: pluginproc.Binary{Path: os.Getenv(testHostPlugin)}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := p.Mount(ctx, tools.GlobalScope, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("plugin-pid %d\n", p.PID())
	if mode == "mid-prestep" {
		go host.Session("s1", &hostsdk.SessionOptions{AgentScope: tools.GlobalScope}).Step(ctx, hostsdk.Decision{}, nil)
		<-hang.Started()
		fmt.Println("in-prestep")
	}
	select {} // until killed
}

// TestPluginExitsWhenItsHostIsKilled: a host killed with SIGKILL, idle or in
// the middle of a step, leaves no plugin process behind.
func TestPluginExitsWhenItsHostIsKilled(t *testing.T) {
	for _, mode := range []string{"idle", "mid-prestep"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), testHostMode+"="+mode, testHostPlugin+"="+pluginPath)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Wait()
			defer cmd.Process.Kill()

			lines := bufio.NewScanner(out)
			pid := 0
			for lines.Scan() {
				if rest, ok := strings.CutPrefix(lines.Text(), "plugin-pid "); ok {
					if pid, err = strconv.Atoi(rest); err != nil || pid <= 0 {
						t.Fatalf("host printed %q", lines.Text())
					}
					if mode == "idle" {
						break
					}
				}
				if lines.Text() == "in-prestep" {
					break
				}
			}
			if pid == 0 {
				t.Fatalf("the host process never reported its plugin; stderr:\n%s", stderr.String())
			}
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })

			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			deadline := time.Now().Add(orphanBound)
			for !processGone(pid) {
				if time.Now().After(deadline) {
					t.Fatalf("plugin process %d is still running %s after its host was killed (%s)", pid, orphanBound, mode)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// processGone reports whether pid has exited: it no longer exists, or it is
// a zombie that its new parent has not reaped yet.
func processGone(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		if os.IsNotExist(err) {
			return true
		}
		return syscall.Kill(pid, 0) != nil // no /proc: ask the kernel
	}
	// The state follows the parenthesized command name.
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z' || stat[i+2] == 'X'
	}
	return false
}
