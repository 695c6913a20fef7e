package hostsdk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/internal/hostanswer"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// Default deadlines, used when [Options] leaves them zero.
const (
	// DefaultPreStepTimeout bounds one PreStep round trip, host callbacks
	// and the step's session-store calls included.
	DefaultPreStepTimeout = 30 * time.Second
	// DefaultToolCallTimeout bounds one forwarded tool call, the skill's
	// load from its provider included.
	DefaultToolCallTimeout = 60 * time.Second
)

// Options wires a Host ([New]) to the runtime's scopes, skills and session
// logs. Tools, Skills and Sessions are required; every other field is
// optional, its zero value meaning the default.
type Options struct {
	// Tools is the scope tree with tool definitions. Required.
	Tools *tools.Tree
	// Skills is the skill registry. Required.
	Skills *skills.Registry
	// Sessions opens durable session logs. Required.
	Sessions sessionlog.Store
	// Logger receives the SDK's and the plugins' log output; nil discards.
	Logger *slog.Logger
	// PreStepTimeout bounds each attempt of a PreStep: the plugin's round
	// trip with its callbacks, and opening the session's log and appending
	// the step's messages; zero means DefaultPreStepTimeout.
	PreStepTimeout time.Duration
	// ToolCallTimeout bounds a Session.CallTool; zero means DefaultToolCallTimeout.
	ToolCallTimeout time.Duration
	// FailClosed makes a failed step return only the error instead of
	// letting the downstream decision proceed unchanged (and appended).
	FailClosed bool
	// ToolGrants enforces the tool grants of the skill active in a
	// session's turn (see ToolGrants, Session.OfferedTools and
	// Session.CheckToolCall); the zero value, ToolGrantsOff, enforces
	// none.
	ToolGrants ToolGrants
	// TracerProvider, when set, records a span for every step and
	// tool call, the plugin's work in it and each host callback the plugin
	// makes (see "Tracing and metrics" in the package documentation). nil
	// records none and adds no work. Give the skills.Registry the same
	// provider (skills.RegistryOptions) for spans of its provider calls.
	TracerProvider trace.TracerProvider
	// MeterProvider, when set, records the SDK's metrics (see "Tracing and
	// metrics"); nil records none.
	MeterProvider metric.MeterProvider
	// MaskSkillNames records, in the activation events and the skill
	// counters (see "Tracing and metrics"), a stable stand-in for each
	// skill name ("skill-" and 16 hex digits of its hash) instead of the
	// name, for hosts whose skill names must not leave the host.
	MaskSkillNames bool
	// Embedder, when set, adds semantic ranking to the plugin's skill
	// search (the skill_search tool and the relevant-skills message): the
	// plugin embeds each skill's name and description once, and each
	// query, and fuses the cosine ranking with its lexical one. nil leaves
	// the search lexical.
	Embedder Embedder
	// Preload names, by agent scope, the skills preloaded for every
	// session of an agent (Claude Code's sub-agent `skills:`): at a
	// session's first step their instructions are appended, once, as a
	// message of the plugin's, and after a compaction they are attached
	// again as skills the model loaded. A session adds its own
	// (SessionOptions.PreloadSkills, Step.PreloadSkills) after its agent
	// scope's. A name the agent cannot load is left out with a
	// ReasonPreloaded reason; the step goes on.
	Preload map[string][]string
}

// Embedder turns texts into vectors for the plugin's skill search: one
// vector per text, in order, all of one dimension, with the name of the
// model that made them. The plugin sends at most contract.MaxEmbedTexts
// texts of at most contract.MaxEmbedTextBytes each, of one kind
// (EmbedQuery or EmbedDocument), and asks again for a skill only when its
// text or the model changes.
type Embedder interface {
	Embed(ctx context.Context, req EmbedRequest) (Embeddings, error)
}

// EmbedderFunc is an Embedder made of a function.
type EmbedderFunc func(ctx context.Context, req EmbedRequest) (Embeddings, error)

// Embed calls f.
func (f EmbedderFunc) Embed(ctx context.Context, req EmbedRequest) (Embeddings, error) {
	return f(ctx, req)
}

// The embedding vocabulary, re-exported from package contract.
type (
	EmbedRequest = contract.EmbedRequest
	Embeddings   = contract.Embeddings
	EmbedKind    = contract.EmbedKind
)

// The kinds of text an EmbedRequest carries.
const (
	EmbedQuery    = contract.EmbedQuery
	EmbedDocument = contract.EmbedDocument
)

// Listener is a downstream pre-step listener. It receives the decision so
// far and returns the decision to pass on.
type Listener func(ctx context.Context, step Step, decision Decision) (Decision, error)

// Host is the runtime side of the plugin. It is safe for concurrent use.
type Host struct {
	opts Options
	log  *slog.Logger

	// sent holds the complete snapshots recently sent to plugins, by token,
	// so the next one can be sent as a delta.
	sent *sentCache
	// answer answers the plugin's skill callbacks from the registry, as a
	// discovering mount's does from its own.
	answer *hostanswer.Answerer
	// callbacks is the Host as the plugin's callbacks, handed to every
	// mount.
	callbacks contract.Host
	// sessions are the sessions the host has met, until Session.End.
	sessions sessionTable
	// tel records spans and metrics, when the Options ask for them.
	tel *hostTelemetry
	// directives is the directive handler (HandleDirectives); nil acts on
	// none.
	directives atomic.Pointer[DirectiveHandler]

	// closed is set by Close: every later use fails with ErrClosed.
	closed atomic.Bool

	mu        sync.Mutex
	plugins   []*Plugin
	listeners []Listener
	// closers release what Open made for the host (its providers), after
	// the plugins and session logs.
	closers []func() error
}

// New returns a Host wired as opts says (see [Options]). Tools, Skills and
// Sessions are required, so nil options are an error naming
// Options.Tools; a negative timeout is an error naming the option and its
// bound. For the common case, [Open] builds the parts itself.
func New(opts *Options) (*Host, error) {
	var cfg Options
	if opts != nil {
		cfg = *opts
	}
	switch {
	case cfg.Tools == nil:
		return nil, errors.New("hostsdk: Options.Tools is required")
	case cfg.Skills == nil:
		return nil, errors.New("hostsdk: Options.Skills is required")
	case cfg.Sessions == nil:
		return nil, errors.New("hostsdk: Options.Sessions is required")
	case cfg.PreStepTimeout < 0:
		return nil, fmt.Errorf("hostsdk: Options.PreStepTimeout must be >= 0, got %s", cfg.PreStepTimeout)
	case cfg.ToolCallTimeout < 0:
		return nil, fmt.Errorf("hostsdk: Options.ToolCallTimeout must be >= 0, got %s", cfg.ToolCallTimeout)
	}
	if cfg.PreStepTimeout == 0 {
		cfg.PreStepTimeout = DefaultPreStepTimeout
	}
	if cfg.ToolCallTimeout == 0 {
		cfg.ToolCallTimeout = DefaultToolCallTimeout
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	tel, err := newHostTelemetry(cfg.TracerProvider, cfg.MeterProvider)
	if err != nil {
		return nil, err
	}
	tel.maskNames = cfg.MaskSkillNames
	h := &Host{opts: cfg, log: logger, sent: newSentCache(sentSnapshots, sentSnapshotBytes), tel: tel}
	h.answer = hostanswer.New(cfg.Skills, cfg.Tools.Chain, h.sent)
	h.callbacks = tel.callbacks(hostCallbacks{h})
	return h, nil
}

// sessionLog returns the session's log, opening it once and keeping it open
// until Session.End or Close: reopening a file-backed log rescans the file.
func (h *Host) sessionLog(ctx context.Context, sessionID string) (sessionlog.Log, error) {
	return h.openLog(ctx, sessionID, h.sessions.get(sessionID))
}

// openLog is sessionLog for a session the caller has looked up.
func (h *Host) openLog(ctx context.Context, sessionID string, s *session) (sessionlog.Log, error) {
	if err := h.checkOpen("open session", sessionID); err != nil {
		return nil, err
	}
	if l, ok := s.openLog(); ok {
		return l, nil
	}
	// Opening may scan a whole file: not under the sessions' lock.
	l, err := h.opts.Sessions.Open(ctx, sessionID)
	if err != nil {
		return nil, fmt.Errorf("open session %q: %w", sessionID, err)
	}
	kept, first := s.keepLog(l)
	if !first {
		l.Close() // another caller opened it first
		return kept, nil
	}
	h.warnRepaired(sessionID, l)
	return l, nil
}

// AddListener appends a downstream listener; listeners run in order before
// the plugin at every step of every session.
func (h *Host) AddListener(l Listener) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.listeners = append(h.listeners, l)
}

// Close stops every plugin the host loaded and closes the session logs it
// opened. From then on the host's steps, tool calls, session reads and
// writes, Load and Mount fail with ErrClosed; closing again does nothing.
func (h *Host) Close() error {
	h.closed.Store(true)
	h.mu.Lock()
	plugins := h.plugins
	h.plugins = nil
	h.mu.Unlock()
	logs := h.sessions.endAll()
	var errs []error
	for _, p := range plugins {
		errs = append(errs, p.Close())
	}
	for id, l := range logs {
		if err := l.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close session %q: %w", id, err))
		}
	}
	h.mu.Lock()
	closers := h.closers
	h.closers = nil
	h.mu.Unlock()
	for _, c := range closers {
		errs = append(errs, c())
	}
	return errors.Join(errs...)
}

// checkOpen returns ErrClosed, saying what was called and on what (name,
// quoted, when not empty), once Close has begun. It formats nothing while
// the host is open: it is on every step's path.
func (h *Host) checkOpen(what, name string) error {
	if !h.closed.Load() {
		return nil
	}
	if name != "" {
		what += " " + strconv.Quote(name)
	}
	return fmt.Errorf("%s: %w", what, ErrClosed)
}

func (h *Host) loaded() []*Plugin {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*Plugin(nil), h.plugins...)
}

// mountFor returns the mount in effect for an agent scope: the mount in the
// nearest scope of the agent's chain.
func (h *Host) mountFor(scope string) (*Mount, []string, error) {
	chain, err := h.opts.Tools.Chain(scope)
	if err != nil {
		return nil, nil, err
	}
	var mounts []*Mount
	for _, p := range h.loaded() {
		mounts = append(mounts, p.mountList()...)
	}
	for _, s := range chain {
		for _, m := range mounts {
			if m.scope == s {
				return m, chain, nil
			}
		}
	}
	return nil, chain, nil
}
