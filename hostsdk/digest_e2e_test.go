package hostsdk_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// TestOwnCatalogComesBackByDigest: the plugin binary resolves the catalog
// it published, which the next step sends back by its digest only, without
// calling back; so does the step after a replacement. (Were the digest not
// resolved, the plugin would read the log: a ReadEvents callback.)
func TestOwnCatalogComesBackByDigest(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	for i := range 40 {
		e.register(tools.GlobalScope, fmt.Sprintf("skill-%02d", i), "A description long enough that forty of them make a catalog source of several KiB: "+strings.Repeat("x", 40))
	}
	e.mount(tools.GlobalScope)
	if res := e.step("s1", "agent:a"); res.Outcome != hostsdk.OutcomeInitial {
		t.Fatalf("step 1: %s", res.Outcome)
	}
	loop := func() {
		t.Helper()
		if _, err := e.host.Session("s1", nil).Append(context.Background(), hostsdk.Message{ID: fmt.Sprint("a", e.t.Name()), Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("ok")}}); err != nil {
			t.Fatal(err)
		}
		res := e.step("s1", "agent:a")
		if res.Outcome != hostsdk.OutcomeUnchanged || res.Callbacks.Total() != 0 {
			t.Fatalf("the step after a catalog: outcome %s with callbacks %+v, want unchanged with none", res.Outcome, res.Callbacks)
		}
	}
	loop()
	e.register(tools.GlobalScope, "skill-new", "Added later.")
	if res := e.step("s1", "agent:a"); res.Outcome != hostsdk.OutcomeReplacement {
		t.Fatalf("the step after a change: %s", res.Outcome)
	}
	loop()
}
