package plugin

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/skillcatalog/skillcatalog/internal/wire"
	skillcatalogv1 "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/render"
)

// Serve runs the plugin until the host disconnects. It must be called from
// a process the host started through the go-plugin handshake.
func Serve() {
	logger := hclog.New(&hclog.LoggerOptions{Name: "skillcatalog", Level: hclog.Debug, JSONFormat: true}) // the host filters by its own level
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: wire.Handshake(),
		VersionedPlugins: wire.VersionedPlugins(&wire.GRPCPlugin{
			NewServer: func(broker *goplugin.GRPCBroker) skillcatalogv1.PluginServiceServer {
				return NewServer(broker, logger)
			},
		}),
		GRPCServer: goplugin.DefaultGRPCServer,
		Logger:     logger,
	})
}

// Server implements the plugin service over gRPC.
type Server struct {
	skillcatalogv1.UnimplementedPluginServiceServer

	broker *goplugin.GRPCBroker
	log    hclog.Logger
	engine *Engine

	mu     sync.Mutex
	nextID int
	mounts map[string]*mountState
	hosts  map[uint32]*grpc.ClientConn // host-service connections by broker id
}

type mountState struct {
	mount Mount
	host  Host
}

// NewServer returns a plugin server that dials host services through broker.
func NewServer(broker *goplugin.GRPCBroker, logger hclog.Logger) *Server {
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	return &Server{
		broker: broker,
		log:    logger,
		engine: NewEngine(),
		mounts: make(map[string]*mountState),
		hosts:  make(map[uint32]*grpc.ClientConn),
	}
}

// SkillTool returns the definition of the `skill` tool the plugin asks the
// host to register.
func SkillTool() *skillcatalogv1.ToolDefinition {
	return &skillcatalogv1.ToolDefinition{
		Name:             render.SkillToolName,
		Description:      render.SkillToolDescription,
		InputSchemaJson:  render.SkillToolInputSchema,
		OutputSchemaJson: render.SkillToolOutputSchema,
	}
}

// Configure validates the mount's options and describes its tools.
func (s *Server) Configure(_ context.Context, req *skillcatalogv1.ConfigureRequest) (*skillcatalogv1.ConfigureResponse, error) {
	cfg, err := ParseConfig(req.GetConfigJson())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	host, err := s.dialHost(req.GetHostServiceBrokerId())
	if err != nil {
		return nil, status.Error(codes.Unavailable, err.Error())
	}
	s.mu.Lock()
	s.nextID++
	id := "mount-" + strconv.Itoa(s.nextID)
	s.mounts[id] = &mountState{mount: Mount{Config: cfg}, host: host}
	s.mu.Unlock()
	s.log.Debug("mounted", "mount", id, "scope", req.GetScope(), OptionDescriptionMaxLength, cfg.DescriptionMaxLength)
	return &skillcatalogv1.ConfigureResponse{MountId: id, Tools: []*skillcatalogv1.ToolDefinition{SkillTool()}}, nil
}

func (s *Server) dialHost(id uint32) (Host, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if conn, ok := s.hosts[id]; ok {
		return grpcHost{skillcatalogv1.NewHostServiceClient(conn)}, nil
	}
	if s.broker == nil {
		return nil, fmt.Errorf("no broker to reach host services")
	}
	conn, err := s.broker.Dial(id)
	if err != nil {
		return nil, fmt.Errorf("dial host services (broker id %d): %w", id, err)
	}
	s.hosts[id] = conn
	return grpcHost{skillcatalogv1.NewHostServiceClient(conn)}, nil
}

// BindTools records the identity the host minted for the `skill` tool.
func (s *Server) BindTools(_ context.Context, req *skillcatalogv1.BindToolsRequest) (*skillcatalogv1.BindToolsResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms, ok := s.mounts[req.GetMountId()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "unknown mount %q", req.GetMountId())
	}
	for _, b := range req.GetBindings() {
		if b.GetToolName() == render.SkillToolName {
			ms.mount.SkillIdentity = b.GetDefinitionIdentity()
		}
	}
	return &skillcatalogv1.BindToolsResponse{}, nil
}

// Unmount forgets a mount.
func (s *Server) Unmount(_ context.Context, req *skillcatalogv1.UnmountRequest) (*skillcatalogv1.UnmountResponse, error) {
	s.mu.Lock()
	delete(s.mounts, req.GetMountId())
	s.mu.Unlock()
	return &skillcatalogv1.UnmountResponse{}, nil
}

func (s *Server) mount(id string) (*mountState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms, ok := s.mounts[id]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "unknown mount %q", id)
	}
	cp := *ms
	return &cp, nil
}

// PreStep applies the catalog rules for one model step.
func (s *Server) PreStep(ctx context.Context, req *skillcatalogv1.PreStepRequest) (*skillcatalogv1.PreStepResponse, error) {
	ms, err := s.mount(req.GetMountId())
	if err != nil {
		return nil, err
	}
	resp, err := s.engine.PreStep(ctx, ms.host, ms.mount, req)
	if err != nil {
		return nil, toStatus(ctx, err)
	}
	return resp, nil
}

// ExecuteSkillTool runs one `skill` tool call.
func (s *Server) ExecuteSkillTool(ctx context.Context, req *skillcatalogv1.ExecuteSkillToolRequest) (*skillcatalogv1.ExecuteSkillToolResponse, error) {
	ms, err := s.mount(req.GetMountId())
	if err != nil {
		return nil, err
	}
	resp, err := s.engine.ExecuteSkillTool(ctx, ms.host, ms.mount, req)
	if err != nil {
		return nil, toStatus(ctx, err)
	}
	return resp, nil
}

// EndSession drops the session's cached scan state.
func (s *Server) EndSession(_ context.Context, req *skillcatalogv1.EndSessionRequest) (*skillcatalogv1.EndSessionResponse, error) {
	s.engine.EndSession(req.GetSessionId())
	return &skillcatalogv1.EndSessionResponse{}, nil
}

// Ping answers at once.
func (s *Server) Ping(context.Context, *skillcatalogv1.PingRequest) (*skillcatalogv1.PingResponse, error) {
	return &skillcatalogv1.PingResponse{}, nil
}

// toStatus keeps cancellation recognizable to the host and never relays a
// host callback's own status code: a host that sees Unavailable from the
// plugin must be able to conclude the plugin is unreachable, not that its
// own storage failed.
func toStatus(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return status.FromContextError(ctx.Err()).Err()
	case errors.Is(err, errUnbound):
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	return status.Error(codes.Aborted, err.Error())
}

// grpcHost adapts the generated client to Host.
type grpcHost struct {
	c skillcatalogv1.HostServiceClient
}

func (h grpcHost) Snapshot(ctx context.Context, req *skillcatalogv1.SnapshotRequest) (*skillcatalogv1.SnapshotResponse, error) {
	return h.c.Snapshot(ctx, req)
}

func (h grpcHost) GetSkill(ctx context.Context, req *skillcatalogv1.GetSkillRequest) (*skillcatalogv1.GetSkillResponse, error) {
	return h.c.GetSkill(ctx, req)
}

func (h grpcHost) ReadEvents(ctx context.Context, req *skillcatalogv1.ReadEventsRequest) (*skillcatalogv1.ReadEventsResponse, error) {
	return h.c.ReadEvents(ctx, req)
}
