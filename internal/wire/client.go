package wire

import (
	"context"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// PluginClient is the plugin's service as Go calls: the host side of the
// protocol. Every request and answer is converted here, and every error
// the plugin reports is mapped back with FromStatus (keeping its gRPC
// status, so the host can still judge the connection by its code). A
// request that carries host or model data and would exceed MaxMessageBytes
// is not sent: the call returns a *MessageTooLargeError.
type PluginClient struct {
	c pb.PluginServiceClient
}

// Configure configures a mount whose callbacks the host serves on
// hostBrokerID.
func (p PluginClient) Configure(ctx context.Context, req contract.ConfigureRequest, hostBrokerID uint32) (contract.ConfigureResponse, error) {
	in := ConfigureRequestToProto(req, hostBrokerID)
	if err := checkSize("Configure request", in); err != nil {
		return contract.ConfigureResponse{}, err
	}
	resp, err := p.c.Configure(ctx, in)
	if err != nil {
		return contract.ConfigureResponse{}, FromStatus(err)
	}
	return ConfigureResponseFromProto(resp), nil
}

// BindTools tells the plugin the identities of a mount's tools.
func (p PluginClient) BindTools(ctx context.Context, mountID string, bindings []contract.ToolBinding) error {
	in := BindToolsToProto(mountID, bindings)
	if err := checkSize("BindTools request", in); err != nil {
		return err
	}
	_, err := p.c.BindTools(ctx, in)
	return FromStatus(err)
}

// Unmount releases a mount.
func (p PluginClient) Unmount(ctx context.Context, mountID string) error {
	_, err := p.c.Unmount(ctx, &pb.UnmountRequest{MountId: mountID})
	return FromStatus(err)
}

// PreStep runs one pre-step.
func (p PluginClient) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	in := StepRequestToProto(req)
	if err := checkSize("PreStep request", in); err != nil {
		return contract.StepResponse{}, err
	}
	resp, err := p.c.PreStep(ctx, in)
	if err != nil {
		return contract.StepResponse{}, FromStatus(err)
	}
	return StepResponseFromProto(resp)
}

// ExecuteSkillTool runs one `skill` tool call.
func (p PluginClient) ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (contract.ToolResult, error) {
	in := ToolCallToProto(call)
	if err := checkSize("ExecuteSkillTool request", in); err != nil {
		return contract.ToolResult{}, err
	}
	resp, err := p.c.ExecuteSkillTool(ctx, in)
	if err != nil {
		return contract.ToolResult{}, FromStatus(err)
	}
	return ToolResultFromProto(resp), nil
}

// EndSession releases what the plugin cached for a session.
func (p PluginClient) EndSession(ctx context.Context, sessionID string) error {
	_, err := p.c.EndSession(ctx, &pb.EndSessionRequest{SessionId: sessionID})
	return FromStatus(err)
}

// Ping makes one empty round trip.
func (p PluginClient) Ping(ctx context.Context) error {
	_, err := p.c.Ping(ctx, &pb.PingRequest{})
	return FromStatus(err)
}
