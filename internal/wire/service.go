package wire

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// serviceClient is contract.Service over a connection to a plugin's
// PluginService: the host's end of the protocol. Every request and answer
// is converted here and every error the plugin reports is mapped back
// (fromStatus). A request that carries host or model data and would exceed
// contract.MaxMessageBytes is not sent: the call returns a
// *contract.MessageTooLargeError.
//
// It owns the host's half of go-plugin's broker: the Host that Configure
// is given is served as the HostService on a broker id of its own, once,
// and that id goes with every Configure that names the same Host.
type serviceClient struct {
	c      pb.PluginServiceClient
	broker *goplugin.GRPCBroker
	calls  callbacks

	mu    sync.Mutex
	hosts []servedHost
}

// servedHost is a Host served on the broker and its id.
type servedHost struct {
	host contract.Host
	id   uint32
}

var _ contract.Service = (*serviceClient)(nil)

func newServiceClient(c pb.PluginServiceClient, broker *goplugin.GRPCBroker) *serviceClient {
	return &serviceClient{c: c, broker: broker}
}

// Configure configures a mount whose callbacks go to host.
func (s *serviceClient) Configure(ctx context.Context, host contract.Host, req contract.ConfigureRequest) (contract.ConfigureResponse, error) {
	if host == nil {
		return contract.ConfigureResponse{}, errors.New("configure: no host to call back")
	}
	in := configureRequestToProto(req, s.serve(host))
	if err := checkSize("Configure request", in); err != nil {
		return contract.ConfigureResponse{}, err
	}
	if err := checkMetadata(ctx, "Configure request"); err != nil {
		return contract.ConfigureResponse{}, err
	}
	resp, err := s.c.Configure(ctx, in)
	if err != nil {
		return contract.ConfigureResponse{}, fromStatus(err)
	}
	return configureResponseFromProto(resp), nil
}

// serve returns the broker id on which host is served, serving it first
// if it is not yet. A Host whose type cannot be compared is served anew
// for each mount.
func (s *serviceClient) serve(host contract.Host) uint32 {
	comparable := reflect.TypeOf(host).Comparable()
	s.mu.Lock()
	defer s.mu.Unlock()
	if comparable {
		for _, h := range s.hosts {
			if h.host == host {
				return h.id
			}
		}
	}
	id := s.broker.NextId()
	server := &hostServer{host: host, calls: &s.calls}
	go s.broker.AcceptAndServe(id, func(opts []grpc.ServerOption) *grpc.Server {
		srv := newGRPCServer(opts)
		pb.RegisterHostServiceServer(srv, server)
		return srv
	})
	if comparable {
		s.hosts = append(s.hosts, servedHost{host: host, id: id})
	}
	return id
}

// BindTools tells the plugin the identities of a mount's tools.
func (s *serviceClient) BindTools(ctx context.Context, mountID string, bindings []contract.ToolBinding) error {
	in := bindToolsToProto(mountID, bindings)
	if err := checkSize("BindTools request", in); err != nil {
		return err
	}
	if err := checkMetadata(ctx, "BindTools request"); err != nil {
		return err
	}
	_, err := s.c.BindTools(ctx, in)
	return fromStatus(err)
}

// Unmount releases a mount.
func (s *serviceClient) Unmount(ctx context.Context, mountID string) error {
	if err := checkMetadata(ctx, "Unmount request"); err != nil {
		return err
	}
	_, err := s.c.Unmount(ctx, &pb.UnmountRequest{MountId: mountID})
	return fromStatus(err)
}

// PreStep runs one pre-step.
func (s *serviceClient) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	in := stepRequestToProto(req)
	if err := checkSize("PreStep request", in); err != nil {
		return contract.StepResponse{}, err
	}
	octx := outgoingTrace(ctx)
	if err := checkMetadata(octx, "PreStep request"); err != nil {
		return contract.StepResponse{}, err
	}
	mark := s.calls.mark(req.SessionID)
	t := timing(ctx)
	resp, err := s.c.PreStep(octx, in, t.callOptions()...)
	t.record()
	if err != nil {
		if bad := invalidText("PreStep request", in, req.Downstream.Messages); bad != nil {
			return contract.StepResponse{}, bad
		}
		return contract.StepResponse{}, s.calls.blame(req.SessionID, mark, fromStatus(err))
	}
	return stepResponseFromProto(resp)
}

// ExecuteSkillTool runs one call of one of a mount's tools.
func (s *serviceClient) ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (contract.ToolResult, error) {
	in := toolCallToProto(call)
	if err := checkSize("ExecuteSkillTool request", in); err != nil {
		return contract.ToolResult{}, err
	}
	octx := outgoingTrace(ctx)
	if err := checkMetadata(octx, "ExecuteSkillTool request"); err != nil {
		return contract.ToolResult{}, err
	}
	mark := s.calls.mark(call.SessionID)
	t := timing(ctx)
	resp, err := s.c.ExecuteSkillTool(octx, in, t.callOptions()...)
	t.record()
	if err != nil {
		if bad := invalidText("ExecuteSkillTool request", in, nil); bad != nil {
			return contract.ToolResult{}, bad
		}
		return contract.ToolResult{}, s.calls.blame(call.SessionID, mark, fromStatus(err))
	}
	return toolResultFromProto(resp), nil
}

// EndSession releases what the plugin cached for a session, and what the
// client remembers of its callbacks.
func (s *serviceClient) EndSession(ctx context.Context, sessionID string) error {
	s.calls.forget(sessionID)
	if err := checkMetadata(ctx, "EndSession request"); err != nil {
		return err
	}
	_, err := s.c.EndSession(ctx, &pb.EndSessionRequest{SessionId: sessionID})
	return fromStatus(err)
}

// Ping makes one empty round trip.
func (s *serviceClient) Ping(ctx context.Context) error {
	if err := checkMetadata(ctx, "Ping request"); err != nil {
		return err
	}
	_, err := s.c.Ping(ctx, &pb.PingRequest{})
	return fromStatus(err)
}

// serviceServer is a contract.Service as the protocol's PluginService: the
// plugin's end. Each method converts the request, calls the service and
// converts the answer back. The host's callbacks are dialed through
// go-plugin's broker, once per broker id the host names.
type serviceServer struct {
	pb.UnimplementedPluginServiceServer

	service contract.Service
	broker  *goplugin.GRPCBroker

	mu    sync.Mutex
	hosts map[uint32]hostClient
}

func (s *serviceServer) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	cfg, brokerID := configureRequestFromProto(req)
	host, err := s.dialHost(brokerID)
	if err != nil {
		// The host names the broker id and announces its listener: a dial
		// that finds none is the host's mistake, not an unreachable plugin.
		return nil, toStatus(ctx, contract.HostFailed(err), codes.Aborted)
	}
	resp, err := s.service.Configure(ctx, host, cfg)
	if err != nil {
		return nil, toStatus(ctx, err, codes.Internal)
	}
	return configureResponseToProto(resp), nil
}

// dialHost returns the host's services on a broker id.
func (s *serviceServer) dialHost(id uint32) (contract.Host, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h, ok := s.hosts[id]; ok {
		return h, nil
	}
	if s.broker == nil {
		return nil, fmt.Errorf("no broker to reach host services")
	}
	conn, err := s.broker.DialWithOptions(id, dialOptions()...)
	if err != nil {
		return nil, fmt.Errorf("dial host services (broker id %d): %w: the host must send a ConnInfo for broker id %d on the broker stream before the ConfigureRequest that names it", id, err, id)
	}
	h := hostClient{c: pb.NewHostServiceClient(conn)}
	s.hosts[id] = h
	return h, nil
}

func (s *serviceServer) BindTools(ctx context.Context, req *pb.BindToolsRequest) (*pb.BindToolsResponse, error) {
	id, bindings := bindToolsFromProto(req)
	if err := s.service.BindTools(ctx, id, bindings); err != nil {
		return nil, toStatus(ctx, err, codes.Internal)
	}
	return &pb.BindToolsResponse{}, nil
}

func (s *serviceServer) Unmount(ctx context.Context, req *pb.UnmountRequest) (*pb.UnmountResponse, error) {
	if err := s.service.Unmount(ctx, req.GetMountId()); err != nil {
		return nil, toStatus(ctx, err, codes.Internal)
	}
	return &pb.UnmountResponse{}, nil
}

func (s *serviceServer) PreStep(ctx context.Context, req *pb.PreStepRequest) (*pb.PreStepResponse, error) {
	ctx = incomingTrace(ctx)
	defer reportDuration(ctx, time.Now())
	resp, err := s.service.PreStep(ctx, stepRequestFromProto(req))
	if err != nil {
		return nil, toStatus(ctx, err, codes.Internal)
	}
	out, err := stepResponseToProto(resp)
	if err == nil {
		err = checkSize("PreStep response", out)
	}
	if err != nil {
		return nil, toStatus(ctx, err, codes.Internal)
	}
	return out, nil
}

func (s *serviceServer) ExecuteSkillTool(ctx context.Context, req *pb.ExecuteSkillToolRequest) (*pb.ExecuteSkillToolResponse, error) {
	ctx = incomingTrace(ctx)
	defer reportDuration(ctx, time.Now())
	res, err := s.service.ExecuteSkillTool(ctx, toolCallFromProto(req))
	if err != nil {
		return nil, toStatus(ctx, err, codes.Internal)
	}
	out := toolResultToProto(res)
	if err := checkSize("ExecuteSkillTool response", out); err != nil {
		return nil, toStatus(ctx, err, codes.Internal)
	}
	return out, nil
}

func (s *serviceServer) EndSession(ctx context.Context, req *pb.EndSessionRequest) (*pb.EndSessionResponse, error) {
	if err := s.service.EndSession(ctx, req.GetSessionId()); err != nil {
		return nil, toStatus(ctx, err, codes.Internal)
	}
	return &pb.EndSessionResponse{}, nil
}

func (s *serviceServer) Ping(ctx context.Context, _ *pb.PingRequest) (*pb.PingResponse, error) {
	if err := s.service.Ping(ctx); err != nil {
		return nil, toStatus(ctx, err, codes.Internal)
	}
	return &pb.PingResponse{}, nil
}
