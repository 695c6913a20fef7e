package skilltest

import (
	"context"
	"slices"
	"sync"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// eventBuffer is the capacity of the channels a fake makes for its hang
// events.
const eventBuffer = 64

// Op names a provider call.
type Op int

// Provider calls.
const (
	OpList Op = iota + 1
	OpLoad
)

func (o Op) String() string {
	switch o {
	case OpList:
		return "List"
	case OpLoad:
		return "Load"
	}
	return "Op(?)"
}

// Call describes one call to a fake.
type Call struct {
	Op        Op
	SessionID string
	Cwd       string
	// Name is the requested skill of a Load.
	Name string
	// Err is the context's error, in events of calls that observed their
	// context ending.
	Err error
}

// Skill is one entry of a fake's source.
type Skill struct {
	// Summary is listed as is, except that an empty Provider is replaced by
	// the fake's label. Names outside the grammar and repeated names are
	// listed too, so that callers' handling of them can be tested.
	skill.Summary
	// Content and ResourceBase complete the definition Load returns.
	Content      string
	ResourceBase *skill.ResourceBase
	// Cwd, when set, offers the skill only to calls with this working
	// directory.
	Cwd string
	// LoadErr makes Load of this skill fail with this error.
	LoadErr error
	// Vanished keeps the skill listed while Load reports it missing, as if
	// it disappeared between a List and the Load.
	Vanished bool
	// Loaded, when set, is returned by Load verbatim instead of the
	// definition built from the fields above (for a provider whose loaded
	// definition disagrees with its listing, or leaves fields empty).
	Loaded *skill.Definition
}

// Capabilities selects the optional provider interfaces a fake's view
// implements.
type Capabilities uint8

// Optional provider interfaces.
const (
	// Invalidator: the view implements skills.Invalidator.
	Invalidator Capabilities = 1 << iota
	// SessionEnder: the view implements skills.SessionEnder.
	SessionEnder
)

// Options configures a fake made by [New]. Every field is optional: the
// zero value, like a nil *Options, means the defaults.
type Options struct {
	// Label is the provider label of listed skills that carry none.
	Label string
	// Started receives a Call each time a hanging call begins, and
	// Cancelled each time one observes its context ending. nil gives the
	// fake channels of its own, buffered for 64 events; one channel passed
	// to several fakes merges their events. Events that find the channel
	// full are dropped rather than block the call.
	Started, Cancelled chan Call
}

// Provider is a scriptable skills.Provider. Its skills, the way List
// answers (complete, incomplete, failing, hanging) and Load's behaviour per
// skill are set at run time; it counts calls and records the names loaded.
//
// *Provider itself implements neither skills.Invalidator nor
// skills.SessionEnder; As returns a view that implements the chosen ones.
// Every change to the skills or to how List answers calls the invalidate
// function a view received, as a provider watching its source would.
//
// All methods are safe for concurrent use. The zero value is not usable;
// call New.
type Provider struct {
	label     string
	started   chan Call
	cancelled chan Call

	mu         sync.Mutex
	skills     []Skill
	incomplete bool
	listErr    error
	hang       map[Op]bool
	onCall     func(Call)
	lists      int
	loads      []string
	invalidate func()
	setCalls   int
	sessions   map[string]bool // sessions called since their last EndSession
	ended      []string
}

var _ skills.Provider = (*Provider)(nil)

// New returns a fake with no skills whose List answers completely,
// configured by opts; nil means every default (no label, channels of its
// own).
func New(opts *Options) *Provider {
	if opts == nil {
		opts = &Options{}
	}
	p := &Provider{
		label:     opts.Label,
		started:   opts.Started,
		cancelled: opts.Cancelled,
		hang:      make(map[Op]bool),
		sessions:  make(map[string]bool),
	}
	if p.started == nil {
		p.started = make(chan Call, eventBuffer)
	}
	if p.cancelled == nil {
		p.cancelled = make(chan Call, eventBuffer)
	}
	return p
}

// As returns p as a skills.Provider that implements exactly the optional
// interfaces in caps. All views share p's state.
func (p *Provider) As(caps Capabilities) skills.Provider {
	switch caps & (Invalidator | SessionEnder) {
	case Invalidator:
		return invalidatorView{p}
	case SessionEnder:
		return sessionEnderView{p}
	case Invalidator | SessionEnder:
		return fullView{p}
	}
	return p
}

type invalidatorView struct{ *Provider }

func (v invalidatorView) SetInvalidate(f func()) { v.setInvalidate(f) }

type sessionEnderView struct{ *Provider }

func (v sessionEnderView) EndSession(id string) { v.endSession(id) }

type fullView struct{ *Provider }

func (v fullView) SetInvalidate(f func()) { v.setInvalidate(f) }
func (v fullView) EndSession(id string)   { v.endSession(id) }

var (
	_ skills.Invalidator  = invalidatorView{}
	_ skills.SessionEnder = sessionEnderView{}
	_ skills.Invalidator  = fullView{}
	_ skills.SessionEnder = fullView{}
)

func (p *Provider) setInvalidate(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.invalidate = f
	p.setCalls++
}

// endSession forgets the session, as a provider releasing per-session state
// would, and records the call.
func (p *Provider) endSession(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.sessions, id)
	p.ended = append(p.ended, id)
}

// Invalidate calls the invalidate function a view received, if any.
func (p *Provider) Invalidate() {
	p.mu.Lock()
	f := p.invalidate
	p.mu.Unlock()
	if f != nil {
		f()
	}
}

// change applies f to p's state under the lock, then invalidates.
func (p *Provider) change(f func()) {
	p.mu.Lock()
	f()
	p.mu.Unlock()
	p.Invalidate()
}

// SetSkills replaces every skill; List offers them in this order.
func (p *Provider) SetSkills(s ...Skill) {
	s = slices.Clone(s)
	p.change(func() { p.skills = s })
}

// Put replaces the first skill named s.Name, or appends s.
func (p *Provider) Put(s Skill) {
	p.change(func() {
		if i := p.indexLocked(s.Name); i >= 0 {
			p.skills[i] = s
		} else {
			p.skills = append(p.skills, s)
		}
	})
}

// Remove removes the first skill named name and reports whether there was
// one. Nothing is invalidated when there was none.
func (p *Provider) Remove(name string) bool {
	p.mu.Lock()
	i := p.indexLocked(name)
	if i >= 0 {
		p.skills = slices.Delete(p.skills, i, i+1)
	}
	p.mu.Unlock()
	if i >= 0 {
		p.Invalidate()
	}
	return i >= 0
}

func (p *Provider) indexLocked(name string) int {
	return slices.IndexFunc(p.skills, func(s Skill) bool { return s.Name == name })
}

// Skills returns the fake's skills.
func (p *Provider) Skills() []Skill {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.skills)
}

// SetComplete sets whether List reports a complete observation.
func (p *Provider) SetComplete(complete bool) {
	p.change(func() { p.incomplete = !complete })
}

// SetListError makes List fail with err; nil makes it answer again.
func (p *Provider) SetListError(err error) {
	p.change(func() { p.listErr = err })
}

// SetHang makes calls of op block until their context ends and then return
// its error, or stops that for calls that begin afterwards. Hanging calls
// are reported on the Started and Cancelled channels.
func (p *Provider) SetHang(op Op, hang bool) {
	p.change(func() { p.hang[op] = hang })
}

// OnCall sets a function that every List and Load runs first, before
// looking at the fake's state (nil removes it). It runs without the fake's
// lock held, so it may call back into the fake or its caller.
func (p *Provider) OnCall(f func(Call)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onCall = f
}

// Started receives a Call each time a hanging call begins.
func (p *Provider) Started() <-chan Call { return p.started }

// Cancelled receives a Call, with the context's error, each time a hanging
// call observes its context ending.
func (p *Provider) Cancelled() <-chan Call { return p.cancelled }

// Lists returns how many times List was called.
func (p *Provider) Lists() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lists
}

// Loads returns the names Load was asked for, in call order.
func (p *Provider) Loads() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.loads)
}

// SetInvalidateCalls returns how many times a view's SetInvalidate was
// called.
func (p *Provider) SetInvalidateCalls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.setCalls
}

// Ended returns the session ids a view's EndSession was called with, in
// call order.
func (p *Provider) Ended() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.ended)
}

// HasSession reports whether the fake holds state for a session: it was
// named by a call since the fake was made or since its last EndSession.
func (p *Provider) HasSession(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sessions[id]
}

// begin records a call and runs the OnCall function. It reports whether the
// call hangs.
func (p *Provider) begin(c Call) bool {
	p.mu.Lock()
	switch c.Op {
	case OpList:
		p.lists++
	case OpLoad:
		p.loads = append(p.loads, c.Name)
	}
	p.sessions[c.SessionID] = true
	f := p.onCall
	p.mu.Unlock()
	if f != nil {
		f(c)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hang[c.Op]
}

// hangUntilDone blocks until ctx ends, reporting the call on the event
// channels, and returns ctx's error.
func (p *Provider) hangUntilDone(ctx context.Context, c Call) error {
	send(p.started, c)
	<-ctx.Done()
	c.Err = ctx.Err()
	send(p.cancelled, c)
	return c.Err
}

// send delivers c unless ch is full: a test that stops reading must not
// make the fake's callers hang.
func send(ch chan Call, c Call) {
	select {
	case ch <- c:
	default:
	}
}

// List implements skills.Provider.
func (p *Provider) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	c := Call{Op: OpList, SessionID: req.SessionID, Cwd: req.Cwd}
	hang := p.begin(c)
	if err := ctx.Err(); err != nil {
		return skills.Observation{}, err
	}
	if hang {
		return skills.Observation{}, p.hangUntilDone(ctx, c)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.listErr != nil {
		return skills.Observation{}, p.listErr
	}
	obs := skills.Observation{Skills: make([]skill.Summary, 0, len(p.skills)), Complete: !p.incomplete}
	for _, s := range p.skills {
		if s.offeredTo(req.Cwd) {
			obs.Skills = append(obs.Skills, p.summary(s))
		}
	}
	return obs, nil
}

// Load implements skills.Provider.
func (p *Provider) Load(ctx context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	c := Call{Op: OpLoad, SessionID: req.SessionID, Cwd: req.Cwd, Name: req.Name}
	hang := p.begin(c)
	if err := ctx.Err(); err != nil {
		return skill.Definition{}, false, err
	}
	if hang {
		return skill.Definition{}, false, p.hangUntilDone(ctx, c)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// A remote skill is loaded by its name or, when the registry listed it
	// so after a collision, by its qualified name.
	i := slices.IndexFunc(p.skills, func(s Skill) bool {
		return (s.Name == req.Name || (s.QualifiedName != "" && s.QualifiedName == req.Name)) && s.offeredTo(req.Cwd)
	})
	if i < 0 {
		return skill.Definition{}, false, nil
	}
	s := p.skills[i]
	switch {
	case s.LoadErr != nil:
		return skill.Definition{}, false, s.LoadErr
	case s.Vanished:
		return skill.Definition{}, false, nil
	case s.Loaded != nil:
		return s.Loaded.Clone(), true, nil
	}
	return skill.Definition{
		Summary:      p.summary(s),
		ResourceBase: s.ResourceBase.Clone(),
		Content:      s.Content,
	}, true, nil
}

func (s Skill) offeredTo(cwd string) bool { return s.Cwd == "" || s.Cwd == cwd }

func (p *Provider) summary(s Skill) skill.Summary {
	sum := s.Summary
	if sum.Provider == "" {
		sum.Provider = p.label
	}
	return sum
}
