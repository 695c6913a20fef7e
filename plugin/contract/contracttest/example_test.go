package contracttest_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
)

// countingService is a service of one's own: the engine behind a layer
// that counts steps, as a host's middleware might. Whatever it adds, it
// must keep the contract the engine keeps.
type countingService struct {
	contract.Service
	steps atomic.Int64
}

func (s *countingService) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	s.steps.Add(1)
	return s.Service.PreStep(ctx, req)
}

// testCountingService is the test the service's package writes, named
// TestCountingService there; RunService runs every check as a subtest,
// each with a fresh service. (TestExampleRunService in this package runs
// it.)
func testCountingService(t *testing.T) {
	contracttest.RunService(t, func(t *testing.T) contract.Service {
		return &countingService{Service: plugin.New(nil)}
	})
}

// A service's test hands RunService a factory of fresh services; the run
// drives each with its own scriptable Host. The run needs a test's
// *testing.T, so this example only compiles; testCountingService above is
// the test.
func ExampleRunService() {}
