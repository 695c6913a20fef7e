package wire

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
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
// call fails on its side without reaching the server; the host's client
// refuses first (checkMetadata), with an error that is the host's.
const maxHeaderListBytes = 64 << 10

// grpcHeaderAllowance is the part of maxHeaderListBytes a host's client
// leaves to the headers gRPC adds to every call (:path, :authority,
// content-type, user-agent, grpc-timeout and the rest, well under 1 KiB):
// the call's own metadata may take the remainder, maxMetadataBytes.
const (
	grpcHeaderAllowance = 4 << 10
	maxMetadataBytes    = maxHeaderListBytes - grpcHeaderAllowance
)

// checkMetadata refuses a call of the host's whose outgoing gRPC metadata
// (its context's, trace context included) is more than maxMetadataBytes as
// gRPC counts a header list: each entry's name and value and 32 bytes.
// gRPC would refuse to send it too, with an Internal status a host takes
// for the plugin's failure; this error says what is wrong and is the
// host's (contract.ErrHostFailed): the call was not sent, and the plugin
// is as healthy as before.
func checkMetadata(ctx context.Context, what string) error {
	md, ok := metadata.FromOutgoingContext(ctx)
	if !ok {
		return nil
	}
	n := 0
	for k, vs := range md {
		for _, v := range vs {
			n += len(k) + len(v) + 32
		}
	}
	if n <= maxMetadataBytes {
		return nil
	}
	return contract.HostFailed(fmt.Errorf("%s not sent: the gRPC metadata of its context is %d bytes as gRPC counts a header list "+
		"(each entry's name and value and 32 bytes), more than the %d the host may send: a server of the plugin protocol accepts "+
		"%d bytes (64 KiB) of headers, gRPC's own included; send less metadata with the call", what, n, maxMetadataBytes, maxHeaderListBytes))
}

// serverOptions are the gRPC server options of every server of the
// protocol: the plugin's and the host's callback server on the broker.
func serverOptions() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.MaxRecvMsgSize(contract.MaxMessageBytes), grpc.MaxSendMsgSize(contract.MaxMessageBytes), grpc.MaxHeaderListSize(maxHeaderListBytes),
		grpc.InitialWindowSize(flowWindow), grpc.InitialConnWindowSize(flowWindow)}
}

// flowWindow is the HTTP/2 flow-control window of every stream and
// connection of the protocol. Setting it turns gRPC's adaptive windows
// off: on a local connection their bandwidth probes (a PING frame after
// each message received with data) cost every call that carries data
// extra frames and a wake-up of both processes, and the window they would
// reach buys nothing.
const flowWindow = 1 << 20

// dialOptions are the gRPC dial options of every connection of the
// protocol: the host's to the plugin (go-plugin's
// ClientConfig.GRPCDialOptions) and the plugin's to the host's callbacks
// on the broker. They come after go-plugin's own, which they override.
func dialOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(contract.MaxMessageBytes), grpc.MaxCallSendMsgSize(contract.MaxMessageBytes)),
		grpc.WithInitialWindowSize(flowWindow), grpc.WithInitialConnWindowSize(flowWindow)}
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
