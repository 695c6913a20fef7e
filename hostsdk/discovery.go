package hostsdk

import (
	"context"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// Discovery asks the plugin to discover a mount's skills itself: skill
// directories with presets, project trust, MCP skill servers and websites (see
// package plugin/discovery for what the plugin then reads and connects to,
// and its bounds).
type Discovery = contract.Discovery

// DiscoveryServer is one MCP skill server of a Discovery.
type DiscoveryServer = contract.DiscoveryServer

// DiscoveryWebsite is one website of a Discovery: a site that publishes
// skills under the Agent Skills discovery index.
type DiscoveryWebsite = contract.DiscoveryWebsite

// MountDiscovering is Mount for a mount whose skills the plugin
// discovers itself, as d says, rather than asking the Host's registry:
// the plugin builds the same providers in its own process, watches the
// directories and reaches the servers, and calls back only for the
// session log. The steps and tool calls of the mount's agents answer as
// they would from a registry holding those providers (see
// plugin/discovery), and the Host's own registry and session skill
// selections are not consulted for them. The plugin discovers alike in
// its own process and in the host's (LoadOptions.InProcess). A d the
// plugin refuses is a *ConfigError naming the option and its bound.
func (p *Plugin) MountDiscovering(ctx context.Context, scope string, opts *MountOptions, d Discovery) (*Mount, error) {
	return p.mount(ctx, scope, mountJSON(opts), d.JSON())
}
