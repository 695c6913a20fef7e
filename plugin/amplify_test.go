package plugin

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// TestInvocationArgumentsAmplification: a body that repeats $ARGUMENTS
// 700,000 times (7.7 MB, under the body limit) invoked with 400 bytes of
// arguments would make 280 MB of text. The step is refused with an error
// naming the bound, and the refusal allocates nothing near that size.
func TestInvocationArgumentsAmplification(t *testing.T) {
	body := strings.Repeat("$ARGUMENTS ", 700_000)
	if len(body) >= skill.MaxSkillFileBytes {
		t.Fatalf("body of %d bytes is not under the body limit", len(body))
	}
	args := strings.Repeat("x", 400)
	mem := newMemHost(summary("amp", "Amplifies."))
	mem.defs["amp"] = definition("amp", skill.DefaultPolicy(), body)
	m := invocationMount()
	m.cfg.InvocationArguments = true
	req := step(mem, enter(typed("u1", "/amp "+args)))

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := newEngine().preStep(context.Background(), mem, m, req)
	runtime.ReadMemStats(&after)

	// The output would be 280 MB; refusing it may cost a little scanning,
	// not the output.
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("the refused step allocated %d bytes, want under 4 MiB (the substituted text would be %d bytes)", got, 700_000*(len(args)+1))
	}
	var inv *invocationError
	if !errors.As(err, &inv) || inv.Name != "amp" {
		t.Fatalf("preStep error = %v, want an *invocationError", err)
	}
	if bound := strconv.Itoa(render.MaxSubstitutedBytes); !strings.Contains(err.Error(), bound) || !strings.Contains(err.Error(), "MaxSubstitutedBytes") {
		t.Errorf("error %q does not name the bound (MaxSubstitutedBytes, %s bytes)", err, bound)
	}
}
