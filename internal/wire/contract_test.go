package wire

import (
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
)

// TestContractOverGRPC runs the contract's test kit against the engine
// behind both of this package's adapters, on go-plugin's in-process gRPC
// connection with a real broker: the host's serviceClient, the plugin's
// serviceServer, and the host's callbacks through hostServer and
// hostClient.
func TestContractOverGRPC(t *testing.T) {
	contracttest.RunService(t, func(t *testing.T) contract.Service {
		svc, _ := connect(t, plugin.New(nil), nil)
		return svc
	})
}
