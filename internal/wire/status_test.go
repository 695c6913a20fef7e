package wire

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

func TestStatusMapping(t *testing.T) {
	t.Parallel()
	live := context.Background()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithTimeout(context.Background(), 0)
	defer cancel2()
	<-expired.Done()
	// A deadline the host's end of a callback saw pass a moment before
	// this end, and one far away.
	// (Cleanup, not defer: the subtests run in parallel after this returns.)
	closing, cancel3 := context.WithTimeout(context.Background(), deadlineSkew/2)
	t.Cleanup(cancel3)
	distant, cancel4 := context.WithTimeout(context.Background(), time.Hour)
	t.Cleanup(cancel4)

	tests := []struct {
		name     string
		ctx      context.Context
		err      error
		fallback codes.Code
		code     codes.Code
		is       error // what FromStatus's error must satisfy errors.Is with
	}{
		{"caller cancelled", cancelled, fmt.Errorf("skill snapshot: %w", context.Canceled), codes.Aborted, codes.Canceled, context.Canceled},
		{"caller's deadline", expired, errors.New("read session events: slow"), codes.Aborted, codes.DeadlineExceeded, context.DeadlineExceeded},
		{"unknown mount", live, fmt.Errorf("%w %q", contract.ErrUnknownMount, "mount-9"), codes.Aborted, codes.NotFound, contract.ErrUnknownMount},
		{"unbound", live, contract.ErrUnbound, codes.Aborted, codes.FailedPrecondition, contract.ErrUnbound},
		{"host callback failed", live, fmt.Errorf("skill snapshot: %w", status.Error(codes.Unavailable, "storage down")), codes.Aborted, codes.Aborted, contract.ErrHostFailed},
		{"a host callback's own deadline is not the caller's", live, fmt.Errorf("load: %w", context.DeadlineExceeded), codes.Aborted, codes.Aborted, contract.ErrHostFailed},
		{"nor while the caller has time left", distant, contract.HostFailed(fmt.Errorf("skill snapshot: %w", status.Error(codes.DeadlineExceeded, "context deadline exceeded"))), codes.Internal, codes.Aborted, contract.ErrHostFailed},
		{"a callback out of the caller's time, seen first by the host", closing, contract.HostFailed(fmt.Errorf("skill snapshot: %w", status.Error(codes.DeadlineExceeded, "stream terminated by RST_STREAM"))), codes.Internal, codes.DeadlineExceeded, context.DeadlineExceeded},
		{"a failure of the host's side is Aborted whatever the fallback", live, contract.HostFailed(fmt.Errorf("skill snapshot: %w", status.Error(codes.Unavailable, "storage down"))), codes.Internal, codes.Aborted, contract.ErrHostFailed},
		{"the plugin's own failure", live, errors.New("outcome \"x\" has no protocol value"), codes.Internal, codes.Internal, nil},
		{"host service fallback", live, errors.New("open session log: disk"), codes.Unavailable, codes.Unavailable, nil},
		{"the caller's cancellation wins over the host's mark", cancelled, contract.HostFailed(context.Canceled), codes.Internal, codes.Canceled, context.Canceled},
		{"callback over the message limit", live, fmt.Errorf("skill snapshot: %w", &contract.MessageTooLargeError{Message: "Snapshot callback", Detail: "grpc: received message larger than max"}), codes.Aborted, codes.ResourceExhausted, contract.ErrMessageTooLarge},
		{"response over the message limit", live, &contract.MessageTooLargeError{Message: "PreStep response", Size: contract.MaxMessageBytes + 1}, codes.Aborted, codes.ResourceExhausted, contract.ErrMessageTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st := toStatus(tt.ctx, tt.err, tt.fallback)
			if got := status.Code(st); got != tt.code {
				t.Fatalf("toStatus code = %v, want %v (%v)", got, tt.code, st)
			}
			back := fromStatus(st)
			if got := status.Code(back); got != tt.code {
				t.Errorf("fromStatus lost the status: code %v, want %v", got, tt.code)
			}
			if back.Error() != st.Error() {
				t.Errorf("fromStatus text = %q, want %q", back.Error(), st.Error())
			}
			if tt.is != nil && !errors.Is(back, tt.is) {
				t.Errorf("fromStatus(%v) does not satisfy errors.Is(%v)", back, tt.is)
			}
			for _, other := range []error{context.Canceled, context.DeadlineExceeded, contract.ErrUnknownMount, contract.ErrUnbound, contract.ErrMessageTooLarge, contract.ErrHostFailed} {
				if other != tt.is && errors.Is(back, other) {
					t.Errorf("fromStatus(%v) satisfies errors.Is(%v)", back, other)
				}
			}
		})
	}
}

func TestConfigErrorCrossesAsItself(t *testing.T) {
	t.Parallel()
	in := &contract.ConfigError{Message: "catalogDescriptionMaxLength must be an integer >= 3, got 2"}
	st := toStatus(context.Background(), fmt.Errorf("configure: %w", in), codes.Aborted)
	if status.Code(st) != codes.InvalidArgument {
		t.Fatalf("code = %v, want InvalidArgument", status.Code(st))
	}
	var out *contract.ConfigError
	if !errors.As(fromStatus(st), &out) || *out != *in {
		t.Fatalf("fromStatus = %v, want %v", fromStatus(st), in)
	}
}

func TestNoError(t *testing.T) {
	t.Parallel()
	if toStatus(context.Background(), nil, codes.Aborted) != nil || fromStatus(nil) != nil {
		t.Fatal("nil error was turned into an error")
	}
	plain := errors.New("connection reset")
	if fromStatus(plain) != plain {
		t.Fatal("an error without a status was changed")
	}
}
