package discovery

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

// DiskLabel is the provider label of the skill directories
// (skills.ProviderOptions.Label): it names them in the reasons of a step
// and in telemetry.
const DiskLabel = "agentskills"

// Scope is the registry scope every discovered provider is attached to,
// the Go host SDK's global scope: a mount's discovered skills are visible
// to every agent the mount serves.
const Scope = contract.GlobalScope

// sources are the providers of one discovery configuration, in the
// registry they answer through, shared by the mounts configured with it.
type sources struct {
	key      string
	refs     int
	registry *skills.Registry
	closers  []func() error
}

// openSources builds the providers d names, the way a Go host attaches
// them (see Registry), after checking that each skill root is a directory
// it can read or is not there yet (checkRoots): the skill directories,
// watched, as one strict
// agentskills provider labelled DiskLabel, then each MCP server as an
// mcpskills provider and each website as a webskills provider, labelled
// with its label, in Scope.
func openSources(d contract.Discovery, logger *slog.Logger) (*sources, error) {
	ro, err := LockOptions(d)
	if err != nil {
		return nil, err
	}
	reg, err := skills.NewRegistry(ro)
	if err != nil {
		return nil, err
	}
	if err := checkRoots(d.SkillRoots); err != nil {
		return nil, err
	}
	src := &sources{key: d.JSON(), registry: reg}
	disk, err := agentskills.New(DiskOptions(d, logger))
	if err != nil {
		return nil, fmt.Errorf("open the skill directories: %w", err)
	}
	src.closers = append(src.closers, disk.Close)
	reg.AddProvider(Scope, disk, &skills.ProviderOptions{Label: DiskLabel})
	for i, s := range d.MCPServers {
		remote, err := mcpskills.New(ServerOptions(s, logger))
		if err != nil {
			// A bound mcpskills holds that Parse does not check twice.
			return nil, errors.Join(&contract.ConfigError{Message: fmt.Sprintf("discovery option mcpServers[%d]: %v", i, err)}, src.close())
		}
		src.closers = append(src.closers, remote.Close)
		reg.AddProvider(Scope, remote, &skills.ProviderOptions{Label: serverLabel(s), Rank: s.Rank, Availability: availability(s), TrustDirectives: s.TrustDirectives})
	}
	for i, w := range d.Websites {
		web, err := webskills.New(WebsiteOptions(w, logger))
		if err != nil {
			return nil, errors.Join(&contract.ConfigError{Message: fmt.Sprintf("discovery option websites[%d]: %v", i, err)}, src.close())
		}
		src.closers = append(src.closers, web.Close)
		reg.AddProvider(Scope, web, &skills.ProviderOptions{Label: websiteLabel(w), Rank: w.Rank,
			Availability: availability(contract.DiscoveryServer{Availability: w.Availability}), TrustDirectives: w.TrustDirectives})
	}
	return src, nil
}

// WebsiteOptions are the webskills options of one website. Plain http to
// a loopback address is allowed without allowHttp, as for a server, so
// webskills is told to allow it.
func WebsiteOptions(w contract.DiscoveryWebsite, logger *slog.Logger) *webskills.Options {
	allowHTTP := w.AllowHTTP
	if u, err := url.Parse(w.URL); err == nil && u.Scheme == "http" && loopback(u.Hostname()) {
		allowHTTP = true
	}
	return &webskills.Options{URL: w.URL, Label: w.Label, AllowHTTP: allowHTTP, RequireDigests: w.RequireDigests,
		RequestTimeout: time.Duration(w.RequestTimeoutMs) * time.Millisecond, Logger: logger}
}

// websiteLabel is the label a website's skills carry.
func websiteLabel(w contract.DiscoveryWebsite) string {
	if w.Label == "" {
		return webskills.DefaultLabel
	}
	return w.Label
}

// DiskOptions are the agentskills options of a discovery configuration:
// its roots and presets, its home directory, its project trust, and live
// refresh.
func DiskOptions(d contract.Discovery, logger *slog.Logger) *agentskills.Options {
	ps, _ := presets(d.Presets) // checked by Parse
	return &agentskills.Options{ExtraRoots: cleaned(d.SkillRoots), Presets: ps, HomeDir: d.HomeDir, Watch: true,
		TrustProject: trust(d), Logger: logger}
}

// ServerOptions are the mcpskills options of one server.
func ServerOptions(s contract.DiscoveryServer, logger *slog.Logger) *mcpskills.Options {
	return &mcpskills.Options{URL: s.URL, Headers: s.Headers, Label: s.Label, SkillURIs: s.SkillURIs,
		RequestTimeout: time.Duration(s.RequestTimeoutMs) * time.Millisecond,
		IndexMaxAge:    time.Duration(s.IndexMaxAgeMs) * time.Millisecond, Logger: logger}
}

// serverLabel is the label a server's skills carry.
func serverLabel(s contract.DiscoveryServer) string {
	if s.Label == "" {
		return mcpskills.DefaultLabel
	}
	return s.Label
}

// availability maps DiscoveryServer.Availability.
func availability(s contract.DiscoveryServer) skills.Availability {
	if s.Availability == availabilityStrict {
		return skills.Strict
	}
	return skills.BestEffort
}

// cleaned returns the paths cleaned (checked absolute by Parse).
func cleaned(paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Clean(p)
	}
	return out
}

// trust is the project-trust decision of a configuration: every project,
// the projects at or below the trusted directories, or none.
func trust(d contract.Discovery) func(string) bool {
	switch {
	case d.TrustProjects:
		return func(string) bool { return true }
	case len(d.TrustedProjects) > 0:
		dirs := cleaned(d.TrustedProjects)
		return func(root string) bool {
			root = filepath.Clean(root)
			for _, dir := range dirs {
				if root == dir || strings.HasPrefix(root, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator)) {
					return true
				}
			}
			return false
		}
	}
	return nil
}

// close closes every provider.
func (s *sources) close() error {
	var errs []error
	for _, c := range s.closers {
		errs = append(errs, c())
	}
	s.closers = nil
	return errors.Join(errs...)
}

// LockOptions are the registry options of d's lock (LockFile, Unlocked):
// the lock file is read now, and one that cannot be read or parsed is a
// configuration error naming the option.
func LockOptions(d contract.Discovery) (*skills.RegistryOptions, error) {
	if d.LockFile == "" {
		return nil, nil
	}
	data, err := os.ReadFile(d.LockFile)
	if err != nil {
		return nil, &contract.ConfigError{Message: fmt.Sprintf("discovery option lockFile: %v", err)}
	}
	lock, err := skilllock.ParseNamed(d.LockFile, data)
	if err != nil {
		return nil, &contract.ConfigError{Message: fmt.Sprintf("discovery option lockFile %s: %v", d.LockFile, err)}
	}
	ro := &skills.RegistryOptions{Lock: lock}
	if d.Unlocked == contract.UnlockedAllow {
		ro.Unlocked = skills.UnlockedAllow
	}
	return ro, nil
}
