package hostsdk_test

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// sessionSkills lists, for every session, 100 skills of its own whose
// descriptions are about 1,000 bytes and name the session: no two
// sessions' catalogs share a byte of their descriptions.
type sessionSkills struct{ filler string }

const (
	memSkills    = 100
	memDescBytes = 1000
)

func newSessionSkills() *sessionSkills {
	return &sessionSkills{filler: strings.Repeat("Reads the inputs, checks them against the house rules and writes a short report. ", memDescBytes/80+1)}
}

func (p *sessionSkills) List(_ context.Context, req skills.ListRequest) (skills.Observation, error) {
	out := make([]skill.Summary, memSkills)
	for i := range out {
		head := fmt.Sprintf("Session %s, skill %d: ", req.SessionID, i)
		out[i] = skill.Summary{
			Name:        fmt.Sprintf("skill-%03d", i),
			Description: head + p.filler[:memDescBytes-len(head)],
			Invocation:  skill.DefaultPolicy(),
			Provider:    "per-session",
		}
	}
	return skills.Observation{Skills: out, Complete: true}, nil
}

func (p *sessionSkills) Load(context.Context, skills.LoadRequest) (skill.Definition, bool, error) {
	return skill.Definition{}, false, nil
}

// BenchmarkLiveSessionHeap measures the host's live heap with many
// sessions open at once: the in-process plugin, a file store that keeps
// every session's file open, and 100 skills with ~1,000-byte descriptions that
// differ per session. Each session takes two steps: the first publishes
// its catalog with the user's message, the second is a steady step that reads it back, whose
// allocations and time are reported per step as steady-B/step,
// steady-allocs/step and steady-ns/step. Then the heap left after garbage collection is
// reported as heap-MB (the whole process's), and what the sessions added,
// per session, as heap-KB/session. Every step of each round runs once per
// benchmark iteration; run it with -benchtime 1x:
//
//	go test ./hostsdk -run '^$' -bench LiveSessionHeap -benchtime 1x
func BenchmarkLiveSessionHeap(b *testing.B) {
	for _, n := range []int{200, 2000, 4000, 6000} {
		b.Run("sessions="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				benchLiveSessions(b, n)
			}
		})
	}
}

// benchLiveSessions steps n sessions of a fresh host twice each and
// reports the live heap it holds then.
func benchLiveSessions(b *testing.B, n int) {
	// Every session's file stays open, as it does under the default
	// descriptor budget where the process may open 24,000 files or more.
	store, err := sessionlog.NewFileStore(b.TempDir(), &sessionlog.FileStoreOptions{MaxOpenFiles: 2 * n})
	if err != nil {
		b.Fatal(err)
	}
	reg := skilltest.NewRegistry(b)
	reg.AddProvider(tools.GlobalScope, newSessionSkills(), nil)
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: reg, Sessions: store})
	if err != nil {
		b.Fatal(err)
	}
	defer host.Close()
	ctx := context.Background()
	p, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := p.Mount(ctx, tools.GlobalScope, nil); err != nil {
		b.Fatal(err)
	}
	before := liveHeap()
	stepAll(b, host, n, 0, hostsdk.OutcomeInitial)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	stepAll(b, host, n, 1, hostsdk.OutcomeUnchanged)
	took := time.Since(start)
	runtime.ReadMemStats(&m1)
	b.StopTimer()
	after := liveHeap()
	b.ReportMetric(float64(after)/(1<<20), "heap-MB")
	b.ReportMetric(float64(after-before)/(1<<10)/float64(n), "heap-KB/session")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(n), "steady-B/step")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(n), "steady-allocs/step")
	b.ReportMetric(float64(took.Nanoseconds())/float64(n), "steady-ns/step")
	runtime.KeepAlive(host)
	runtime.KeepAlive(store)
	b.StartTimer()
}

// stepAll steps sessions s0 to s<n-1> once each, as step k, expecting
// outcome. Step 0 carries the user's message that starts the turn.
func stepAll(b *testing.B, host *hostsdk.Host, n, k int, outcome hostsdk.Outcome) {
	ctx := context.Background()
	for s := 0; s < n; s++ {
		step := hostsdk.Step{SessionID: "s" + strconv.Itoa(s), Cwd: "/work", AgentScope: tools.GlobalScope, Step: k}
		if k == 0 {
			// The user's message that starts the turn, appended with the
			// catalog.
			step.Downstream.Messages = []hostsdk.Message{{ID: "u1", Role: hostsdk.RoleUser, UserInput: true,
				Content: []hostsdk.ContentBlock{{Type: "text", Text: "Summarize the open issues of session " + step.SessionID + "."}}}}
		}
		res, err := runStep(ctx, host, step)
		if err != nil || res.Outcome != outcome {
			b.Fatalf("step %d of session %d: outcome %s, want %s; err %v", k, s, res.Outcome, outcome, err)
		}
	}
}

// liveHeap is the heap in use after a collection, as a heap profile
// counts it: what sync.Pools hold survives one collection, and so counts.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
