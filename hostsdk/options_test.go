package hostsdk_test

import (
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestNewNamesWhatIsMissing: New refuses options without a required part,
// nil included, naming the part, and a negative timeout, naming the option
// and its bound.
func TestNewNamesWhatIsMissing(t *testing.T) {
	tree, reg, store := tools.NewTree(), skilltest.NewRegistry(t), sessionlog.NewMemoryStore()
	for _, tc := range []struct {
		opts *hostsdk.Options
		want string
	}{
		{nil, "Options.Tools is required"},
		{&hostsdk.Options{}, "Options.Tools is required"},
		{&hostsdk.Options{Tools: tree, Sessions: store}, "Options.Skills is required"},
		{&hostsdk.Options{Tools: tree, Skills: reg}, "Options.Sessions is required"},
		{&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store, PreStepTimeout: -time.Second}, "Options.PreStepTimeout must be >= 0"},
		{&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store, ToolCallTimeout: -time.Second}, "Options.ToolCallTimeout must be >= 0"},
	} {
		if _, err := hostsdk.New(tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want an error containing %q", tc.opts, err, tc.want)
		}
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: store})
	if err != nil {
		t.Fatal(err)
	}
	host.Close()
}
