package conformance

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// scriptedProvider is a scenario's provider: the skilltest fake, scripted
// from the scenario's specs. It keeps the specs (so that changeSkill edits
// them as written) and hands the fake the skills and listing state they
// describe; the fake does the listing, loading, hanging and recording, and
// invalidates on every change, as a real provider that watches its source
// would.
type scriptedProvider struct {
	fake              *skilltest.Provider
	id, label, origin string

	// mu keeps the specs and their hand-over to the fake in step.
	mu      sync.Mutex
	state   string
	errText string
	skills  []skillSpec // sorted by name
	reads   []string    // "name/path" of every resource read, in order
}

// newScriptedProvider returns the provider of spec. Hanging Lists are
// announced on started, which a scenario's providers share.
func newScriptedProvider(spec providerSpec, started chan skilltest.Call) *scriptedProvider {
	p := &scriptedProvider{
		fake:    skilltest.New(&skilltest.Options{Label: spec.Label, Started: started}),
		id:      spec.ID,
		label:   spec.Label,
		origin:  spec.Origin,
		state:   spec.State,
		errText: spec.Error,
		skills:  slices.Clone(spec.Skills),
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sortLocked()
	p.publishLocked()
	p.applyStateLocked()
	return p
}

// attached is the provider as the registry sees it: an Invalidator, so
// that its complete listings are cached between scripted changes, and a
// ResourceReader serving its skills' resources.
func (p *scriptedProvider) attached() skills.Provider {
	inner := p.fake.As(skilltest.Invalidator)
	return readingProvider{Provider: inner, inv: inner.(skills.Invalidator), p: p}
}

// readingProvider adds the scripted provider's resource reader to the fake.
type readingProvider struct {
	skills.Provider
	inv skills.Invalidator
	p   *scriptedProvider
}

func (r readingProvider) SetInvalidate(f func()) { r.inv.SetInvalidate(f) }

// ReadSkillResource serves a resource of the provider's skills, recording
// the read.
func (r readingProvider) ReadSkillResource(_ context.Context, req skills.ResourceRequest) ([]byte, error) {
	p := r.p
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reads = append(p.reads, req.Name+"/"+req.Path)
	i := p.indexLocked(req.Name)
	if i < 0 {
		return nil, skills.ErrSkillNotFound
	}
	content, ok := p.skills[i].Resources[req.Path]
	if !ok {
		return nil, skills.ErrResourceNotFound
	}
	return []byte(content), nil
}

// resourceReads returns the resources read so far, in order.
func (p *scriptedProvider) resourceReads() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string{}, p.reads...)
}

func (p *scriptedProvider) sortLocked() {
	slices.SortStableFunc(p.skills, func(a, b skillSpec) int { return strings.Compare(a.Name, b.Name) })
}

// publishLocked hands the specs to the fake.
func (p *scriptedProvider) publishLocked() {
	out := make([]skilltest.Skill, len(p.skills))
	for i, sk := range p.skills {
		out[i] = p.fakeSkill(sk)
	}
	p.fake.SetSkills(out...)
}

func (p *scriptedProvider) fakeSkill(sk skillSpec) skilltest.Skill {
	fs := skilltest.Skill{
		Summary: skill.Summary{Name: sk.Name, Description: sk.Description, Invocation: policy(sk), Provider: p.label,
			Paths: scenarioPaths(sk.Paths), WhenToUse: sk.WhenToUse},
		Content:  sk.Body,
		Cwd:      sk.Cwd,
		Vanished: sk.Vanished,
	}
	if p.origin != "" {
		fs.Origin, fs.QualifiedName = p.origin, p.qualifiedName(sk)
	}
	if rb := sk.ResourceBase; rb != nil {
		fs.ResourceBase = &skill.ResourceBase{Kind: skill.ResourceKind(rb.Kind), Path: rb.Path, URL: rb.URL, Description: rb.Description}
	}
	if sk.LoadError != "" {
		fs.LoadErr = errors.New(sk.LoadError)
	}
	if lp := sk.LoadPolicy; lp != nil {
		def := skill.Definition{Summary: fs.Summary, ResourceBase: fs.ResourceBase.Clone(), Content: fs.Content}
		def.Invocation = skill.InvocationPolicy{ModelInvocable: lp.ModelInvocable, UserInvocable: lp.UserInvocable}
		fs.Loaded = &def
	}
	return fs
}

// applyStateLocked sets how the fake's List answers.
func (p *scriptedProvider) applyStateLocked() {
	p.fake.SetHang(skilltest.OpList, p.state == stateHang)
	p.fake.SetComplete(p.state != stateIncomplete)
	var err error
	if p.state == stateFailing {
		text := p.errText
		if text == "" {
			text = "provider " + p.id + " failed"
		}
		err = errors.New(text)
	}
	p.fake.SetListError(err)
}

// indexLocked returns the position of the named skill, or -1. A remote
// provider's skill is also named by its qualified name.
func (p *scriptedProvider) indexLocked(name string) int {
	return slices.IndexFunc(p.skills, func(sk skillSpec) bool {
		return sk.Name == name || (p.origin != "" && p.qualifiedName(sk) == name)
	})
}

// qualifiedName is a remote provider's skill's qualified name.
func (p *scriptedProvider) qualifiedName(sk skillSpec) string {
	path := sk.Path
	if path == "" {
		path = sk.Name
	}
	return skill.QualifiedName(p.origin, path)
}

func (p *scriptedProvider) add(sk skillSpec) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i := p.indexLocked(sk.Name); i >= 0 {
		p.skills[i] = sk
	} else {
		p.skills = append(p.skills, sk)
		p.sortLocked()
	}
	p.publishLocked()
}

func (p *scriptedProvider) remove(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := p.indexLocked(name)
	if i < 0 {
		return false
	}
	p.skills = slices.Delete(p.skills, i, i+1)
	p.publishLocked()
	return true
}

func (p *scriptedProvider) change(ch *skillChange) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := p.indexLocked(ch.Name)
	if i < 0 {
		return false
	}
	applyChange(&p.skills[i], ch)
	p.publishLocked()
	return true
}

func (p *scriptedProvider) setState(ch *providerChange) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ch.State != "" {
		p.state = ch.State
	}
	if ch.Error != nil {
		p.errText = *ch.Error
	}
	p.applyStateLocked()
}

// counters returns every name the provider was asked to Load, in order, and
// its number of List calls.
func (p *scriptedProvider) counters() (loads []string, lists int) {
	return p.fake.Loads(), p.fake.Lists()
}

// cancelled receives an event each time a hanging List observes its
// context ending.
func (p *scriptedProvider) cancelled() <-chan skilltest.Call { return p.fake.Cancelled() }

// drain forgets stale cancellation events before a cancelled pre-step.
func (p *scriptedProvider) drain() {
	for {
		select {
		case <-p.fake.Cancelled():
		default:
			return
		}
	}
}

// policy is a skill's listed invocation policy; both halves default to true.
func policy(sk skillSpec) skill.InvocationPolicy {
	pol := skill.DefaultPolicy()
	if sk.ModelInvocable != nil {
		pol.ModelInvocable = *sk.ModelInvocable
	}
	if sk.UserInvocable != nil {
		pol.UserInvocable = *sk.UserInvocable
	}
	return pol
}

func applyChange(sk *skillSpec, ch *skillChange) {
	if ch.Description != nil {
		sk.Description = *ch.Description
	}
	if ch.Body != nil {
		sk.Body = *ch.Body
	}
	if ch.ModelInvocable != nil {
		v := *ch.ModelInvocable
		sk.ModelInvocable = &v
	}
	if ch.UserInvocable != nil {
		v := *ch.UserInvocable
		sk.UserInvocable = &v
	}
	if ch.ResourceBase != nil {
		rb := *ch.ResourceBase
		sk.ResourceBase = &rb
	}
	if ch.LoadError != nil {
		sk.LoadError = *ch.LoadError
	}
	if ch.Vanished != nil {
		sk.Vanished = *ch.Vanished
	}
}

// scenarioPaths is the skill.Summary.Paths of a scenario skill's paths.
func scenarioPaths(values []string) string {
	patterns, _ := skill.ParsePaths(values)
	return skill.JoinPaths(patterns)
}
