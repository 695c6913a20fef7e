package conformance

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	"github.com/skillcatalog/skillcatalog/skill"
)

// scriptedProvider is a skills.Provider whose listing and loading a
// scenario scripts: it can be complete, incomplete, failing or hang until
// cancelled, and it records its List calls, the names it was asked to Load
// and every cancellation it observed.
type scriptedProvider struct {
	id, label string

	mu         sync.Mutex
	state      string
	errText    string
	skills     []SkillSpec // sorted by name
	loads      []string
	lists      int
	invalidate func()

	// started receives the provider's id each time a hanging List begins
	// (the channel is shared by a scenario's providers); cancelled receives
	// a value each time a hanging List observes its context ending.
	started   chan<- string
	cancelled chan struct{}
}

func newScriptedProvider(spec ProviderSpec, started chan<- string) *scriptedProvider {
	p := &scriptedProvider{
		id:        spec.ID,
		label:     spec.Label,
		state:     spec.State,
		errText:   spec.Error,
		skills:    slices.Clone(spec.Skills),
		started:   started,
		cancelled: make(chan struct{}, 16),
	}
	p.sortLocked()
	return p
}

func (p *scriptedProvider) sortLocked() {
	slices.SortStableFunc(p.skills, func(a, b SkillSpec) int { return strings.Compare(a.Name, b.Name) })
}

// SetInvalidate makes the registry cache the provider's complete listings;
// every scripted change calls it, as a real provider that watches its
// source would.
func (p *scriptedProvider) SetInvalidate(f func()) {
	p.mu.Lock()
	p.invalidate = f
	p.mu.Unlock()
}

func (p *scriptedProvider) changed() {
	p.mu.Lock()
	f := p.invalidate
	p.mu.Unlock()
	if f != nil {
		f()
	}
}

func (p *scriptedProvider) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	p.mu.Lock()
	p.lists++
	state, errText := p.state, p.errText
	var out []skill.Summary
	for _, sk := range p.skills {
		if sk.Cwd == "" || sk.Cwd == req.Cwd {
			out = append(out, skill.Summary{Name: sk.Name, Description: sk.Description, Invocation: policy(sk), Provider: p.label})
		}
	}
	p.mu.Unlock()

	switch state {
	case StateFailing:
		if errText == "" {
			errText = "provider " + p.id + " failed"
		}
		return skills.Observation{}, errors.New(errText)
	case StateHang:
		select {
		case p.started <- p.id:
		default:
		}
		<-ctx.Done()
		select {
		case p.cancelled <- struct{}{}:
		default:
		}
		return skills.Observation{}, ctx.Err()
	case StateIncomplete:
		return skills.Observation{Skills: out, Complete: false}, nil
	}
	return skills.Observation{Skills: out, Complete: true}, nil
}

func (p *scriptedProvider) Load(_ context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.loads = append(p.loads, req.Name)
	for _, sk := range p.skills {
		if sk.Name != req.Name || (sk.Cwd != "" && sk.Cwd != req.Cwd) {
			continue
		}
		switch {
		case sk.LoadError != "":
			return skill.Definition{}, false, errors.New(sk.LoadError)
		case sk.Vanished:
			return skill.Definition{}, false, nil
		}
		def := skill.Definition{
			Summary: skill.Summary{Name: sk.Name, Description: sk.Description, Invocation: policy(sk), Provider: p.label},
			Content: sk.Body,
		}
		if lp := sk.LoadPolicy; lp != nil {
			def.Invocation = skill.InvocationPolicy{ModelInvocable: lp.ModelInvocable, UserInvocable: lp.UserInvocable}
		}
		if rb := sk.ResourceBase; rb != nil {
			def.ResourceBase = &skill.ResourceBase{Kind: skill.ResourceKind(rb.Kind), Path: rb.Path, URL: rb.URL, Description: rb.Description}
		}
		return def, true, nil
	}
	return skill.Definition{}, false, nil
}

// indexLocked returns the position of the named skill, or -1.
func (p *scriptedProvider) indexLocked(name string) int {
	for i, sk := range p.skills {
		if sk.Name == name {
			return i
		}
	}
	return -1
}

func (p *scriptedProvider) add(sk SkillSpec) {
	p.mu.Lock()
	if i := p.indexLocked(sk.Name); i >= 0 {
		p.skills[i] = sk
	} else {
		p.skills = append(p.skills, sk)
		p.sortLocked()
	}
	p.mu.Unlock()
	p.changed()
}

func (p *scriptedProvider) remove(name string) bool {
	p.mu.Lock()
	i := p.indexLocked(name)
	if i >= 0 {
		p.skills = slices.Delete(p.skills, i, i+1)
	}
	p.mu.Unlock()
	if i >= 0 {
		p.changed()
	}
	return i >= 0
}

func (p *scriptedProvider) change(ch *SkillChange) bool {
	p.mu.Lock()
	i := p.indexLocked(ch.Name)
	if i >= 0 {
		applyChange(&p.skills[i], ch)
	}
	p.mu.Unlock()
	if i >= 0 {
		p.changed()
	}
	return i >= 0
}

func (p *scriptedProvider) setState(ch *ProviderChange) {
	p.mu.Lock()
	if ch.State != "" {
		p.state = ch.State
	}
	if ch.Error != nil {
		p.errText = *ch.Error
	}
	p.mu.Unlock()
	p.changed()
}

func (p *scriptedProvider) counters() (loads []string, lists int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.loads), p.lists
}

// drain forgets stale cancellation signals before a cancelled pre-step.
func (p *scriptedProvider) drain() {
	for {
		select {
		case <-p.cancelled:
		default:
			return
		}
	}
}

// policy is a skill's listed invocation policy; both halves default to true.
func policy(sk SkillSpec) skill.InvocationPolicy {
	pol := skill.DefaultPolicy()
	if sk.ModelInvocable != nil {
		pol.ModelInvocable = *sk.ModelInvocable
	}
	if sk.UserInvocable != nil {
		pol.UserInvocable = *sk.UserInvocable
	}
	return pol
}

func applyChange(sk *SkillSpec, ch *SkillChange) {
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
