package wire

import (
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// Conversions of a mount's configuration and tool bindings.

// configureRequestToProto converts a mount's configuration together with
// the broker id on which the host serves its callbacks.
func configureRequestToProto(r contract.ConfigureRequest, hostBrokerID uint32) *pb.ConfigureRequest {
	return &pb.ConfigureRequest{ConfigJson: r.Config, Scope: r.Scope, HostServiceBrokerId: hostBrokerID, DiscoveryJson: r.Discovery}
}

// configureRequestFromProto converts a mount's configuration and returns
// the host's broker id beside it.
func configureRequestFromProto(r *pb.ConfigureRequest) (contract.ConfigureRequest, uint32) {
	return contract.ConfigureRequest{Config: r.GetConfigJson(), Scope: r.GetScope(), Discovery: r.GetDiscoveryJson()}, r.GetHostServiceBrokerId()
}

// configureResponseToProto converts a new mount's description.
func configureResponseToProto(r contract.ConfigureResponse) *pb.ConfigureResponse {
	out := &pb.ConfigureResponse{MountId: r.MountID, AcceptsSourceDigests: r.AcceptsSourceDigests, AcceptsStepSnapshots: r.AcceptsStepSnapshots, DiscoversSkills: r.DiscoversSkills}
	for _, t := range r.Tools {
		out.Tools = append(out.Tools, toolDefinitionToProto(t))
	}
	return out
}

// configureResponseFromProto converts a new mount's description.
func configureResponseFromProto(r *pb.ConfigureResponse) contract.ConfigureResponse {
	out := contract.ConfigureResponse{MountID: r.GetMountId(), AcceptsSourceDigests: r.GetAcceptsSourceDigests(), AcceptsStepSnapshots: r.GetAcceptsStepSnapshots(), DiscoversSkills: r.GetDiscoversSkills()}
	for _, t := range r.GetTools() {
		out.Tools = append(out.Tools, toolDefinitionFromProto(t))
	}
	return out
}

// bindToolsToProto converts a mount's tool bindings.
func bindToolsToProto(mountID string, bindings []contract.ToolBinding) *pb.BindToolsRequest {
	out := &pb.BindToolsRequest{MountId: mountID}
	for _, b := range bindings {
		out.Bindings = append(out.Bindings, &pb.ToolBinding{ToolName: b.ToolName, DefinitionIdentity: b.DefinitionIdentity})
	}
	return out
}

// bindToolsFromProto converts a mount's tool bindings.
func bindToolsFromProto(r *pb.BindToolsRequest) (mountID string, bindings []contract.ToolBinding) {
	for _, b := range r.GetBindings() {
		bindings = append(bindings, contract.ToolBinding{ToolName: b.GetToolName(), DefinitionIdentity: b.GetDefinitionIdentity()})
	}
	return r.GetMountId(), bindings
}
