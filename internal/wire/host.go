package wire

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// HostServer serves a contract.Host as the protocol's HostService: the host
// side of the plugin's callbacks. Failures of the host's own (an unknown
// scope, a storage error) are answered with Unavailable; the caller's
// cancellation keeps its code.
type HostServer struct {
	pb.UnimplementedHostServiceServer
	Host contract.Host
}

// Snapshot serves contract.Host.Snapshot.
func (s HostServer) Snapshot(ctx context.Context, req *pb.SnapshotRequest) (*pb.SnapshotResponse, error) {
	snap, err := s.Host.Snapshot(ctx, SnapshotRequestFromProto(req))
	if err != nil {
		return nil, ToStatus(ctx, err, codes.Unavailable)
	}
	return SnapshotToProto(snap), nil
}

// GetSkill serves contract.Host.GetSkill.
func (s HostServer) GetSkill(ctx context.Context, req *pb.GetSkillRequest) (*pb.GetSkillResponse, error) {
	got, err := s.Host.GetSkill(ctx, SkillRequestFromProto(req))
	if err != nil {
		return nil, ToStatus(ctx, err, codes.Unavailable)
	}
	return SkillLookupToProto(got), nil
}

// ReadEvents serves contract.Host.ReadEvents.
func (s HostServer) ReadEvents(ctx context.Context, req *pb.ReadEventsRequest) (*pb.ReadEventsResponse, error) {
	page, err := s.Host.ReadEvents(ctx, EventsRequestFromProto(req))
	if err != nil {
		return nil, ToStatus(ctx, err, codes.Unavailable)
	}
	return EventPageToProto(page), nil
}

// ReadResource serves contract.ResourceReader.ReadResource when the host
// implements it, and answers Unimplemented otherwise.
func (s HostServer) ReadResource(ctx context.Context, req *pb.ReadResourceRequest) (*pb.ReadResourceResponse, error) {
	rh, ok := s.Host.(contract.ResourceReader)
	if !ok {
		return nil, status.Error(codes.Unimplemented, contract.ErrNoResourceReads.Error())
	}
	got, err := rh.ReadResource(ctx, ResourceRequestFromProto(req))
	if err != nil {
		return nil, ToStatus(ctx, err, codes.Unavailable)
	}
	return ResourceReadToProto(got), nil
}

// RegisterHostServer registers h as the HostService of s.
func RegisterHostServer(s grpc.ServiceRegistrar, h contract.Host) {
	pb.RegisterHostServiceServer(s, HostServer{Host: h})
}

// HostClient is contract.Host over a connection to the host's HostService:
// the plugin side of the callbacks. A message over MaxMessageBytes either
// way fails the call with a *MessageTooLargeError.
type HostClient struct {
	c pb.HostServiceClient
}

// NewHostClient returns the host's services on conn.
func NewHostClient(conn grpc.ClientConnInterface) HostClient {
	return HostClient{c: pb.NewHostServiceClient(conn)}
}

// Snapshot calls the host's Snapshot.
func (h HostClient) Snapshot(ctx context.Context, req contract.SnapshotRequest) (contract.Snapshot, error) {
	resp, err := h.c.Snapshot(ctx, SnapshotRequestToProto(req))
	if err != nil {
		return contract.Snapshot{}, tooLarge("Snapshot callback", err)
	}
	return SnapshotFromProto(resp), nil
}

// GetSkill calls the host's GetSkill.
func (h HostClient) GetSkill(ctx context.Context, req contract.SkillRequest) (contract.SkillLookup, error) {
	resp, err := h.c.GetSkill(ctx, SkillRequestToProto(req))
	if err != nil {
		return contract.SkillLookup{}, tooLarge("GetSkill callback", err)
	}
	return SkillLookupFromProto(resp), nil
}

// ReadResource calls the host's ReadResource. A host that does not
// implement it fails the call with plugin.ErrNoResourceReads.
func (h HostClient) ReadResource(ctx context.Context, req contract.ResourceRequest) (contract.ResourceRead, error) {
	resp, err := h.c.ReadResource(ctx, ResourceRequestToProto(req))
	if status.Code(err) == codes.Unimplemented {
		return contract.ResourceRead{}, contract.ErrNoResourceReads
	}
	if err != nil {
		return contract.ResourceRead{}, tooLarge("ReadResource callback", err)
	}
	return ResourceReadFromProto(resp), nil
}

// ReadEvents calls the host's ReadEvents.
func (h HostClient) ReadEvents(ctx context.Context, req contract.EventsRequest) (contract.EventPage, error) {
	resp, err := h.c.ReadEvents(ctx, EventsRequestToProto(req))
	if err != nil {
		return contract.EventPage{}, tooLarge("ReadEvents callback", err)
	}
	return EventPageFromProto(resp), nil
}
