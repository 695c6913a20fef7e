package hostsdk_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestChangeStepMakesNoCallback: through the plugin binary, the host sends
// a step whose session's skills changed the snapshot the plugin would ask
// for, as a delta against the one it answered the session with, so a
// replacement, a removal and an incomplete snapshot cost one PreStep and
// no callback; the catalog is the one the callback would have given.
func TestChangeStepMakesNoCallback(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	for i := range 5 {
		e.register(tools.GlobalScope, fmt.Sprintf("skill-%02d", i), fmt.Sprintf("Handles task %d.", i))
	}
	e.mount(tools.GlobalScope)
	if res := e.step("s1", "agent:a"); res.Outcome != hostsdk.OutcomeInitial {
		t.Fatalf("step 1: %s", res.Outcome)
	}
	noCallback := func(what string, want hostsdk.Outcome, names ...string) hostsdk.StepResult {
		t.Helper()
		res := e.step("s1", "agent:a")
		if res.Outcome != want || res.Callbacks != (hostsdk.CallbackCounts{}) {
			t.Fatalf("%s: outcome %s with callbacks %+v, want %s with none", what, res.Outcome, res.Callbacks, want)
		}
		if got, _ := catalog(res); !slices.Equal(got, names) {
			t.Fatalf("%s: the catalog lists %v, want %v", what, got, names)
		}
		return res
	}
	noCallback("a step where nothing changed", hostsdk.OutcomeUnchanged)

	e.register(tools.GlobalScope, "skill-01", "Changed: handles task 1 differently.")
	res := noCallback("a changed description", hostsdk.OutcomeReplacement, "skill-00", "skill-01", "skill-02", "skill-03", "skill-04")
	if text := res.Decision.Messages[0].Text(); !strings.Contains(text, "Changed: handles task 1 differently.") {
		t.Fatalf("the replacement does not carry the new description:\n%s", text)
	}
	if !e.reg.Unregister(tools.GlobalScope, "skill-02") {
		t.Fatal("skill-02 was not registered")
	}
	noCallback("a removed skill", hostsdk.OutcomeReplacement, "skill-00", "skill-01", "skill-03", "skill-04")

	failing := skilltest.New(nil)
	failing.SetListError(errors.New("skills server unreachable"))
	remove := e.reg.AddProvider(tools.GlobalScope, failing, nil)
	res = noCallback("an incomplete snapshot", hostsdk.OutcomeIncomplete)
	if !slices.ContainsFunc(res.Reasons, func(r hostsdk.Reason) bool {
		return r.Code == contract.ReasonProviderIncomplete && strings.Contains(r.Detail, "skills server unreachable")
	}) {
		t.Fatalf("the incomplete step's reasons do not name the provider's error: %+v", res.Reasons)
	}
	remove()
	// The incomplete step decided without reading the session, so this one
	// reads it; the snapshot it needs is the one the plugin holds.
	if res := e.step("s1", "agent:a"); res.Outcome != hostsdk.OutcomeUnchanged || res.Callbacks.Snapshot != 0 {
		t.Fatalf("the step after the provider went away: outcome %s with callbacks %+v, want unchanged with no Snapshot", res.Outcome, res.Callbacks)
	}

	// A session the host has answered no snapshot yet asks, as it always did.
	if res := e.step("s2", "agent:a"); res.Outcome != hostsdk.OutcomeInitial || res.Callbacks.Snapshot > 1 {
		t.Fatalf("a new session's first step: outcome %s with callbacks %+v", res.Outcome, res.Callbacks)
	}
}
