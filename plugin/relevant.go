package plugin

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/search"
	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
	"github.com/skillcatalog/skillcatalog/render"
)

// The relevant-skills message's bounds: at most maxRelevant skills, each
// matching the request with a search.Hit.Relevance of at least
// minRelevance. The threshold was measured on 1,675 real skills and
// requests written for them: at it, the message holds the requested skill
// for about four in five requests, while a request no skill is for ("help
// me write a poem", "how do I bake a cake?") gets none; at 0.15 or 0.2 the
// share falls by some 3 and 6 points, and what unrelated requests get
// barely changes.
const (
	maxRelevant  = 3
	minRelevance = 0.12
	// relevantCandidates is how many of the best hits are considered, so
	// that skills already described still leave room for others.
	relevantCandidates = 32
)

// relevantOn reports whether a step of a mount configured with cfg, whose
// current view is v, may add the relevant-skills message.
func relevantOn(cfg contract.MountOptions, v *view.View) bool {
	switch cfg.RelevantSkills {
	case contract.RelevantOn:
		return true
	case contract.RelevantOff:
		return false
	}
	return v.Lossy()
}

// userTurn returns the step's newest message when it is the user's own
// text (contract.Message.UserInput, role user), passing over the plugin's
// own messages a downstream decision may propose; false when the newest is
// anything else: a tool result, the model's reply, injected context.
func userTurn(msgs []contract.Message) (contract.Message, bool) {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if isPluginMessage(m.Source) {
			continue
		}
		return m, m.UserInput && m.Role == contract.RoleUser
	}
	return contract.Message{}, false
}

// isPluginMessage reports whether a source is one the plugin writes.
func isPluginMessage(source []byte) bool {
	return len(source) > 0 && (events.IsCatalogKind(source) || events.IsInvocationKind(source) || events.IsRelevantKind(source) || events.IsAttachKind(source))
}

// userText is the text of a message's text blocks, for a query.
func userText(m contract.Message) string {
	var b strings.Builder
	for _, c := range m.Content {
		if c.Type == "text" && b.Len() < search.MaxQueryBytes {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// withRelevant adds to a step whose newest message is the user's own the
// relevant-skills message: the skills of v that best match the request,
// with their full descriptions, leaving out those the catalog already
// describes in full, those an earlier relevant-skills message since the
// newest catalog described (base.Shown), and those the step's user
// invocations name. Nothing is added when no skill matches well enough, or
// when the request was answered before (base.Answered: another replica, a
// retried step). The message is appended after the step's other messages,
// so no earlier byte of the request changes.
func (e *engine) withRelevant(ctx context.Context, host contract.Host, m mount, req contract.StepRequest, v *view.View, base events.Baseline, head contract.SessionHead, resp contract.StepResponse) contract.StepResponse {
	if !relevantOn(m.cfg, v) {
		return resp
	}
	user, ok := userTurn(req.Downstream.Messages)
	if !ok || (user.ID != "" && slices.Contains(base.Answered, user.ID)) {
		return resp
	}
	text := userText(user)
	q := search.ParseQuery(text)
	if q.IsEmpty() {
		return resp
	}
	skip := make(map[string]bool, len(base.Shown))
	for _, n := range base.Shown {
		skip[n] = true
	}
	// A skill scoped by `paths` is not offered before the session's
	// touched files activate it; one activated at this very step enters
	// the catalog instead.
	for _, g := range v.Unfitted().Gated() {
		skip[g.Name] = true
	}
	for _, n := range base.Activated {
		delete(skip, n)
	}
	for _, n := range base.Shown {
		skip[n] = true
	}
	if m.cfg.UserInvocation {
		for _, mention := range invokedMentions(req.Downstream.Messages, v, invocationPrefixes(m.cfg.InvocationForm)) {
			skip[mention.Name] = true
		}
	}
	var entries []digest.Entry
	var names []string
	for _, h := range e.rank(ctx, host, m, v, q, text, relevantCandidates) {
		if h.Relevance < minRelevance || len(entries) == maxRelevant {
			break
		}
		if shown, ok := v.CatalogDescription(h.Name); skip[h.Name] || (ok && shown == h.Description) {
			continue
		}
		entries = append(entries, digest.Entry{Name: h.Name, Description: h.Description, Origin: h.Origin, OriginKind: digestKind(h.OriginKind)})
		names = append(names, h.Name)
	}
	if len(entries) == 0 {
		return resp
	}
	source := events.EncodeRelevant(events.Relevant{Names: names, For: user.ID})
	e.rememberRelevant(source, names, user.ID)
	resp.Edits = append(resp.Edits, contract.Edit{Op: contract.EditAppend, Message: contract.Message{
		ID:      relevantMessageID(req.SessionID, head.Seq),
		Role:    contract.RoleUser,
		Content: []contract.ContentBlock{{Type: "text", Text: render.RelevantSkills(entries)}},
		Source:  source,
	}})
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	resp.Reasons = append(resp.Reasons, contract.Reason{Code: contract.ReasonRelevant,
		Detail: "added the descriptions of the skills that best match the user's request: " + strings.Join(quoted, ", ")})
	return resp
}

// relevantMessageID names a relevant-skills message after the session and
// the log position it follows: a step adds one at most, and every step
// that adds messages moves the log on.
func relevantMessageID(session string, seq uint64) string {
	return "skill-relevant-" + session + "-" + strconv.FormatUint(seq, 10)
}
