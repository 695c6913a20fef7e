package plugin

import (
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
)

// TestEngineKeepsTheContract runs the contract's test kit against the
// engine in process: the service a host drives with
// &hostsdk.LoadOptions{InProcess: true}.
func TestEngineKeepsTheContract(t *testing.T) {
	t.Parallel()
	contracttest.RunService(t, func(*testing.T) contract.Service { return New(nil) })
}
