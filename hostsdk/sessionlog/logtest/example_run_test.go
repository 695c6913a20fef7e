package logtest_test

import "testing"

// TestExampleRun runs the test that ExampleRun shows, so the example stays
// a test that passes.
func TestExampleRun(t *testing.T) {
	testStore(t)
}
