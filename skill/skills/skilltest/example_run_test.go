package skilltest_test

import "testing"

// TestExampleRunProvider runs the provider and the test that ExampleRunProvider
// shows, so the example stays a provider that passes the suite.
func TestExampleRunProvider(t *testing.T) {
	testMapProvider(t)
}
