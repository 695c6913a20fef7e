package wire

import (
	"errors"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// MaxMessageBytes is the largest protocol message either side sends or
// accepts, in both directions of both services: 64 MiB.
//
// The largest messages the protocol carries by design are a skill's body
// (providers cap bodies at 8 MiB) and the `skill` tool's answer, which
// carries the body twice (the value and its rendering); a snapshot of
// thousands of summaries, a downstream decision holding a large tool
// result, or the model's tool arguments come next. 64 MiB leaves four
// times the room the largest of these needs, while one message can never
// make either process allocate more than that for it. gRPC's defaults
// (4 MiB received by a server, 2 GiB by go-plugin's clients) were neither.
const MaxMessageBytes = 64 << 20

// limitText names the limit in error texts.
var limitText = fmt.Sprintf("the plugin protocol's message limit of %d bytes (64 MiB)", MaxMessageBytes)

// ErrMessageTooLarge is matched by the error of every message over
// MaxMessageBytes, whichever side found it: errors.Is(err,
// ErrMessageTooLarge).
var ErrMessageTooLarge = errors.New("message exceeds " + limitText)

// MessageTooLargeError is a message over MaxMessageBytes: one the sender
// found too large and did not send, or one gRPC refused to send or
// receive.
type MessageTooLargeError struct {
	// Message says which message, for example "PreStep request".
	Message string
	// Size is the message's size in bytes when the sender measured it.
	Size int
	// Detail is gRPC's account when gRPC refused the message.
	Detail string
}

func (e *MessageTooLargeError) Error() string {
	msg := e.Message
	if e.Size > 0 {
		msg += fmt.Sprintf(" of %d bytes", e.Size)
	}
	msg += " exceeds " + limitText
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Is makes the error match ErrMessageTooLarge.
func (e *MessageTooLargeError) Is(target error) bool { return target == ErrMessageTooLarge }

// ServerOptions are the gRPC server options of every server of the
// protocol: the plugin's and the host's callback server on the broker.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.MaxRecvMsgSize(MaxMessageBytes), grpc.MaxSendMsgSize(MaxMessageBytes)}
}

// DialOptions are the gRPC dial options of every connection of the
// protocol: the host's to the plugin (go-plugin's
// ClientConfig.GRPCDialOptions) and the plugin's to the host's callbacks
// on the broker. They come after go-plugin's own, which they override.
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxMessageBytes), grpc.MaxCallSendMsgSize(MaxMessageBytes))}
}

// NewGRPCServer builds a gRPC server with go-plugin's options and the
// protocol's limits: the plugin's server (go-plugin's ServeConfig.GRPCServer)
// and the host's callback server on the broker.
func NewGRPCServer(opts []grpc.ServerOption) *grpc.Server {
	return grpc.NewServer(append(opts[:len(opts):len(opts)], ServerOptions()...)...)
}

// checkSize refuses a message over MaxMessageBytes before it is sent.
func checkSize(what string, m proto.Message) error {
	if n := proto.Size(m); n > MaxMessageBytes {
		return &MessageTooLargeError{Message: what, Size: n}
	}
	return nil
}

// tooLarge turns gRPC's refusal of an oversized message (ResourceExhausted)
// into a *MessageTooLargeError naming the message; other errors are
// returned as they are.
func tooLarge(what string, err error) error {
	if st, ok := status.FromError(err); ok && st.Code() == codes.ResourceExhausted {
		return &MessageTooLargeError{Message: what, Detail: st.Message()}
	}
	return err
}
