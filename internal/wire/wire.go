// Package wire is the one place where the protocol meets Go: what both
// ends of the go-plugin connection must agree on (the handshake, the plugin
// set names and protocol versions, the go-plugin glue that exposes the gRPC
// services, and MaxMessageBytes, the limit both ends apply to every message
// either way), the conversion of every protocol message to the plugin's Go
// types and back, and the mapping of errors to gRPC status codes and back.
//
// The plugin's gRPC server (package pluginserver) and the host's client and
// callback services (package hostsdk) use it; nothing else sees a generated
// type.
package wire

import (
	"context"
	"errors"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/skillcatalog/skillcatalog/plugin"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
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
// sets Core; the host leaves it nil and uses the client half.
type GRPCPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	// Core is the plugin the process serves.
	Core *plugin.Core
}

// Client is what the host gets from Dispense: the plugin's service and the
// broker on which the host serves its callbacks.
type Client struct {
	Plugin PluginClient
	Broker *goplugin.GRPCBroker
}

// GRPCServer registers the plugin service on the plugin's gRPC server.
func (p *GRPCPlugin) GRPCServer(broker *goplugin.GRPCBroker, s *grpc.Server) error {
	if p.Core == nil {
		return errors.New("skill-catalog plugin: no core to serve")
	}
	pb.RegisterPluginServiceServer(s, NewPluginServer(p.Core, broker))
	return nil
}

// GRPCClient wraps the host's connection to the plugin.
func (p *GRPCPlugin) GRPCClient(_ context.Context, broker *goplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return &Client{Plugin: PluginClient{c: pb.NewPluginServiceClient(conn)}, Broker: broker}, nil
}

// VersionedPlugins returns the plugin sets per protocol version, so a v2
// protocol can be added beside v1 and negotiated by go-plugin.
func VersionedPlugins(p *GRPCPlugin) map[int]goplugin.PluginSet {
	return map[int]goplugin.PluginSet{
		ProtocolV1: {PluginName: p},
	}
}
