package wire

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// gRPC's defaults (4 MiB received by a server, 2 GiB by go-plugin's
// clients) were neither the protocol's limit; every server and connection
// of the protocol applies contract.MaxMessageBytes both ways.

// maxHeaderListBytes bounds the metadata of a call a server of the
// protocol accepts, as gRPC counts it (each entry's name and value and 32
// bytes). The protocol's own metadata is trace context (a 55-byte
// traceparent and a tracestate of at most 32 members) and gRPC's headers,
// far below it; without it gRPC's default let a peer make the server hold
// 16 MiB of headers per call, and a larger header cut off the whole
// connection, every call on it. A Go peer refuses to send more, and the
// call fails on its side without reaching the server.
const maxHeaderListBytes = 64 << 10

// serverOptions are the gRPC server options of every server of the
// protocol: the plugin's and the host's callback server on the broker.
func serverOptions() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.MaxRecvMsgSize(contract.MaxMessageBytes), grpc.MaxSendMsgSize(contract.MaxMessageBytes), grpc.MaxHeaderListSize(maxHeaderListBytes)}
}

// dialOptions are the gRPC dial options of every connection of the
// protocol: the host's to the plugin (go-plugin's
// ClientConfig.GRPCDialOptions) and the plugin's to the host's callbacks
// on the broker. They come after go-plugin's own, which they override.
func dialOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(contract.MaxMessageBytes), grpc.MaxCallSendMsgSize(contract.MaxMessageBytes))}
}

// newGRPCServer builds a gRPC server with go-plugin's options and the
// protocol's limits: the plugin's server (go-plugin's ServeConfig.GRPCServer)
// and the host's callback server on the broker.
func newGRPCServer(opts []grpc.ServerOption) *grpc.Server {
	return grpc.NewServer(append(opts[:len(opts):len(opts)], serverOptions()...)...)
}

// checkSize refuses a message over contract.MaxMessageBytes before it is
// sent.
func checkSize(what string, m proto.Message) error {
	if n := proto.Size(m); n > contract.MaxMessageBytes {
		return &contract.MessageTooLargeError{Message: what, Size: n}
	}
	return nil
}

// tooLarge turns gRPC's refusal of an oversized message (ResourceExhausted)
// into a *contract.MessageTooLargeError naming the message; other errors
// are returned as they are.
func tooLarge(what string, err error) error {
	if st, ok := status.FromError(err); ok && st.Code() == codes.ResourceExhausted {
		return &contract.MessageTooLargeError{Message: what, Detail: st.Message()}
	}
	return err
}
