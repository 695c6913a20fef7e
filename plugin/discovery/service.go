package discovery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/skillcatalog/skillcatalog/internal/hostanswer"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Service is a contract.Service that serves the mounts configured with a
// Discovery from providers of its own, and every other mount as the
// service it wraps does. It is safe for concurrent use. Close it when the
// plugin stops: it closes every provider still open.
type Service struct {
	inner contract.Service
	log   *slog.Logger

	mu      sync.Mutex
	closed  bool
	sources map[string]*sources          // by configuration
	mounts  map[string]*discoveringMount // by mount id
}

// discoveringMount is a mount the service discovers skills for.
type discoveringMount struct {
	src  *sources
	host *localHost
}

var _ contract.Service = (*Service)(nil)

// Options configure a Service; nil Options mean the defaults.
type Options struct {
	// Logger receives the providers' diagnostics and one debug line per
	// discovered snapshot a step did not hold; nil discards them.
	Logger *slog.Logger
}

// New wraps inner, the engine (or a service that wraps it).
func New(inner contract.Service, opts *Options) *Service {
	var logger *slog.Logger
	if opts != nil {
		logger = opts.Logger
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Service{inner: inner, log: logger, sources: make(map[string]*sources), mounts: make(map[string]*discoveringMount)}
}

// Configure configures a mount. With a Discovery, the mount's skills come
// from the providers it names, shared with every mount configured the
// same way, and the mount calls only host's ReadEvents; without, it is
// the wrapped service's Configure.
func (s *Service) Configure(ctx context.Context, host contract.Host, req contract.ConfigureRequest) (contract.ConfigureResponse, error) {
	if req.Discovery == "" {
		return s.inner.Configure(ctx, host, req)
	}
	if host == nil {
		return contract.ConfigureResponse{}, errors.New("configure: no host to call back")
	}
	d, err := Parse(req.Discovery)
	if err != nil {
		return contract.ConfigureResponse{}, &contract.ConfigError{Message: err.Error()}
	}
	src, err := s.acquire(d)
	if err != nil {
		return contract.ConfigureResponse{}, err
	}
	honour, _ := skill.ParseDirectiveSet(d.HonourDirectives) // checked by Parse
	local := newLocalHost(host, src.registry, s.log, honour)
	req.Discovery = ""
	resp, err := s.inner.Configure(ctx, local, req)
	if err != nil {
		if rerr := s.release(src); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return contract.ConfigureResponse{}, err
	}
	// The host knows neither the tokens nor the snapshots of the skills
	// the plugin discovers: it has none to send ahead.
	resp.DiscoversSkills, resp.AcceptsStepSnapshots = true, false
	s.mu.Lock()
	s.mounts[resp.MountID] = &discoveringMount{src: src, host: local}
	s.mu.Unlock()
	return resp, nil
}

// acquire returns the sources of d, opening them when no mount holds them.
func (s *Service) acquire(d contract.Discovery) (*sources, error) {
	key := d.JSON()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("discovery: the plugin is stopping")
	}
	if src, ok := s.sources[key]; ok {
		src.refs++
		return src, nil
	}
	if len(s.sources) >= MaxConfigurations {
		return nil, &contract.ConfigError{Message: fmt.Sprintf("discovery: the plugin already discovers skills for %d configurations, the most it serves at once (MaxConfigurations): "+
			"unmount a mount, or configure mounts with the same discovery, which share its providers", MaxConfigurations)}
	}
	src, err := openSources(d, s.log)
	if err != nil {
		return nil, err
	}
	src.refs = 1
	s.sources[key] = src
	return src, nil
}

// release drops a mount's hold on src and closes it after the last.
func (s *Service) release(src *sources) error {
	s.mu.Lock()
	src.refs--
	last := src.refs == 0 && s.sources[src.key] == src
	if last {
		delete(s.sources, src.key)
	}
	s.mu.Unlock()
	if !last {
		return nil
	}
	if err := src.close(); err != nil {
		return fmt.Errorf("discovery: close the providers: %w", err)
	}
	return nil
}

// mount returns the discovering mount of an id, or nil.
func (s *Service) mount(id string) *discoveringMount {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mounts[id]
}

// BindTools is the wrapped service's.
func (s *Service) BindTools(ctx context.Context, mountID string, bindings []contract.ToolBinding) error {
	return s.inner.BindTools(ctx, mountID, bindings)
}

// Unmount releases a mount, and the providers of its discovery after the
// last mount that shared them.
func (s *Service) Unmount(ctx context.Context, mountID string) error {
	err := s.inner.Unmount(ctx, mountID)
	s.mu.Lock()
	m := s.mounts[mountID]
	delete(s.mounts, mountID)
	s.mu.Unlock()
	if m != nil {
		err = errors.Join(err, s.release(m.src))
	}
	return err
}

// PreStep runs a step. For a discovering mount it drops the hints a host
// cannot have (a snapshot token, a snapshot computed ahead) and adds to
// the step's answer what the discovered snapshot said beside its skills,
// as the Go host SDK adds what its registry said.
func (s *Service) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	m := s.mount(req.MountID)
	if m == nil {
		return s.inner.PreStep(ctx, req)
	}
	req.SnapshotToken, req.Snapshot = "", nil
	box := m.host.mailbox(req.SessionID)
	mark := box.Mark()
	resp, err := s.inner.PreStep(ctx, req)
	if err != nil {
		return resp, err
	}
	resp.Diagnostics, resp.Reasons = hostanswer.AddNotes(resp, box.Since(mark))
	return resp, nil
}

// ExecuteSkillTool is the wrapped service's: a discovering mount's host
// answers its loads and reads.
func (s *Service) ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (contract.ToolResult, error) {
	return s.inner.ExecuteSkillTool(ctx, call)
}

// EndSession releases what the wrapped service and every provider keep
// for a session.
func (s *Service) EndSession(ctx context.Context, sessionID string) error {
	s.mu.Lock()
	regs := make([]*sources, 0, len(s.sources))
	for _, src := range s.sources {
		regs = append(regs, src)
	}
	hosts := make([]*localHost, 0, len(s.mounts))
	for _, m := range s.mounts {
		hosts = append(hosts, m.host)
	}
	s.mu.Unlock()
	for _, src := range regs {
		src.registry.EndSession(sessionID)
	}
	for _, h := range hosts {
		h.endSession(sessionID)
	}
	return s.inner.EndSession(ctx, sessionID)
}

// Ping is the wrapped service's.
func (s *Service) Ping(ctx context.Context) error { return s.inner.Ping(ctx) }

// Close closes the providers of every discovery configuration; a later
// Configure with a Discovery fails. Mounts without one are unaffected.
func (s *Service) Close() error {
	s.mu.Lock()
	s.closed = true
	all := s.sources
	s.sources = make(map[string]*sources)
	s.mounts = make(map[string]*discoveringMount)
	s.mu.Unlock()
	var errs []error
	for _, src := range all {
		errs = append(errs, src.close())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("discovery: close the providers: %w", err)
	}
	return nil
}
