package wire

import (
	"context"
	"errors"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// hostServer is a contract.Host as the protocol's HostService: the host's
// end of the callbacks, served on go-plugin's broker. Failures of the
// host's own (an unknown scope, a storage error) are answered with
// Unavailable; the caller's cancellation keeps its code. Every callback is
// recorded in calls, so the host's client can tell whose a deadline was.
type hostServer struct {
	pb.UnimplementedHostServiceServer
	host  contract.Host
	calls *callbacks
}

func (s *hostServer) Snapshot(ctx context.Context, req *pb.SnapshotRequest) (*pb.SnapshotResponse, error) {
	ctx = incomingTrace(ctx)
	call := s.calls.begin(req.GetSessionId())
	snap, err := s.host.Snapshot(ctx, snapshotRequestFromProto(req))
	s.calls.end(ctx, call, err)
	if err != nil {
		return nil, toStatus(ctx, err, codes.Unavailable)
	}
	return snapshotToProto(snap), nil
}

func (s *hostServer) GetSkill(ctx context.Context, req *pb.GetSkillRequest) (*pb.GetSkillResponse, error) {
	ctx = incomingTrace(ctx)
	call := s.calls.begin(req.GetSessionId())
	got, err := s.host.GetSkill(ctx, skillRequestFromProto(req))
	s.calls.end(ctx, call, err)
	if err != nil {
		return nil, toStatus(ctx, err, codes.Unavailable)
	}
	return skillLookupToProto(got), nil
}

func (s *hostServer) ReadEvents(ctx context.Context, req *pb.ReadEventsRequest) (*pb.ReadEventsResponse, error) {
	ctx = incomingTrace(ctx)
	call := s.calls.begin(req.GetSessionId())
	page, err := s.host.ReadEvents(ctx, eventsRequestFromProto(req))
	s.calls.end(ctx, call, err)
	if err != nil {
		return nil, toStatus(ctx, err, codes.Unavailable)
	}
	return eventPageToProto(page), nil
}

// ReadResource serves the host's contract.ResourceReader when it has one,
// and answers Unimplemented otherwise.
func (s *hostServer) ReadResource(ctx context.Context, req *pb.ReadResourceRequest) (*pb.ReadResourceResponse, error) {
	ctx = incomingTrace(ctx)
	rr, ok := s.host.(contract.ResourceReader)
	if !ok {
		return nil, status.Error(codes.Unimplemented, contract.ErrNoResourceReads.Error())
	}
	call := s.calls.begin(req.GetSessionId())
	got, err := rr.ReadResource(ctx, resourceRequestFromProto(req))
	s.calls.end(ctx, call, err)
	if errors.Is(err, contract.ErrNoResourceReads) {
		return nil, status.Error(codes.Unimplemented, err.Error())
	}
	if err != nil {
		return nil, toStatus(ctx, err, codes.Unavailable)
	}
	return resourceReadToProto(got), nil
}

// Embed serves the host's contract.Embedder when it has one, and answers
// Unimplemented otherwise.
func (s *hostServer) Embed(ctx context.Context, req *pb.EmbedRequest) (*pb.EmbedResponse, error) {
	ctx = incomingTrace(ctx)
	em, ok := s.host.(contract.Embedder)
	if !ok {
		return nil, status.Error(codes.Unimplemented, contract.ErrNoEmbeddings.Error())
	}
	call := s.calls.begin("")
	got, err := em.Embed(ctx, embedRequestFromProto(req))
	s.calls.end(ctx, call, err)
	if errors.Is(err, contract.ErrNoEmbeddings) {
		return nil, status.Error(codes.Unimplemented, err.Error())
	}
	if err != nil {
		return nil, toStatus(ctx, err, codes.Unavailable)
	}
	return embeddingsToProto(got), nil
}

// hostClient is contract.Host over a connection to the host's
// HostService: the plugin's end of the callbacks. A message over
// contract.MaxMessageBytes either way fails the call with a
// *contract.MessageTooLargeError.
type hostClient struct {
	c pb.HostServiceClient
}

var (
	_ contract.Host           = hostClient{}
	_ contract.ResourceReader = hostClient{}
	_ contract.Embedder       = hostClient{}
)

// Embed calls the host's Embed. A host that does not serve it fails the
// call with contract.ErrNoEmbeddings.
func (h hostClient) Embed(ctx context.Context, req contract.EmbedRequest) (contract.Embeddings, error) {
	resp, err := h.c.Embed(outgoingTrace(ctx), embedRequestToProto(req))
	if status.Code(err) == codes.Unimplemented {
		return contract.Embeddings{}, contract.ErrNoEmbeddings
	}
	if err != nil {
		return contract.Embeddings{}, tooLarge("Embed callback", err)
	}
	return embeddingsFromProto(resp), nil
}

func (h hostClient) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	resp, err := h.c.Snapshot(outgoingTrace(ctx), snapshotRequestToProto(req))
	if err != nil {
		return contract.Snapshot{}, tooLarge("Snapshot callback", err)
	}
	return snapshotFromProto(resp), nil
}

func (h hostClient) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	resp, err := h.c.GetSkill(outgoingTrace(ctx), skillRequestToProto(req))
	if err != nil {
		return contract.SkillLookup{}, tooLarge("GetSkill callback", err)
	}
	return skillLookupFromProto(resp), nil
}

func (h hostClient) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	resp, err := h.c.ReadEvents(outgoingTrace(ctx), eventsRequestToProto(req))
	if err != nil {
		return contract.EventPage{}, tooLarge("ReadEvents callback", err)
	}
	return eventPageFromProto(resp), nil
}

// ReadResource calls the host's ReadResource. A host that does not serve
// it fails the call with contract.ErrNoResourceReads.
func (h hostClient) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	resp, err := h.c.ReadResource(outgoingTrace(ctx), resourceRequestToProto(req))
	if status.Code(err) == codes.Unimplemented {
		return contract.ResourceRead{}, contract.ErrNoResourceReads
	}
	if err != nil {
		return contract.ResourceRead{}, tooLarge("ReadResource callback", err)
	}
	return resourceReadFromProto(resp), nil
}

// callbacks remembers, per session, the host callbacks in flight and how
// many failed or were cut off by their deadline, so that a call of the
// session that ran out of time can be blamed on the side that caused it.
// Over gRPC the plugin's answer to a call whose deadline passed never
// arrives, so the host's end is the one place that can tell.
type callbacks struct {
	mu       sync.Mutex
	sessions map[string]*sessionCallbacks
}

type sessionCallbacks struct {
	inflight int
	failures uint64
}

// callMark is a session's callbacks at one moment.
type callMark struct {
	calls    *sessionCallbacks // nil: none tracked yet
	failures uint64
}

// begin records a callback of session and returns what end takes.
func (t *callbacks) begin(session string) *sessionCallbacks {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sessions == nil {
		t.sessions = make(map[string]*sessionCallbacks)
	}
	s := t.sessions[session]
	if s == nil {
		s = &sessionCallbacks{}
		t.sessions[session] = s
	}
	s.inflight++
	return s
}

// end records the end of a callback begin returned s for, with its error.
func (t *callbacks) end(ctx context.Context, s *sessionCallbacks, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s.inflight--
	if err != nil || ctx.Err() != nil {
		s.failures++
	}
}

// mark returns the session's counts, to compare after a call.
func (t *callbacks) mark(session string) callMark {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.sessions[session]; s != nil {
		return callMark{calls: s, failures: s.failures}
	}
	return callMark{}
}

// blame marks err, the error of a call of session made at mark, as the
// host's failure when it is a deadline or cancellation and one of the
// session's callbacks failed since mark or is still running.
func (t *callbacks) blame(session string, mark callMark, err error) error {
	if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return err
	}
	t.mu.Lock()
	s := t.sessions[session]
	before := mark.failures
	if s != mark.calls {
		before = 0 // forgotten and tracked again since mark: counted from zero
	}
	hostSide := s != nil && (s.inflight > 0 || s.failures != before)
	t.mu.Unlock()
	if hostSide {
		return contract.HostFailed(err)
	}
	return err
}

// forget drops what is remembered of an ended session.
func (t *callbacks) forget(session string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.sessions[session]; s != nil && s.inflight == 0 {
		delete(t.sessions, session)
	}
}
