package plugin

import (
	"context"
	"strconv"
	"strings"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
	"github.com/skillcatalog/skillcatalog/render"
)

// maxLoadScanEvents bounds the events a re-attachment scan reads, newest
// first: the skills loaded before them are not attached again. A session
// of that many events has been compacted many times over, and what it used
// long ago is the least likely to matter.
const maxLoadScanEvents = 1 << 16

// reattachBounds returns the bounds of re-attachment under cfg, each
// skill's and the total, in characters, and whether it is on.
func reattachBounds(cfg contract.MountOptions) (perSkill, total int, on bool) {
	perSkill, total = cfg.ReattachSkillMaxLength, cfg.ReattachBudget
	if perSkill <= 0 {
		perSkill = contract.DefaultReattachSkillMaxLength
	}
	switch {
	case total == contract.NoReattach:
		return 0, 0, false
	case total <= 0:
		total = contract.DefaultReattachBudget
	}
	return perSkill, total, true
}

// withAttached adds to a step the message that carries the skills a host
// preloads, at the session's first step, and the message that attaches
// again the skills whose instructions a compaction hid: appended after the
// step's catalog and relevant-skills messages, before the skills its user
// invokes. v is the agent's complete view.
func (e *engine) withAttached(ctx context.Context, host contract.Host, m mount, req contract.StepRequest, v *view.View, base events.Baseline, head contract.SessionHead, resp contract.StepResponse) (contract.StepResponse, error) {
	if len(req.PreloadSkills) > 0 && !base.EverPublished && !base.Preloaded {
		edit, attached, reason, err := e.preload(ctx, host, m, req, v, head)
		if err != nil {
			return contract.StepResponse{}, err
		}
		if edit != nil {
			resp.Edits = append(resp.Edits, *edit)
		}
		resp.Preloaded = attached
		resp.Reasons = append(resp.Reasons, reason)
		// The first step has nothing to attach again.
		return resp, nil
	}
	edit, attached, err := e.reattach(ctx, host, m, req, v, head)
	if err != nil || edit == nil {
		return resp, err
	}
	resp.Edits = append(resp.Edits, *edit)
	resp.Reattached = attached
	resp.Reasons = append(resp.Reasons, contract.Reason{Code: contract.ReasonReattached, Detail: "attached again the skills a compaction hid: " + describeAttached(attached)})
	return resp, nil
}

// reattach returns the message that attaches again the skills whose
// instructions a compaction hid, when a compaction has hidden some since
// the session's messages last carried them: nil when there are none. It
// reads the whole log (up to maxLoadScanEvents) only when the session's
// surface revision is one it has not found clean: a session never
// compacted, or whose skills were attached again, costs nothing more.
func (e *engine) reattach(ctx context.Context, host contract.Host, m mount, req contract.StepRequest, v *view.View, head contract.SessionHead) (*contract.Edit, []contract.AttachedSkill, error) {
	perSkill, budget, on := reattachBounds(m.cfg)
	if !on || head.SurfaceRevision == 0 {
		return nil, nil, nil
	}
	if rev, ok := e.reattachClean.Get(req.SessionID); ok && rev == head.SurfaceRevision {
		return nil, nil, nil
	}
	var sc events.LoadScanner
	for _, msg := range req.Downstream.Messages {
		sc.Feed(events.LogEvent{Source: msg.Source, Visible: true}) // what the step proposes, the model sees
	}
	if err := e.scanLoads(ctx, host, req.SessionID, &sc); err != nil {
		return nil, nil, err
	}
	pending := sc.Pending()
	if len(pending) == 0 {
		// Remembered only when nothing is pending: after attaching, the
		// next step reads the log once more and finds the message.
		e.reattachClean.Add(req.SessionID, head.SurfaceRevision, len(req.SessionID))
		return nil, nil, nil
	}
	id := "skill-reattach-" + req.SessionID + "-" + strconv.FormatUint(head.Seq, 10)
	items := make([]render.Reattached, 0, len(pending))
	records := make([]events.Loaded, 0, len(pending))
	attached := make([]contract.AttachedSkill, 0, len(pending))
	for _, p := range pending {
		it, rec, err := e.attachOne(ctx, host, m, req, v, p.Name, min(perSkill, budget))
		if err != nil {
			return nil, nil, err
		}
		if it.State == "" && p.Digest != "" && rec.Digest != p.Digest {
			it.State = events.StateChanged
		}
		budget -= it.Kept
		items = append(items, it)
		rec.Name, rec.State = p.Name, it.State
		records = append(records, rec)
		attached = append(attached, contract.AttachedSkill{Name: p.Name, State: it.State, MessageID: id, Kept: it.Kept, Total: it.Total})
	}
	return &contract.Edit{Op: contract.EditAppend, Message: contract.Message{
		ID:      id,
		Role:    contract.RoleUser,
		Content: []contract.ContentBlock{{Type: "text", Text: render.ReattachedSkills(items)}},
		Source:  events.EncodeSkills(events.ReattachKind, records),
	}}, attached, nil
}

// attachOne loads name as the agent has it now and renders its content as
// the `skill` tool does, its instructions cut to limit characters: a
// skill the agent no longer lists, or its provider no longer finds, is
// gone; one its provider fails to load, or that cannot be rendered, is
// unavailable; one for which less than contract.MinReattachLength
// characters are left, and that does not fit whole, is left out. It
// returns the item and its record: the ContentDigest of its instructions
// and the content digest of the version the host loaded (both "" when
// nothing is attached). Only a failure to reach the host is an error.
func (e *engine) attachOne(ctx context.Context, host contract.Host, m mount, req contract.StepRequest, v *view.View, name string, limit int) (render.Reattached, events.Loaded, error) {
	it := render.Reattached{Name: name, State: events.StateGone}
	if _, listed := v.Lookup(name); !listed {
		return it, events.Loaded{Name: name}, nil
	}
	got, err := host.GetSkill(ctx, contract.SkillRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope, Name: name, UserInvocation: true})
	switch {
	case err != nil:
		return render.Reattached{}, events.Loaded{}, hostFailed("load skill %q to attach it again: %w", name, err)
	case got.Error != "":
		it.State = events.StateUnavailable
		return it, events.Loaded{Name: name}, nil
	case !got.Found || (!got.Skill.Invocation.ModelInvocable && !got.Skill.Invocation.UserInvocable):
		return it, events.Loaded{Name: name}, nil
	}
	value := got.Skill.ToolValue()
	value.Name = name
	if value.Origin == "" {
		value.Origin, value.OriginKind = v.Origin(name)
	}
	d := events.ContentDigest(value.Content)
	cut, kept, total := render.CutInstructions(value.Content, max(limit, 0))
	if kept < total && kept < contract.MinReattachLength {
		it.State = events.StateLeftOut
		return it, events.Loaded{Name: name}, nil
	}
	value.Content = cut
	text, err := render.SkillContent(value, m.cfg.ResourceTool && got.Skill.Invocation.ModelInvocable)
	if err != nil {
		it.State = events.StateUnavailable
		return it, events.Loaded{Name: name}, nil
	}
	it.State, it.Kept, it.Total = "", kept, total
	it.Text = render.WithDirectivesNotice(text, name, directivesOf(got.Skill, value.Origin))
	return it, events.Loaded{Name: name, Digest: d, ContentDigest: got.Skill.ContentDigest}, nil
}

// scanLoads feeds sc the session's events, newest first, up to
// maxLoadScanEvents.
func (e *engine) scanLoads(ctx context.Context, host contract.Host, session string, sc *events.LoadScanner) error {
	var before uint64
	for read := 0; read < maxLoadScanEvents; {
		page, err := host.ReadEvents(ctx, contract.EventsRequest{SessionID: session, BeforeSeq: before, MaxEvents: maxEventsPage})
		if err != nil {
			return hostFailed("read session events: %w", err)
		}
		for _, ev := range page.Events {
			if before != 0 && ev.Seq >= before {
				return hostFailed("read session events: host returned seq %d, not before %d", ev.Seq, before)
			}
			before = ev.Seq
			sc.Feed(events.LogEvent{Seq: ev.Seq, Source: ev.Source, Visible: ev.Visible})
		}
		read += len(page.Events)
		if !page.More || len(page.Events) == 0 || before <= 1 {
			return nil
		}
	}
	return nil
}

// preload returns the message that carries the skills the host preloads,
// whole, in the order given (each once): nil when none can be attached.
// The reason names what was attached and what was not.
func (e *engine) preload(ctx context.Context, host contract.Host, m mount, req contract.StepRequest, v *view.View, head contract.SessionHead) (*contract.Edit, []contract.AttachedSkill, contract.Reason, error) {
	id := "skill-preload-" + req.SessionID + "-" + strconv.FormatUint(head.Seq, 10)
	var texts []string
	var records []events.Loaded
	var attached []contract.AttachedSkill
	seen := make(map[string]bool)
	for _, name := range req.PreloadSkills {
		if seen[name] || len(attached) == events.MaxLoadedPerRecord {
			continue
		}
		seen[name] = true
		it, rec, err := e.attachOne(ctx, host, m, req, v, name, maxInt)
		if err != nil {
			return nil, nil, contract.Reason{}, err
		}
		a := contract.AttachedSkill{Name: name, State: it.State, Kept: it.Kept, Total: it.Total}
		if it.State == "" {
			a.MessageID = id
			texts = append(texts, it.Text)
			records = append(records, rec)
		}
		attached = append(attached, a)
	}
	reason := contract.Reason{Code: contract.ReasonPreloaded, Detail: "the session's first step preloads the skills the host names: " + describeAttached(attached)}
	if len(texts) == 0 {
		return nil, attached, reason, nil
	}
	return &contract.Edit{Op: contract.EditAppend, Message: contract.Message{
		ID:      id,
		Role:    contract.RoleUser,
		Content: []contract.ContentBlock{{Type: "text", Text: render.PreloadedSkills(texts)}},
		Source:  events.EncodeSkills(events.PreloadKind, records),
	}}, attached, reason, nil
}

// maxInt leaves a preloaded skill's instructions whole.
const maxInt = int(^uint(0) >> 1)

// describeAttached names skills for a reason's detail, each with what
// became of it when it was not attached as loaded.
func describeAttached(attached []contract.AttachedSkill) string {
	parts := make([]string, len(attached))
	for i, a := range attached {
		parts[i] = strconv.Quote(a.Name)
		switch {
		case a.State != "":
			parts[i] += " (" + a.State + ")"
		case a.Kept < a.Total:
			parts[i] += " (cut to " + strconv.Itoa(a.Kept) + " of " + strconv.Itoa(a.Total) + " characters)"
		}
	}
	return strings.Join(parts, ", ")
}
