package wire

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// TestDeadlineDuringACallbackIsTheHosts: a step whose deadline passes
// while the host's Snapshot callback is still running fails with an error
// that matches both context.DeadlineExceeded and contract.ErrHostFailed,
// as it does in process; the next step of the session, whose callbacks
// succeed, is not blamed on the host.
func TestDeadlineDuringACallbackIsTheHosts(t *testing.T) {
	host := newTestHost()
	host.block = make(chan struct{})
	c, served := connect(t, plugin.New(nil), host)
	m := mountBound(t, c, served, "", "tooldef-1")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.PreStep(ctx, contract.StepRequest{MountID: m.MountID, SessionID: "s1", SkillToolIdentity: "tooldef-1"})
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, contract.ErrHostFailed) || !Unanswered(err) {
		t.Fatalf("step past its deadline during a callback: %v; want DeadlineExceeded, ErrHostFailed and unanswered", err)
	}
	host.mu.Lock()
	host.block = nil
	host.mu.Unlock()
	if _, err := c.PreStep(context.Background(), contract.StepRequest{MountID: m.MountID, SessionID: "s1", SkillToolIdentity: "tooldef-1"}); err != nil {
		t.Fatalf("next step: %v", err)
	}
}

// slowService is a contract.Service whose PreStep runs until its context
// ends without calling the host: a plugin that hangs on its own.
type slowService struct{ contract.Service }

func (slowService) PreStep(ctx context.Context, _ contract.StepRequest) (contract.StepResponse, error) {
	<-ctx.Done()
	return contract.StepResponse{}, ctx.Err()
}

// TestDeadlineWithoutCallbacksIsNotTheHosts: a step that runs out of time
// while no host callback ran is not the host's failure.
func TestDeadlineWithoutCallbacksIsNotTheHosts(t *testing.T) {
	c, _ := connect(t, slowService{plugin.New(nil)}, newTestHost())
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.PreStep(ctx, contract.StepRequest{MountID: "mount-1", SessionID: "s1"})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, contract.ErrHostFailed) {
		t.Fatalf("hung step: %v; want DeadlineExceeded, not the host's failure", err)
	}
}

// TestCallbacksBlame: the bookkeeping behind the two tests above, with a
// session forgotten and tracked again between the mark and the failure.
func TestCallbacksBlame(t *testing.T) {
	var calls callbacks
	deadline := status.Error(codes.DeadlineExceeded, "context deadline exceeded")
	failed := errors.New("storage down")
	ok := error(nil)

	mark := calls.mark("s")
	if err := calls.blame("s", mark, fromStatus(deadline)); errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("no callbacks: %v blamed on the host", err)
	}
	calls.end(context.Background(), calls.begin("s"), ok)
	if err := calls.blame("s", mark, fromStatus(deadline)); errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("a callback that succeeded: %v blamed on the host", err)
	}
	inflight := calls.begin("s")
	if err := calls.blame("s", mark, fromStatus(deadline)); !errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("a callback in flight: %v not blamed on the host", err)
	}
	if err := calls.blame("s", mark, errors.New("plugin bug")); errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("an error that is no deadline: %v blamed on the host", err)
	}
	calls.end(context.Background(), inflight, failed)
	if err := calls.blame("s", mark, fromStatus(deadline)); !errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("a callback that failed: %v not blamed on the host", err)
	}
	mark = calls.mark("s")
	calls.forget("s")
	calls.end(context.Background(), calls.begin("s"), ok)
	if err := calls.blame("s", mark, fromStatus(deadline)); errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("tracked again, a callback that succeeded: %v blamed on the host", err)
	}
	calls.end(context.Background(), calls.begin("s"), failed)
	if err := calls.blame("s", mark, fromStatus(deadline)); !errors.Is(err, contract.ErrHostFailed) {
		t.Errorf("tracked again, a callback that failed: %v not blamed on the host", err)
	}
}

func TestUnanswered(t *testing.T) {
	t.Parallel()
	for code, want := range map[codes.Code]bool{
		codes.Unavailable: true, codes.DeadlineExceeded: true, codes.Canceled: true,
		codes.Aborted: false, codes.Internal: false, codes.NotFound: false, codes.InvalidArgument: false, codes.ResourceExhausted: false,
	} {
		if got := Unanswered(fromStatus(status.Error(code, "x"))); got != want {
			t.Errorf("Unanswered(%v) = %v, want %v", code, got, want)
		}
	}
	if Unanswered(nil) || Unanswered(errors.New("not a status")) {
		t.Error("an error without a status was taken for an unanswered call")
	}
}

// TestDefinitionRepeatsTheSummary: SkillDefinition carries every field of
// SkillSummary under the same name and of the same kind (their numbers may
// differ), which is what lets a definition be converted through its
// summary.
func TestDefinitionRepeatsTheSummary(t *testing.T) {
	t.Parallel()
	sum := (&pb.SkillSummary{}).ProtoReflect().Descriptor().Fields()
	def := (&pb.SkillDefinition{}).ProtoReflect().Descriptor().Fields()
	for i := 0; i < sum.Len(); i++ {
		f := sum.Get(i)
		d := def.ByName(f.Name())
		if d == nil || d.Kind() != f.Kind() || d.Cardinality() != f.Cardinality() || (f.Kind() == protoreflect.MessageKind && d.Message().FullName() != f.Message().FullName()) {
			t.Errorf("SkillSummary.%s (%v) has no twin in SkillDefinition (%v)", f.Name(), f.Kind(), d)
		}
	}
}
