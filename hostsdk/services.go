package hostsdk

import (
	"context"
	"errors"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	skillcatalogv1 "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

// maxProviderErrorBytes bounds provider error text that reaches the model.
const maxProviderErrorBytes = 1024

// maxEventsPage bounds one ReadEvents page whatever the plugin asks for.
const maxEventsPage = 4096

// hostServices serves the plugin's callbacks from the Host's registry, scope
// tree and session store. The request context is the plugin's call context,
// so cancelling a pre-step cancels provider work.
type hostServices struct {
	skillcatalogv1.UnimplementedHostServiceServer
	host *Host
}

func (s *hostServices) query(session, cwd, scope string) (skills.Query, error) {
	chain, err := s.host.cfg.Tools.Chain(scope)
	if err != nil {
		return skills.Query{}, status.Error(codes.InvalidArgument, err.Error())
	}
	return skills.Query{SessionID: session, Cwd: cwd, Chain: chain}, nil
}

func (s *hostServices) Snapshot(ctx context.Context, req *skillcatalogv1.SnapshotRequest) (*skillcatalogv1.SnapshotResponse, error) {
	q, err := s.query(req.GetSessionId(), req.GetCwd(), req.GetAgentScope())
	if err != nil {
		return nil, err
	}
	snap, err := s.host.cfg.Skills.Snapshot(ctx, q)
	if err != nil {
		return nil, status.FromContextError(err).Err()
	}
	if snap.Complete && snap.Token != "" && snap.Token == req.GetIfNoneMatch() {
		return &skillcatalogv1.SnapshotResponse{NotModified: true, Token: snap.Token, Complete: true}, nil
	}
	resp := &skillcatalogv1.SnapshotResponse{Token: snap.Token, Complete: snap.Complete, Skills: make([]*skillcatalogv1.SkillSummary, len(snap.Skills))}
	for i, sk := range snap.Skills {
		resp.Skills[i] = toSummary(sk)
	}
	return resp, nil
}

func (s *hostServices) GetSkill(ctx context.Context, req *skillcatalogv1.GetSkillRequest) (*skillcatalogv1.GetSkillResponse, error) {
	q, err := s.query(req.GetSessionId(), req.GetCwd(), req.GetAgentScope())
	if err != nil {
		return nil, err
	}
	def, found, err := s.host.cfg.Skills.Get(ctx, q, req.GetName())
	if err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		// The model sees the provider's own text, not the registry's wrapping.
		msg := err.Error()
		var le *skills.LoadError
		if errors.As(err, &le) && le.Err != nil {
			msg = le.Err.Error()
		}
		return &skillcatalogv1.GetSkillResponse{Error: boundText(msg, maxProviderErrorBytes)}, nil
	}
	if !found {
		return &skillcatalogv1.GetSkillResponse{}, nil
	}
	out := &skillcatalogv1.SkillDefinition{
		Name:        def.Name,
		Description: def.Description,
		Invocation:  &skillcatalogv1.InvocationPolicy{ModelInvocable: def.Invocation.ModelInvocable, UserInvocable: def.Invocation.UserInvocable},
		Provider:    def.Provider,
	}
	// A body the model may not load never leaves the host.
	if def.Invocation.ModelInvocable {
		out.Content = def.Content
		if rb := def.ResourceBase; rb != nil {
			out.ResourceBase = &skillcatalogv1.ResourceBase{Kind: string(rb.Kind), Path: rb.Path, Url: rb.URL, Description: rb.Description}
		}
	}
	return &skillcatalogv1.GetSkillResponse{Found: true, Skill: out}, nil
}

func (s *hostServices) ReadEvents(ctx context.Context, req *skillcatalogv1.ReadEventsRequest) (*skillcatalogv1.ReadEventsResponse, error) {
	log, err := s.host.sessionLog(ctx, req.GetSessionId())
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "open session log: %v", err)
	}
	max := int(req.GetMaxEvents())
	if max <= 0 || max > maxEventsPage {
		max = maxEventsPage
	}
	page, err := log.ReadBackward(ctx, req.GetBeforeSeq(), req.GetAfterSeq(), max)
	if err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, status.Errorf(codes.Unavailable, "read session log: %v", err)
	}
	resp := &skillcatalogv1.ReadEventsResponse{
		Head:   &skillcatalogv1.SessionHead{HeadSeq: page.Head.Seq, SurfaceRevision: page.Head.SurfaceRevision},
		More:   page.More,
		Events: make([]*skillcatalogv1.SessionEvent, len(page.Events)),
	}
	for i, ev := range page.Events {
		resp.Events[i] = &skillcatalogv1.SessionEvent{Seq: ev.Seq, Type: ev.Type, SourceJson: ev.Source, Visible: ev.Visible}
	}
	return resp, nil
}

func toSummary(s skill.Summary) *skillcatalogv1.SkillSummary {
	return &skillcatalogv1.SkillSummary{
		Name:        s.Name,
		Description: s.Description,
		Invocation:  &skillcatalogv1.InvocationPolicy{ModelInvocable: s.Invocation.ModelInvocable, UserInvocable: s.Invocation.UserInvocable},
		Provider:    s.Provider,
	}
}

// boundText cuts s to at most max bytes on a character boundary.
func boundText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len("...")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
