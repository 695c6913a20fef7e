package logtest_test

import (
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog/logtest"
)

// testStore is the test a store's package writes, named TestStore there:
// Run checks one log, RunStore the store that opens them, each check a
// subtest. The package's memory store stands in for a store of one's own
// (on a database, a replicated log). TestExampleRun in this package runs
// it.
func testStore(t *testing.T) {
	logtest.Run(t, func(t *testing.T) sessionlog.Log {
		return sessionlog.NewMemory()
	})
	logtest.RunStore(t, func(t *testing.T) sessionlog.Store {
		return sessionlog.NewMemoryStore()
	})
}

// A store's test hands Run a function that returns a new, empty log, and
// RunStore one that returns a new, empty store. The suites need a test's
// *testing.T, so this example only compiles; testStore above is the test.
func ExampleRun() {}
