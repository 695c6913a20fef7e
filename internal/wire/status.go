package wire

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// toStatus turns the error of a service method into the status the caller
// receives. The caller's own cancellation or deadline keeps its code, so
// the caller can tell it from a failure; the contract's errors and a
// message over the limit get the codes fromStatus maps back, a failure of
// the host's side ABORTED; anything else gets fallback. The plugin answers
// its own failures with Internal (a host that sees Unavailable from the
// plugin must be able to conclude the plugin is unreachable); the host's
// services answer theirs with Unavailable.
func toStatus(ctx context.Context, err error, fallback codes.Code) error {
	if err == nil {
		return nil
	}
	var cfg *contract.ConfigError
	switch {
	case ctx.Err() != nil:
		return status.FromContextError(ctx.Err()).Err()
	case ranOutOfTime(ctx, err):
		// The caller's deadline, seen by the host's end of a callback a
		// moment before this end sees it.
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.As(err, &cfg):
		return status.Error(codes.InvalidArgument, cfg.Message)
	case errors.Is(err, contract.ErrMessageTooLarge):
		return status.Error(codes.ResourceExhausted, err.Error())
	case errors.Is(err, contract.ErrUnknownMount):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, contract.ErrUnbound):
		return status.Error(codes.FailedPrecondition, err.Error())
	case errors.Is(err, contract.ErrHostFailed):
		return status.Error(codes.Aborted, err.Error())
	}
	return status.Error(fallback, err.Error())
}

// deadlineSkew is how much sooner than this end the host's end of a
// callback may see the caller's deadline pass: the deadline crosses the
// connection as a remaining time, and the answer takes time to come back.
const deadlineSkew = 100 * time.Millisecond

// ranOutOfTime reports whether err, a callback's failure, is the caller's
// deadline passing: the callback ran out of time, and so, within
// deadlineSkew, does ctx. A callback that times out on its own while the
// caller still has time is the host's failure (Aborted).
func ranOutOfTime(ctx context.Context, err error) bool {
	d, ok := ctx.Deadline()
	if !ok || time.Until(d) > deadlineSkew {
		return false
	}
	return errors.Is(err, context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
}

// fromStatus turns an error returned by the plugin's service back into the
// Go error it stands for: a refused configuration is a
// *contract.ConfigError; Canceled and DeadlineExceeded satisfy errors.Is
// with context.Canceled and context.DeadlineExceeded; NotFound,
// FailedPrecondition, ResourceExhausted and Aborted wrap
// contract.ErrUnknownMount, contract.ErrUnbound,
// contract.ErrMessageTooLarge and contract.ErrHostFailed. Every status
// error keeps its text and its gRPC status (for Unanswered). Errors that
// carry no status are returned as they are.
func fromStatus(err error) error {
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
		kind = contract.ErrMessageTooLarge
	case codes.Aborted:
		kind = contract.ErrHostFailed
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

// Unanswered reports whether err, the error of a call through Dispense's
// service, means the call got no answer: the connection failed
// (Unavailable) or the call's time ran out or was cancelled before the
// plugin answered. Only then may the plugin process be dead or hung; every
// other error is an answer the plugin gave.
func Unanswered(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Canceled:
		return true
	}
	return false
}
