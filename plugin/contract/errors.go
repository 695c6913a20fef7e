package contract

import (
	"errors"
	"fmt"
)

// ErrHostFailed is matched (errors.Is) by the error of a Service call that
// failed because of the host's side: a Host callback returned an error, or
// answered with something this contract does not allow, or a provider
// failed to load a skill the user invoked. The service itself is healthy.
var ErrHostFailed = errors.New("the host's side failed")

// HostFailed returns err marked as the host's failure: it has err's text
// and matches both err (errors.Is, errors.As) and ErrHostFailed. A nil err
// stays nil, and one already marked is returned as it is.
func HostFailed(err error) error {
	if err == nil || errors.Is(err, ErrHostFailed) {
		return err
	}
	return &hostFailedError{err: err}
}

type hostFailedError struct{ err error }

func (e *hostFailedError) Error() string   { return e.err.Error() }
func (e *hostFailedError) Unwrap() []error { return []error{e.err, ErrHostFailed} }

// ErrUnknownMount is returned for a mount id the service does not hold: it
// was never configured, was unmounted, or belongs to an earlier plugin
// process.
var ErrUnknownMount = errors.New("unknown mount")

// ErrUnbound is returned by a step of a mount whose `skill` tool was never
// bound to the identity the host minted for it.
var ErrUnbound = errors.New("mount has no bound identity for the skill tool: call BindTools after Configure")

// ConfigError is a mount configuration the service refused. Its message
// names the option and its bound.
type ConfigError struct {
	Message string
}

func (e *ConfigError) Error() string { return "plugin configuration: " + e.Message }

// ErrNoResourceReads is returned by ReadResource of a Host that does not
// read skill resources (over gRPC: a host that answers UNIMPLEMENTED). The
// resource-read tool then says the resources are not readable.
var ErrNoResourceReads = errors.New("the host does not read skill resources")

// ErrNoEmbeddings is returned by Embed of a Host that does not embed texts
// (over gRPC: a host that answers UNIMPLEMENTED). The skill search is then
// lexical alone.
var ErrNoEmbeddings = errors.New("the host does not embed texts")

// MaxMessageBytes is the largest protocol message either end sends or
// accepts, in both directions of both services: 64 MiB.
//
// The largest messages the protocol carries by design are a skill's body
// (providers cap bodies at 8 MiB) and the `skill` tool's answer, which
// carries the body twice (the value and its rendering); a snapshot of
// thousands of summaries, a downstream decision holding a large tool
// result, or the model's tool arguments come next. 64 MiB leaves four
// times the room the largest of these needs, while one message can never
// make either process allocate more than that for it.
const MaxMessageBytes = 64 << 20

// limitText names the limit in error texts.
var limitText = fmt.Sprintf("the plugin protocol's message limit of %d bytes (64 MiB)", MaxMessageBytes)

// ErrMessageTooLarge is matched by the error of every message over
// MaxMessageBytes, whichever end found it: errors.Is(err,
// ErrMessageTooLarge).
var ErrMessageTooLarge = errors.New("message exceeds " + limitText)

// MessageTooLargeError is a message over MaxMessageBytes: one the sender
// found too large and did not send, or one the transport refused to send
// or receive.
type MessageTooLargeError struct {
	// Message says which message, for example "PreStep request".
	Message string
	// Size is the message's size in bytes when the sender measured it.
	Size int
	// Detail is the transport's account when the transport refused the
	// message.
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
