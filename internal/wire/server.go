package wire

import (
	"context"
	"fmt"
	"sync"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"

	"github.com/skillcatalog/skillcatalog/plugin"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// pluginServer is plugin.Core as the protocol's PluginService: each method
// converts the request, calls the core and converts the answer back. The
// host's callbacks are dialed through go-plugin's broker, once per broker
// id the host names.
type pluginServer struct {
	pb.UnimplementedPluginServiceServer

	core   *plugin.Core
	broker *goplugin.GRPCBroker

	mu    sync.Mutex
	hosts map[uint32]HostClient
}

// NewPluginServer serves core over gRPC, reaching the host's services
// through broker.
func NewPluginServer(core *plugin.Core, broker *goplugin.GRPCBroker) pb.PluginServiceServer {
	return &pluginServer{core: core, broker: broker, hosts: make(map[uint32]HostClient)}
}

// fail converts a core error for the host. A failure that is neither the
// caller's nor one of the plugin's known errors is a host callback that
// failed: Aborted, never the callback's own code.
func fail(ctx context.Context, err error) error {
	return ToStatus(ctx, err, codes.Aborted)
}

func (s *pluginServer) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	cfg, brokerID := ConfigureRequestFromProto(req)
	host, err := s.dialHost(brokerID)
	if err != nil {
		return nil, ToStatus(ctx, err, codes.Unavailable)
	}
	resp, err := s.core.Configure(ctx, host, cfg)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return ConfigureResponseToProto(resp), nil
}

// dialHost returns the host's services on a broker id.
func (s *pluginServer) dialHost(id uint32) (contract.Host, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h, ok := s.hosts[id]; ok {
		return h, nil
	}
	if s.broker == nil {
		return nil, fmt.Errorf("no broker to reach host services")
	}
	conn, err := s.broker.DialWithOptions(id, DialOptions()...)
	if err != nil {
		return nil, fmt.Errorf("dial host services (broker id %d): %w", id, err)
	}
	h := NewHostClient(conn)
	s.hosts[id] = h
	return h, nil
}

func (s *pluginServer) BindTools(ctx context.Context, req *pb.BindToolsRequest) (*pb.BindToolsResponse, error) {
	id, bindings := BindToolsFromProto(req)
	if err := s.core.BindTools(ctx, id, bindings); err != nil {
		return nil, fail(ctx, err)
	}
	return &pb.BindToolsResponse{}, nil
}

func (s *pluginServer) Unmount(ctx context.Context, req *pb.UnmountRequest) (*pb.UnmountResponse, error) {
	if err := s.core.Unmount(ctx, req.GetMountId()); err != nil {
		return nil, fail(ctx, err)
	}
	return &pb.UnmountResponse{}, nil
}

func (s *pluginServer) PreStep(ctx context.Context, req *pb.PreStepRequest) (*pb.PreStepResponse, error) {
	resp, err := s.core.PreStep(ctx, StepRequestFromProto(req))
	if err != nil {
		return nil, fail(ctx, err)
	}
	out, err := StepResponseToProto(resp)
	if err != nil {
		return nil, fail(ctx, err)
	}
	if err := checkSize("PreStep response", out); err != nil {
		return nil, fail(ctx, err)
	}
	return out, nil
}

func (s *pluginServer) ExecuteSkillTool(ctx context.Context, req *pb.ExecuteSkillToolRequest) (*pb.ExecuteSkillToolResponse, error) {
	res, err := s.core.ExecuteSkillTool(ctx, ToolCallFromProto(req))
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := ToolResultToProto(res)
	if err := checkSize("ExecuteSkillTool response", out); err != nil {
		return nil, fail(ctx, err)
	}
	return out, nil
}

func (s *pluginServer) EndSession(ctx context.Context, req *pb.EndSessionRequest) (*pb.EndSessionResponse, error) {
	if err := s.core.EndSession(ctx, req.GetSessionId()); err != nil {
		return nil, fail(ctx, err)
	}
	return &pb.EndSessionResponse{}, nil
}

func (s *pluginServer) Ping(context.Context, *pb.PingRequest) (*pb.PingResponse, error) {
	return &pb.PingResponse{}, nil
}
