package plugin

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// maxInvocationsPerStep bounds the skills one step loads because the user
// invoked them: each costs the host a skill load. Further `/name` tokens
// of the step stay ordinary text.
const maxInvocationsPerStep = 16

// invocationError is a pre-step that failed because a skill the user
// invoked could not be loaded: the host's provider reported an error, or
// answered with a definition that cannot be rendered (with the user's
// arguments substituted, too large: render.ArgumentsTooLargeError). The step adds
// nothing; the failure is the host's side, not the plugin's.
type invocationError struct {
	// Name is the invoked skill.
	Name string
	// Message is the provider's error text.
	Message string
}

func (e *invocationError) Error() string {
	return fmt.Sprintf("load skill %q invoked by the user: %s", e.Name, e.Message)
}

// Is makes the error match contract.ErrHostFailed: the provider is the
// host's.
func (e *invocationError) Is(target error) bool { return target == contract.ErrHostFailed }

// invocationPrefixes are the prefix bytes of the tokens that invoke a
// skill under a mount's InvocationForm.
func invocationPrefixes(form string) string {
	switch form {
	case contract.InvocationDollar:
		return string(skill.MentionPrefix)
	case contract.InvocationBoth:
		return string(skill.InvocationPrefix) + string(skill.MentionPrefix)
	}
	return string(skill.InvocationPrefix)
}

// invokedMentions returns the skills that the step's direct user messages
// invoke with tokens of one of prefixes, in order of first appearance,
// each once, with the arguments of its first token. A name that listed (a
// complete snapshot, when the step has one) does not list is skipped: a
// complete snapshot proves the skill absent. At most maxInvocationsPerStep
// are returned.
func invokedMentions(msgs []contract.Message, listed *view.View, prefixes string) []skill.Mention {
	var found []skill.Mention
	for _, m := range msgs {
		if !m.UserInput || m.Role != contract.RoleUser {
			continue
		}
		for _, c := range m.Content {
			if c.Type != "text" {
				continue
			}
			for mention := range skill.Mentions(c.Text, prefixes) {
				if listed != nil {
					if _, ok := listed.Lookup(mention.Name); !ok {
						continue
					}
				}
				if !slices.ContainsFunc(found, func(f skill.Mention) bool { return f.Name == mention.Name }) {
					found = append(found, mention)
					if len(found) == maxInvocationsPerStep {
						return found
					}
				}
			}
		}
	}
	return found
}

// invocations loads every skill the step's user messages invoke and
// returns the appends that add each user-invocable one, after every other
// message of the step, with a reason and an Invocation for each (its
// directives, and the notice of those the host does not act on at the end
// of its message). Whether a skill is user-invocable is decided on its
// loaded definition. seq is the log position the step follows, for the
// messages' ids.
func (e *engine) invocations(ctx context.Context, host contract.Host, m mount, req contract.StepRequest, listed *view.View, seq uint64) (contract.StepResponse, error) {
	mentions := invokedMentions(req.Downstream.Messages, listed, invocationPrefixes(m.cfg.InvocationForm))
	var out contract.StepResponse
	for _, mention := range mentions {
		name := mention.Name
		got, err := host.GetSkill(ctx, contract.SkillRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope, Name: name, UserInvocation: true})
		if err != nil {
			return contract.StepResponse{}, hostFailed("load skill %q invoked by the user: %w", name, err)
		}
		if got.Error != "" {
			return contract.StepResponse{}, &invocationError{Name: name, Message: got.Error}
		}
		if !got.Found || !got.Skill.Invocation.UserInvocable {
			continue // ordinary text
		}
		value := got.Skill.ToolValue()
		value.Name = name
		if value.Origin == "" && listed != nil {
			value.Origin, value.OriginKind = listed.Origin(name) // a remote skill is shown as one
		}
		directives := directivesOf(got.Skill, value.Origin)
		// The digest is of the instructions as the provider gave them, the
		// user's arguments not substituted: what attaching the skill again
		// after a compaction compares with the skill as it is then.
		source := events.EncodeInvocationVersion(name, events.ContentDigest(got.Skill.Content), got.Skill.ContentDigest)
		if m.cfg.InvocationArguments {
			content, err := render.SubstituteNamedArguments(value.Content, mention.Args, got.Skill.ArgumentNames)
			if err != nil {
				return contract.StepResponse{}, &invocationError{Name: name, Message: err.Error()}
			}
			value.Content = content
		}
		// The same block the `skill` tool answers with, a remote skill's
		// instructions (the user's arguments in them included) escaped
		// inside the block that names its source. The resource-read tool
		// reads only for skills the model may invoke, so only their
		// guidance names it.
		text, err := render.SkillContent(value, m.cfg.ResourceTool && got.Skill.Invocation.ModelInvocable)
		if err != nil {
			return contract.StepResponse{}, &invocationError{Name: name, Message: err.Error()}
		}
		id := invocationMessageID(req.SessionID, seq, name)
		out.Edits = append(out.Edits, contract.Edit{Op: contract.EditAppend, Message: contract.Message{
			ID:      id,
			Role:    contract.RoleUser,
			Content: []contract.ContentBlock{{Type: "text", Text: render.WithDirectivesNotice(text, name, directives)}},
			Source:  source,
		}})
		out.Reasons = append(out.Reasons, contract.Reason{Code: contract.ReasonInvoked, Detail: "added the instructions of skill " + strconv.Quote(name) + ", which the user invoked by name"})
		out.Invocations = append(out.Invocations, contract.Invocation{Name: name, MessageID: id, Directives: directives})
	}
	return out, nil
}

// invocationMessageID names the message that carries an invoked skill after
// the session, the log position it follows and the skill: a step adds a
// skill once, and every step that adds messages moves the log on.
func invocationMessageID(session string, seq uint64, name string) string {
	return "skill-invocation-" + session + "-" + strconv.FormatUint(seq, 10) + "-" + name
}
