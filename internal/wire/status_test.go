package wire

import (
	"context"
	"errors"
	"fmt"
	"testing"

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
		{"host callback failed", live, fmt.Errorf("skill snapshot: %w", status.Error(codes.Unavailable, "storage down")), codes.Aborted, codes.Aborted, nil},
		{"a host callback's own deadline is not the caller's", live, fmt.Errorf("load: %w", context.DeadlineExceeded), codes.Aborted, codes.Aborted, nil},
		{"host service fallback", live, errors.New("open session log: disk"), codes.Unavailable, codes.Unavailable, nil},
		{"callback over the message limit", live, fmt.Errorf("skill snapshot: %w", &MessageTooLargeError{Message: "Snapshot callback", Detail: "grpc: received message larger than max"}), codes.Aborted, codes.ResourceExhausted, ErrMessageTooLarge},
		{"response over the message limit", live, &MessageTooLargeError{Message: "PreStep response", Size: MaxMessageBytes + 1}, codes.Aborted, codes.ResourceExhausted, ErrMessageTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st := ToStatus(tt.ctx, tt.err, tt.fallback)
			if got := status.Code(st); got != tt.code {
				t.Fatalf("ToStatus code = %v, want %v (%v)", got, tt.code, st)
			}
			back := FromStatus(st)
			if got := status.Code(back); got != tt.code {
				t.Errorf("FromStatus lost the status: code %v, want %v", got, tt.code)
			}
			if back.Error() != st.Error() {
				t.Errorf("FromStatus text = %q, want %q", back.Error(), st.Error())
			}
			if tt.is != nil && !errors.Is(back, tt.is) {
				t.Errorf("FromStatus(%v) does not satisfy errors.Is(%v)", back, tt.is)
			}
			for _, other := range []error{context.Canceled, context.DeadlineExceeded, contract.ErrUnknownMount, contract.ErrUnbound, ErrMessageTooLarge} {
				if other != tt.is && errors.Is(back, other) {
					t.Errorf("FromStatus(%v) satisfies errors.Is(%v)", back, other)
				}
			}
		})
	}
}

func TestConfigErrorCrossesAsItself(t *testing.T) {
	t.Parallel()
	in := &contract.ConfigError{Message: "catalogDescriptionMaxLength must be an integer >= 3, got 2"}
	st := ToStatus(context.Background(), fmt.Errorf("configure: %w", in), codes.Aborted)
	if status.Code(st) != codes.InvalidArgument {
		t.Fatalf("code = %v, want InvalidArgument", status.Code(st))
	}
	var out *contract.ConfigError
	if !errors.As(FromStatus(st), &out) || *out != *in {
		t.Fatalf("FromStatus = %v, want %v", FromStatus(st), in)
	}
}

func TestNoError(t *testing.T) {
	t.Parallel()
	if ToStatus(context.Background(), nil, codes.Aborted) != nil || FromStatus(nil) != nil {
		t.Fatal("nil error was turned into an error")
	}
	plain := errors.New("connection reset")
	if FromStatus(plain) != plain {
		t.Fatal("an error without a status was changed")
	}
}
