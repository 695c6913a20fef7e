package contracttest_test

import "testing"

// TestExampleRunService runs the service and the test that
// ExampleRunService shows, so the example stays a service that keeps the
// contract.
func TestExampleRunService(t *testing.T) {
	testCountingService(t)
}
