// Package wire is the one place where the protocol meets gRPC: what both
// ends of the go-plugin connection agree on (the handshake, the plugin set
// and its protocol versions, the message limit), the conversion of every
// protocol message to the Go types of package contract and back, the
// mapping of errors to gRPC status codes and back, and go-plugin's broker.
//
// It adapts both interfaces of the contract, one adapter per direction:
//
//   - contract.Service ⇄ PluginService: a host's serviceClient turns the
//     seven calls into gRPC requests; the plugin's serviceServer answers
//     them by calling the service it serves (the engine).
//   - contract.Host ⇄ HostService: the serviceClient serves the Host that
//     Service.Configure is given on go-plugin's broker (hostServer), and the
//     serviceServer dials it there and hands the engine a hostClient.
//
// A host therefore never sees the broker, a status code or a generated
// type: it starts a process with ClientConfig, calls Dispense for its
// contract.Service, and asks Unanswered whether a failed call got no answer
// at all. A plugin binary serves with ServeConfig.
//
// Whose fault a failure was crosses the wire as a status code (see
// proto/HOSTS.md): a failure of the host's side is ABORTED, which the
// client turns back into an error matching contract.ErrHostFailed. What
// the wire alone loses, it restores: when a call runs out of time while a
// host callback of its session is running or has failed, the client marks
// the deadline the host's too, as the engine does in process.
//
// Trace context crosses as W3C Trace Context in the gRPC metadata: with
// PreStep and ExecuteSkillTool to the plugin, and from there with every
// callback the plugin makes for the call, so a host's callback spans are
// children of its span for the plugin's call (see trace.go).
package wire

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// pluginName is the key of the skill-catalog plugin in every plugin set.
const pluginName = "skillcatalog"

// ProtocolV1 is the go-plugin protocol version that speaks skillcatalog.v1.
const ProtocolV1 = 1

// handshake guards against running the plugin binary by hand and against
// host/plugin protocol mismatches. The cookie is not a secret.
func handshake() goplugin.HandshakeConfig {
	return goplugin.HandshakeConfig{
		ProtocolVersion:  ProtocolV1,
		MagicCookieKey:   "SKILLCATALOG_PLUGIN",
		MagicCookieValue: "6f1d2a8c-skillcatalog-plugin-b47e0c93",
	}
}

// CookieSet reports whether the process was started by a host through the
// handshake, judging by the magic cookie in the environment.
func CookieSet(getenv func(string) string) bool {
	h := handshake()
	return getenv(h.MagicCookieKey) == h.MagicCookieValue
}

// HandshakeVar reports whether the environment variable name is part of
// the go-plugin handshake a host starts the plugin with: the magic cookie
// or one of go-plugin's PLUGIN_ variables (protocol versions, the client
// certificate of AutoMTLS, the socket directory, the port range).
func HandshakeVar(name string) bool {
	return name == handshake().MagicCookieKey || strings.HasPrefix(name, "PLUGIN_")
}

// ServeConfig is what a plugin process passes to goplugin.Serve to serve
// svc: the handshake, protocol v1, and gRPC servers with the protocol's
// message limits.
func ServeConfig(svc contract.Service, logger hclog.Logger) *goplugin.ServeConfig {
	return &goplugin.ServeConfig{
		HandshakeConfig:  handshake(),
		VersionedPlugins: versionedPlugins(&grpcPlugin{service: svc}),
		GRPCServer:       newGRPCServer,
		Logger:           logger,
	}
}

// ClientConfig is what a host passes to goplugin.NewClient to start the
// plugin binary cmd: the handshake, protocol v1 over gRPC only, AutoMTLS,
// and the protocol's message limits. The caller adds what is its own (a
// checksum, a logger).
func ClientConfig(cmd *exec.Cmd) *goplugin.ClientConfig {
	return &goplugin.ClientConfig{
		HandshakeConfig:  handshake(),
		VersionedPlugins: versionedPlugins(&grpcPlugin{}),
		Cmd:              cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		AutoMTLS:         true,
		GRPCDialOptions:  dialOptions(),
	}
}

// Dispense returns the plugin's service on a started go-plugin client
// connection.
func Dispense(rpc goplugin.ClientProtocol) (contract.Service, error) {
	raw, err := rpc.Dispense(pluginName)
	if err != nil {
		return nil, err
	}
	svc, ok := raw.(*serviceClient)
	if !ok {
		return nil, fmt.Errorf("unexpected plugin client type %T", raw)
	}
	return svc, nil
}

// grpcPlugin is the go-plugin adapter for protocol v1. The plugin process
// sets service; a host leaves it nil and uses the client half.
type grpcPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	service contract.Service
}

// GRPCServer registers the plugin service on the plugin's gRPC server.
func (p *grpcPlugin) GRPCServer(broker *goplugin.GRPCBroker, s *grpc.Server) error {
	if p.service == nil {
		return errors.New("skill-catalog plugin: no service to serve")
	}
	pb.RegisterPluginServiceServer(s, &serviceServer{service: p.service, broker: broker, hosts: make(map[uint32]hostClient)})
	return nil
}

// GRPCClient wraps the host's connection to the plugin.
func (p *grpcPlugin) GRPCClient(_ context.Context, broker *goplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return newServiceClient(pb.NewPluginServiceClient(conn), broker), nil
}

// versionedPlugins returns the plugin sets per protocol version, so a v2
// protocol can be added beside v1 and negotiated by go-plugin.
func versionedPlugins(p *grpcPlugin) map[int]goplugin.PluginSet {
	return map[int]goplugin.PluginSet{
		ProtocolV1: {pluginName: p},
	}
}
