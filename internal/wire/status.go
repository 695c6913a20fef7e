package wire

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// ToStatus turns the error of a service method into the status the caller
// receives. The caller's own cancellation or deadline keeps its code, so
// the caller can tell it from a failure; the plugin's known errors and a
// message over MaxMessageBytes get the codes FromStatus maps back; anything
// else gets fallback. The plugin
// answers other failures with Aborted (a host callback failed, and its code
// is never relayed: a host that sees Unavailable from the plugin must be
// able to conclude the plugin is unreachable); the host's services answer
// with the code that says what failed on their side.
func ToStatus(ctx context.Context, err error, fallback codes.Code) error {
	if err == nil {
		return nil
	}
	var cfg *contract.ConfigError
	switch {
	case ctx.Err() != nil:
		return status.FromContextError(ctx.Err()).Err()
	case errors.As(err, &cfg):
		return status.Error(codes.InvalidArgument, cfg.Message)
	case errors.Is(err, ErrMessageTooLarge):
		return status.Error(codes.ResourceExhausted, err.Error())
	case errors.Is(err, contract.ErrUnknownMount):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, contract.ErrUnbound):
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	return status.Error(fallback, err.Error())
}

// FromStatus turns an error returned by the plugin's service back into the
// Go error it stands for: a refused configuration is a *plugin.ConfigError;
// Canceled and DeadlineExceeded satisfy errors.Is with context.Canceled and
// context.DeadlineExceeded; NotFound and FailedPrecondition wrap
// plugin.ErrUnknownMount and plugin.ErrUnbound; ResourceExhausted (a message
// over MaxMessageBytes) wraps ErrMessageTooLarge. Every status error keeps its
// gRPC status (status.Code still reports it). Errors that carry no status
// are returned as they are.
func FromStatus(err error) error {
	if err == nil {
		return nil
	}
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	var kind error
	switch st.Code() {
	case codes.InvalidArgument:
		return &contract.ConfigError{Message: st.Message()}
	case codes.Canceled:
		kind = context.Canceled
	case codes.DeadlineExceeded:
		kind = context.DeadlineExceeded
	case codes.NotFound:
		kind = contract.ErrUnknownMount
	case codes.FailedPrecondition:
		kind = contract.ErrUnbound
	case codes.ResourceExhausted:
		kind = ErrMessageTooLarge
	}
	return &statusError{status: st, kind: kind}
}

// statusError is an error the plugin reported over gRPC: its text and
// status as received, and the Go error its code stands for, if any.
type statusError struct {
	status *status.Status
	kind   error
}

func (e *statusError) Error() string              { return e.status.Err().Error() }
func (e *statusError) Unwrap() error              { return e.kind }
func (e *statusError) GRPCStatus() *status.Status { return e.status }
