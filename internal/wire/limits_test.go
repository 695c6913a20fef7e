package wire

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// TestCheckSize: a request is refused before sending exactly when its
// encoding is over contract.MaxMessageBytes, with an error naming the message, its
// size and the limit.
func TestCheckSize(t *testing.T) {
	t.Parallel()
	// A tool call's arguments take their length plus a few bytes of
	// framing (tag and length varint) in the encoded message.
	call := func(args int) *pb.ExecuteSkillToolRequest {
		return toolCallToProto(contract.ToolCall{Arguments: []byte(strings.Repeat("a", args))})
	}
	const framing = 1 + 4 // tag, varint of a length over 2^21
	tests := []struct {
		name string
		args int
		ok   bool
	}{
		{"small", 10, true},
		{"5 MiB", 5 << 20, true},
		{"at the limit", contract.MaxMessageBytes - framing, true},
		{"one byte over", contract.MaxMessageBytes - framing + 1, false},
	}
	for _, tt := range tests {
		err := checkSize("ExecuteSkillTool request", call(tt.args))
		if tt.ok {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		var tl *contract.MessageTooLargeError
		if !errors.As(err, &tl) || !errors.Is(err, contract.ErrMessageTooLarge) {
			t.Fatalf("%s: err = %v, want a *contract.MessageTooLargeError", tt.name, err)
		}
		want := fmt.Sprintf("ExecuteSkillTool request of %d bytes exceeds the plugin protocol's message limit of 67108864 bytes (64 MiB)", contract.MaxMessageBytes+1)
		if err.Error() != want {
			t.Errorf("%s: error %q, want %q", tt.name, err, want)
		}
	}
}

// TestTooLarge: gRPC's refusal of an oversized message becomes a
// *contract.MessageTooLargeError naming the call; other errors pass unchanged.
func TestTooLarge(t *testing.T) {
	t.Parallel()
	refused := status.Error(codes.ResourceExhausted, "grpc: received message larger than max (70000000 vs. 67108864)")
	err := tooLarge("Snapshot callback", refused)
	want := "Snapshot callback exceeds the plugin protocol's message limit of 67108864 bytes (64 MiB): grpc: received message larger than max (70000000 vs. 67108864)"
	if !errors.Is(err, contract.ErrMessageTooLarge) || err.Error() != want {
		t.Errorf("tooLarge = %q, want %q matching contract.ErrMessageTooLarge", err, want)
	}
	for _, other := range []error{status.Error(codes.Unavailable, "down"), errors.New("plain"), nil} {
		if got := tooLarge("Snapshot callback", other); got != other {
			t.Errorf("tooLarge(%v) = %v, want it unchanged", other, got)
		}
	}
}

// TestNewGRPCServerKeepsGoPluginsOptions: the limits are added after
// go-plugin's options without writing into the caller's slice.
func TestNewGRPCServerKeepsGoPluginsOptions(t *testing.T) {
	t.Parallel()
	backing := make([]grpc.ServerOption, 1, 4)
	backing[0] = grpc.MaxConcurrentStreams(7)
	spare := backing[:4]
	newGRPCServer(backing[:1]).Stop()
	for i, o := range spare[1:] {
		if o != nil {
			t.Fatalf("newGRPCServer wrote option %d into the caller's spare capacity", i+1)
		}
	}
}
