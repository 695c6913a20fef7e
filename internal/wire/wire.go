// Package wire holds what both ends of the go-plugin connection must agree
// on: the handshake, the plugin set names and protocol versions, and the
// go-plugin glue that exposes the gRPC services.
package wire

import (
	"context"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	skillcatalogv1 "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// PluginName is the key of the skill-catalog plugin in every plugin set.
const PluginName = "skillcatalog"

// ProtocolV1 is the go-plugin protocol version that speaks skillcatalog.v1.
const ProtocolV1 = 1

// Handshake guards against running the plugin binary by hand and against
// host/plugin protocol mismatches. The cookie is not a secret.
func Handshake() goplugin.HandshakeConfig {
	return goplugin.HandshakeConfig{
		ProtocolVersion:  ProtocolV1,
		MagicCookieKey:   "SKILLCATALOG_PLUGIN",
		MagicCookieValue: "6f1d2a8c-skillcatalog-plugin-b47e0c93",
	}
}

// CookieSet reports whether the process was started by a host through the
// handshake, judging by the magic cookie in the environment.
func CookieSet(getenv func(string) string) bool {
	h := Handshake()
	return getenv(h.MagicCookieKey) == h.MagicCookieValue
}

// GRPCPlugin is the go-plugin adapter for protocol v1. The plugin process
// sets NewServer; the host leaves it nil and uses the client half.
type GRPCPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	// NewServer builds the PluginService implementation; it receives the
	// broker so the plugin can dial the host's services.
	NewServer func(broker *goplugin.GRPCBroker) skillcatalogv1.PluginServiceServer
}

// Client is what the host gets from Dispense: the plugin's service client and
// the broker on which it serves host services.
type Client struct {
	Plugin skillcatalogv1.PluginServiceClient
	Broker *goplugin.GRPCBroker
}

// GRPCServer registers the plugin service on the plugin's gRPC server.
func (p *GRPCPlugin) GRPCServer(broker *goplugin.GRPCBroker, s *grpc.Server) error {
	skillcatalogv1.RegisterPluginServiceServer(s, p.NewServer(broker))
	return nil
}

// GRPCClient wraps the host's connection to the plugin.
func (p *GRPCPlugin) GRPCClient(_ context.Context, broker *goplugin.GRPCBroker, conn *grpc.ClientConn) (interface{}, error) {
	return &Client{Plugin: skillcatalogv1.NewPluginServiceClient(conn), Broker: broker}, nil
}

// VersionedPlugins returns the plugin sets per protocol version, so a v2
// protocol can be added beside v1 and negotiated by go-plugin.
func VersionedPlugins(p *GRPCPlugin) map[int]goplugin.PluginSet {
	return map[int]goplugin.PluginSet{
		ProtocolV1: {PluginName: p},
	}
}
