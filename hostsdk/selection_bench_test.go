package hostsdk_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// BenchmarkSelectionStep compares steps of a session without a selection
// and of one that excludes a skill, over go-plugin with the file store,
// 1,000 skills and a 100,000-event session: the steady step where nothing
// changed, and the step of an agent loop (two messages appended, untimed,
// before each step), where the host finds no new selection among the events
// it reads anyway. resume-first-step is the first step of a fresh host on
// the session, which reads the log back for its newest selection record:
// every event when the session has none.
func BenchmarkSelectionStep(b *testing.B) {
	for _, mode := range []string{"none", "exclude-one"} {
		b.Run("selection="+mode, func(b *testing.B) {
			store, err := sessionlog.NewFileStore(b.TempDir(), nil)
			if err != nil {
				b.Fatal(err)
			}
			host, _, _ := benchHostWith(b, 1000, store)
			seed(b, store, "s1", 100_000)
			ctx := context.Background()
			if mode != "none" {
				if err := host.Session("s1", nil).SelectSkills(ctx, hostsdk.Selection{ExcludeNames: []string{"skill-00007"}}); err != nil {
					b.Fatal(err)
				}
			}
			step := hostsdk.Step{SessionID: "s1", Cwd: "/work", AgentScope: "agent:a"}
			for i := 0; i < 3; i++ { // publish, read it back, settle
				if _, err := runStep(ctx, host, step); err != nil {
					b.Fatal(err)
				}
			}
			mustUnchanged := func(b *testing.B, h *hostsdk.Host) {
				res, err := runStep(ctx, h, step)
				if err != nil || res.Outcome != hostsdk.OutcomeUnchanged {
					b.Fatalf("outcome %s, err %v", res.Outcome, err)
				}
			}
			b.Run("steady-step", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					mustUnchanged(b, host)
				}
			})
			log, err := store.Open(ctx, "s1")
			if err != nil {
				b.Fatal(err)
			}
			defer log.Close()
			b.Run("loop-step", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					if _, err := log.Append(ctx, loopRecords()...); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					mustUnchanged(b, host)
				}
			})
			b.Run("resume-first-step", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					fresh, _, _ := benchHostWith(b, 1000, store)
					// The registry's snapshot is computed untimed: only the
					// session's first step is measured.
					if _, err := fresh.Session(fmt.Sprint("warm-", i), &hostsdk.SessionOptions{Cwd: "/work", AgentScope: "agent:a"}).Step(ctx, hostsdk.Decision{}, nil); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					mustUnchanged(b, fresh)
					b.StopTimer()
					fresh.Close()
					b.StartTimer()
				}
			})
		})
	}
}
