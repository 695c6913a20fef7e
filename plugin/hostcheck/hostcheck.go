// Package hostcheck checks a host's side of the plugin protocol: the
// callbacks (Snapshot, ReadEvents, GetSkill, ReadResource) and the hints a
// host sends with every step, against what proto/HOSTS.md says a host must
// honour. A host in any language is checked the same way: the checker
// (skillcatalog hostcheck) runs it with RelayEnv in its environment, the
// plugin binary the host starts hands its place to a plugin process the
// checker starts itself, and that process serves its engine wrapped by a
// Checker, which answers every call as the engine does and, at each step,
// asks the host again and compares. The report travels from that process
// to the checker over a socket only the two of them hold (ReportFDEnv), so
// the host under check can neither read nor forge it.
package hostcheck

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// RelayEnv names the environment variable in which the checker hands the
// host under check the path of its socket. A plugin binary started by a
// host through the handshake with this variable set does not serve: it
// asks the checker there to start the plugin in its place, on its standard
// input, output and error, and exits when that plugin does.
const RelayEnv = "SKILLCATALOG_HOSTCHECK"

// ReportFDEnv names the environment variable in which the checker tells the
// plugin process it started which inherited descriptor (3 or more) is its
// end of the socket the report travels on. The plugin then serves its
// engine wrapped by a Checker and writes its Report there, one JSON value
// per line, after every call that checked something. Only the checker sets
// it, in the environment of a process it starts itself; the host never
// holds that socket.
const ReportFDEnv = "SKILLCATALOG_HOSTCHECK_REPORT_FD"

// The checks, in the order a report lists them.
const (
	CheckSnapshotStable      = "snapshot-stable"
	CheckSnapshotSorted      = "snapshot-sorted"
	CheckSnapshotToken       = "snapshot-token"
	CheckSnapshotContent     = "snapshot-content-addressed"
	CheckSnapshotNotModified = "snapshot-not-modified"
	CheckSnapshotHint        = "snapshot-hint"
	CheckSnapshotDelta       = "snapshot-delta"
	CheckSnapshotAhead       = "snapshot-ahead"
	CheckEventsPages         = "events-pages"
	CheckEventsHead          = "events-head"
	CheckEventsRecent        = "events-recent"
	CheckEventsSources       = "events-sources"
	CheckToolIdentity        = "tool-identity"
	CheckToolIdentityStable  = "tool-identity-stable"
	CheckGetSkill            = "get-skill"
	CheckGetSkillUnknown     = "get-skill-unknown"
	CheckGetSkillWithheld    = "get-skill-withheld-body"
	CheckResourceRefusal     = "resource-refusal"
)

// descriptions say what each check holds the host to.
var descriptions = []struct{ name, text string }{
	{CheckSnapshotStable, "two Snapshot calls in a row answer the same skills under the same token"},
	{CheckSnapshotSorted, "Snapshot lists skills sorted by name in byte order, one per name"},
	{CheckSnapshotToken, "a complete snapshot has a token, an incomplete one none"},
	{CheckSnapshotContent, "one token names one content, and one content has one token"},
	{CheckSnapshotNotModified, "Snapshot with if_none_match set to the current token answers not_modified"},
	{CheckSnapshotHint, "a step's snapshot_token is the token Snapshot answers for its cwd and scope"},
	{CheckSnapshotDelta, "a delta applied to its base gives the complete snapshot under the delta's token"},
	{CheckSnapshotAhead, "a step's snapshot is a delta that leads to Snapshot's answer under the step's snapshot_token, or an empty incomplete one"},
	{CheckEventsPages, "ReadEvents pages are newest first, in range, consistent at any page size, `more` exact"},
	{CheckEventsHead, "a step's session_head is the head ReadEvents reports, and the head is the newest event"},
	{CheckEventsRecent, "a step's recent_events are exactly the events after after_seq, which is the previous step's head"},
	{CheckEventsSources, "the messages a step's answer adds come back from ReadEvents with their source_json, byte for byte"},
	{CheckToolIdentity, "tool identities are non-empty and one per registration"},
	{CheckToolIdentityStable, "the identity `skill` resolves to does not change between steps unless tools were bound again"},
	{CheckGetSkill, "GetSkill finds every listed model-invocable skill with the snapshot's summary and a body"},
	{CheckGetSkillUnknown, "GetSkill answers a name no snapshot lists as not found, not as an error"},
	{CheckGetSkillWithheld, "GetSkill withholds the body of a skill the model may not invoke"},
	{CheckResourceRefusal, "ReadResource refuses a path outside a skill and a file that does not exist"},
}

// Optional checks exercise promises a host may choose not to make (hints it
// does not send); a report does not count them as missing.
var optional = map[string]bool{CheckSnapshotHint: true, CheckSnapshotDelta: true, CheckSnapshotAhead: true, CheckEventsRecent: true, CheckEventsHead: true, CheckResourceRefusal: true, CheckGetSkillWithheld: true}

// Bounds of what one step's checks read, so a long session stays cheap.
const (
	maxCheckedEvents = 2048
	maxCheckedSkills = 4
	smallPage        = 3
	maxViolations    = 200
	maxTokens        = 1024
)

// Report is what a Checker found.
type Report struct {
	// Steps counts the steps the checker saw.
	Steps int `json:"steps"`
	// Checks has one entry per check, in a fixed order.
	Checks []CheckResult `json:"checks"`
	// Violations are the first violations found, each with its check.
	Violations []Violation `json:"violations"`
}

// CheckResult counts how often a check held and failed.
type CheckResult struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Passed      int    `json:"passed"`
	Failed      int    `json:"failed"`
	// Optional is true for a check of a promise a host may choose not to
	// make; one never exercised is not a shortcoming.
	Optional bool `json:"optional,omitempty"`
}

// Violation is one failed check.
type Violation struct {
	Check   string `json:"check"`
	Session string `json:"session,omitempty"`
	Detail  string `json:"detail"`
}

// Failed reports whether any check failed.
func (r Report) Failed() bool {
	for _, c := range r.Checks {
		if c.Failed > 0 {
			return true
		}
	}
	return false
}

// Checker wraps a contract.Service and checks, at every step, the host the
// step's mount was configured with. It is safe for concurrent use.
type Checker struct {
	mu       sync.Mutex
	counts   map[string]*CheckResult
	report   Report
	onChange func(Report)

	hosts       map[string]contract.Host // by mount id
	identities  map[string]string        // identity -> mount id and tool name
	binds       int                      // BindTools calls so far
	lastIdent   map[string]seenIdentity  // by agent scope
	lastHead    map[string]uint64        // by session: the head the previous step carried
	added       map[string]addedSources  // by session: the sources the previous step's answer added
	tokens      map[string]string        // token -> content digest
	digests     map[string]string        // content digest -> token
	tokenSkills map[string][]skill.Summary
}

type seenIdentity struct {
	identity string
	binds    int
}

// addedSources are the sources of the messages one step's answer added (by
// their digests), and the session's head when the plugin answered: the
// host appends after it. The step is known by its turn, step and proposed
// messages, so that the same step asked again is told from the next one.
type addedSources struct {
	turn, step uint32
	proposed   string
	afterSeq   uint64
	digests    [][]byte
}

// proposedDigest is the checker's own digest of a step's proposed messages.
func proposedDigest(msgs []contract.Message) string {
	h := xxh3.New128()
	var scratch [binary.MaxVarintLen64]byte
	write := func(s string) {
		_, _ = h.Write(binary.AppendUvarint(scratch[:0], uint64(len(s))))
		_, _ = h.WriteString(s)
	}
	for _, m := range msgs {
		write(m.ID)
		write(string(m.Role))
		write(m.Text())
		write(string(m.Source))
	}
	sum := h.Sum128().Bytes()
	return hex.EncodeToString(sum[:])
}

// New returns a Checker. onChange, if set, is called with the report after
// every call that checked something, under no lock of the checker's.
func New(onChange func(Report)) *Checker {
	c := &Checker{
		counts: map[string]*CheckResult{}, onChange: onChange,
		hosts: map[string]contract.Host{}, identities: map[string]string{}, lastIdent: map[string]seenIdentity{},
		lastHead: map[string]uint64{}, added: map[string]addedSources{}, tokens: map[string]string{}, digests: map[string]string{}, tokenSkills: map[string][]skill.Summary{},
	}
	for _, d := range descriptions {
		r := &CheckResult{Name: d.name, Description: d.text, Optional: optional[d.name]}
		c.counts[d.name] = r
	}
	return c
}

// Report returns what the checker found so far.
func (c *Checker) Report() Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reportLocked()
}

func (c *Checker) reportLocked() Report {
	r := Report{Steps: c.report.Steps, Violations: slices.Clone(c.report.Violations)}
	for _, d := range descriptions {
		r.Checks = append(r.Checks, *c.counts[d.name])
	}
	return r
}

func (c *Checker) changed() {
	if c.onChange != nil {
		c.onChange(c.Report())
	}
}

// record counts one run of check: held when detail is empty.
func (c *Checker) record(check, session, detail string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.counts[check]
	if detail == "" {
		r.Passed++
		return
	}
	r.Failed++
	if len(c.report.Violations) < maxViolations {
		c.report.Violations = append(c.report.Violations, Violation{Check: check, Session: session, Detail: detail})
	}
}

// Service returns inner with every call passed through the checker.
func (c *Checker) Service(inner contract.Service) contract.Service {
	return &service{inner: inner, c: c}
}

type service struct {
	inner contract.Service
	c     *Checker
}

func (s *service) Configure(ctx context.Context, host contract.Host, req contract.ConfigureRequest) (contract.ConfigureResponse, error) {
	resp, err := s.inner.Configure(ctx, host, req)
	if err == nil {
		s.c.mu.Lock()
		s.c.hosts[resp.MountID] = host
		s.c.mu.Unlock()
	}
	return resp, err
}

func (s *service) BindTools(ctx context.Context, mountID string, bindings []contract.ToolBinding) error {
	s.c.checkBindings(mountID, bindings)
	defer s.c.changed()
	return s.inner.BindTools(ctx, mountID, bindings)
}

func (s *service) Unmount(ctx context.Context, mountID string) error {
	s.c.mu.Lock()
	delete(s.c.hosts, mountID)
	s.c.mu.Unlock()
	return s.inner.Unmount(ctx, mountID)
}

func (s *service) PreStep(ctx context.Context, req contract.StepRequest) (contract.StepResponse, error) {
	s.c.mu.Lock()
	host := s.c.hosts[req.MountID]
	s.c.report.Steps++
	s.c.mu.Unlock()
	if host != nil {
		// The host waits for this step's answer, so its state holds still
		// while the checks read it (short of another step of the session
		// racing this one, which a host may allow).
		s.c.checkStep(ctx, host, req)
		s.c.changed()
	}
	resp, err := s.inner.PreStep(ctx, req)
	if host != nil && err == nil {
		s.c.noteAdded(ctx, host, req, resp)
	}
	return resp, err
}

func (s *service) ExecuteSkillTool(ctx context.Context, call contract.ToolCall) (contract.ToolResult, error) {
	return s.inner.ExecuteSkillTool(ctx, call)
}

func (s *service) EndSession(ctx context.Context, sessionID string) error {
	s.c.mu.Lock()
	delete(s.c.lastHead, sessionID)
	delete(s.c.added, sessionID)
	s.c.mu.Unlock()
	return s.inner.EndSession(ctx, sessionID)
}

func (s *service) Ping(ctx context.Context) error { return s.inner.Ping(ctx) }

func (c *Checker) checkBindings(mountID string, bindings []contract.ToolBinding) {
	c.mu.Lock()
	c.binds++
	var problems []string
	for _, b := range bindings {
		who := mountID + " " + b.ToolName
		switch prev, seen := c.identities[b.DefinitionIdentity]; {
		case b.DefinitionIdentity == "":
			problems = append(problems, fmt.Sprintf("mount %s: tool %q bound with an empty identity", mountID, b.ToolName))
		case seen && prev != who:
			problems = append(problems, fmt.Sprintf("identity %q names two registrations: %s and %s", b.DefinitionIdentity, prev, who))
		default:
			c.identities[b.DefinitionIdentity] = who
		}
	}
	c.mu.Unlock()
	if len(problems) == 0 {
		c.record(CheckToolIdentity, "", "")
	}
	for _, p := range problems {
		c.record(CheckToolIdentity, "", p)
	}
}

// checkStep runs every check a step allows against host.
func (c *Checker) checkStep(ctx context.Context, host contract.Host, req contract.StepRequest) {
	c.checkIdentity(req)
	snap, ok := c.checkSnapshot(ctx, host, req)
	if ok {
		c.checkSkills(ctx, host, req, snap)
	}
	c.checkEvents(ctx, host, req)
	c.checkSources(ctx, host, req)
}

func (c *Checker) checkIdentity(req contract.StepRequest) {
	if req.SkillToolIdentity == "" {
		return
	}
	c.mu.Lock()
	prev, seen := c.lastIdent[req.AgentScope]
	binds := c.binds
	c.lastIdent[req.AgentScope] = seenIdentity{identity: req.SkillToolIdentity, binds: binds}
	c.mu.Unlock()
	if !seen {
		return
	}
	detail := ""
	if prev.identity != req.SkillToolIdentity && prev.binds == binds {
		detail = fmt.Sprintf("agent scope %q: `skill` resolved to %q, then to %q, with no tools bound in between", req.AgentScope, prev.identity, req.SkillToolIdentity)
	}
	c.record(CheckToolIdentityStable, req.SessionID, detail)
}

// checkSnapshot checks the Snapshot callback for the step's place and
// returns the snapshot, ok false when the host could not answer.
func (c *Checker) checkSnapshot(ctx context.Context, host contract.Host, req contract.StepRequest) (contract.Snapshot, bool) {
	q := contract.SnapshotRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope}
	first, err := host.Snapshot(ctx, q)
	if err != nil {
		return contract.Snapshot{}, false
	}
	second, err := host.Snapshot(ctx, q)
	if err != nil {
		return contract.Snapshot{}, false
	}
	session := req.SessionID

	stable := ""
	if first.Complete && second.Complete && (first.Token != second.Token || !slices.Equal(first.Skills, second.Skills)) {
		stable = fmt.Sprintf("cwd %q scope %q: two Snapshot calls answered %d skills under %q and %d under %q", req.Cwd, req.AgentScope, len(first.Skills), first.Token, len(second.Skills), second.Token)
	}
	c.record(CheckSnapshotStable, session, stable)

	c.record(CheckSnapshotSorted, session, sortedProblem(first.Skills))

	token := ""
	switch {
	case first.Complete && first.Token == "":
		token = "a complete snapshot without a token"
	case !first.Complete && first.Token != "":
		token = fmt.Sprintf("an incomplete snapshot with token %q", first.Token)
	case first.NotModified || first.DeltaBase != "":
		token = "a plain Snapshot request answered with not_modified or a delta"
	}
	c.record(CheckSnapshotToken, session, token)
	c.checkAhead(req, first)
	if !first.Complete || first.Token == "" {
		return first, true
	}

	c.record(CheckSnapshotContent, session, c.contentProblem(first))

	nm, err := host.Snapshot(ctx, contract.SnapshotRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope, IfNoneMatch: first.Token})
	if err == nil {
		detail := ""
		if !nm.NotModified && nm.Token == first.Token {
			detail = fmt.Sprintf("if_none_match %q, the current token, answered with the whole snapshot", first.Token)
		}
		c.record(CheckSnapshotNotModified, session, detail)
	}

	if req.SnapshotToken != "" {
		detail := ""
		if req.SnapshotToken != first.Token {
			detail = fmt.Sprintf("the step carried snapshot_token %q, Snapshot answers %q", req.SnapshotToken, first.Token)
		}
		c.record(CheckSnapshotHint, session, detail)
	}
	c.checkDelta(ctx, host, req, first)
	return first, true
}

func sortedProblem(skills []skill.Summary) string {
	for i := 1; i < len(skills); i++ {
		if skills[i-1].Name >= skills[i].Name {
			return fmt.Sprintf("%q listed before %q", skills[i-1].Name, skills[i].Name)
		}
	}
	return ""
}

// contentProblem holds a complete snapshot's token to its content: the
// token was seen with other content, or the content under another token.
func (c *Checker) contentProblem(s contract.Snapshot) string {
	d := contentDigest(s.Skills)
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.tokens[s.Token]; ok && prev != d {
		return fmt.Sprintf("token %q named two different lists of skills", s.Token)
	}
	if prev, ok := c.digests[d]; ok && prev != s.Token {
		return fmt.Sprintf("the same %d skills came under two tokens, %q and %q", len(s.Skills), prev, s.Token)
	}
	if len(c.tokens) >= maxTokens {
		clear(c.tokens)
		clear(c.digests)
		clear(c.tokenSkills)
	}
	c.tokens[s.Token] = d
	c.digests[d] = s.Token
	c.tokenSkills[s.Token] = slices.Clone(s.Skills)
	return ""
}

// checkDelta asks for a delta against every other token seen for this
// place's content history it still holds, one per step, and applies it.
func (c *Checker) checkDelta(ctx context.Context, host contract.Host, req contract.StepRequest, cur contract.Snapshot) {
	c.mu.Lock()
	var base string
	var baseSkills []skill.Summary
	for tok, sk := range c.tokenSkills {
		if tok != cur.Token && (base == "" || tok < base) {
			base, baseSkills = tok, sk
		}
	}
	c.mu.Unlock()
	if base == "" {
		return
	}
	d, err := host.Snapshot(ctx, contract.SnapshotRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope, IfNoneMatch: base, AcceptDelta: true})
	if err != nil || d.DeltaBase == "" {
		return // a host may always answer in full
	}
	detail := ""
	switch {
	case d.DeltaBase != base:
		detail = fmt.Sprintf("asked for a delta against %q, got one against %q", base, d.DeltaBase)
	case d.Token != cur.Token:
		detail = fmt.Sprintf("a delta to token %q, while the complete snapshot's token is %q", d.Token, cur.Token)
	case !slices.Equal(applyDelta(baseSkills, d), cur.Skills):
		detail = fmt.Sprintf("the delta against %q does not lead to the complete snapshot %q", base, cur.Token)
	}
	c.record(CheckSnapshotDelta, req.SessionID, detail)
}

// checkAhead holds the snapshot a step carries (computed ahead of the
// Snapshot callback) to cur, what Snapshot answers now: an incomplete one
// is empty, a complete one is a delta under the step's snapshot_token that
// leads from its base, when the checker holds the base, to cur.
func (c *Checker) checkAhead(req contract.StepRequest, cur contract.Snapshot) {
	a := req.Snapshot
	if a == nil {
		return
	}
	c.mu.Lock()
	baseSkills, held := c.tokenSkills[a.DeltaBase]
	c.mu.Unlock()
	detail := ""
	switch {
	case !a.Complete:
		if len(a.Skills) > 0 || len(a.Removed) > 0 || a.Token != "" || a.DeltaBase != "" || a.NotModified {
			detail = "an incomplete snapshot ahead of the step carries skills, a token or a delta base"
		}
	case a.NotModified || a.DeltaBase == "":
		detail = "a complete snapshot ahead of the step is not a delta"
	case a.Token != req.SnapshotToken:
		detail = fmt.Sprintf("the step's snapshot has token %q, its snapshot_token is %q", a.Token, req.SnapshotToken)
	case cur.Complete && a.Token != cur.Token:
		detail = fmt.Sprintf("the step's snapshot has token %q, Snapshot answers %q", a.Token, cur.Token)
	case cur.Complete && held && !slices.Equal(applyDelta(baseSkills, *a), cur.Skills):
		detail = fmt.Sprintf("the step's delta against %q does not lead to the complete snapshot %q", a.DeltaBase, cur.Token)
	case cur.Complete && !held:
		return // the base is unknown here: nothing to hold the delta to
	}
	c.record(CheckSnapshotAhead, req.SessionID, detail)
}

func applyDelta(base []skill.Summary, d contract.Snapshot) []skill.Summary {
	byName := map[string]skill.Summary{}
	for _, s := range base {
		byName[s.Name] = s
	}
	for _, n := range d.Removed {
		delete(byName, n)
	}
	for _, s := range d.Skills {
		byName[s.Name] = s
	}
	out := make([]skill.Summary, 0, len(byName))
	for _, s := range byName {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// contentDigest is the checker's own digest of a list of summaries.
func contentDigest(skills []skill.Summary) string {
	h := xxh3.New128()
	var scratch [binary.MaxVarintLen64]byte
	write := func(s string) {
		_, _ = h.Write(binary.AppendUvarint(scratch[:0], uint64(len(s))))
		_, _ = h.WriteString(s)
	}
	for _, s := range skills {
		write(s.Name)
		write(s.Description)
		write(s.Provider)
		write(s.Origin)
		write(s.OriginKind.String())
		write(s.QualifiedName)
		write(s.ArgumentHint)
		write(s.WhenToUse)
		write(s.Keywords)
		write(s.SearchText)
		write(fmt.Sprint(s.Invocation.ModelInvocable, s.Invocation.UserInvocable))
	}
	sum := h.Sum128().Bytes()
	return hex.EncodeToString(sum[:])
}

// checkSkills loads a few listed skills and one unlisted name.
func (c *Checker) checkSkills(ctx context.Context, host contract.Host, req contract.StepRequest, snap contract.Snapshot) {
	loaded, withheld := 0, 0
	for _, s := range snap.Skills {
		if s.Invocation.ModelInvocable && loaded < maxCheckedSkills {
			loaded++
			c.record(CheckGetSkill, req.SessionID, c.getProblem(ctx, host, req, s))
		}
		if !s.Invocation.ModelInvocable && withheld < maxCheckedSkills {
			withheld++
			got, err := host.GetSkill(ctx, contract.SkillRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope, Name: s.Name})
			if err == nil && got.Found {
				detail := ""
				if got.Skill.Content != "" {
					detail = fmt.Sprintf("skill %q, which the model may not invoke, sent with its body to a model load", s.Name)
				}
				c.record(CheckGetSkillWithheld, req.SessionID, detail)
			}
		}
		if s.Invocation.ModelInvocable && loaded == 1 {
			c.checkResources(ctx, host, req, s.Name)
		}
	}
	unknown := "hostcheck-unlisted-" + contentDigest(snap.Skills)[:12]
	got, err := host.GetSkill(ctx, contract.SkillRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope, Name: unknown})
	detail := ""
	switch {
	case err != nil:
		detail = fmt.Sprintf("GetSkill of the unlisted name %q failed: %v", unknown, err)
	case got.Error != "":
		detail = fmt.Sprintf("GetSkill of the unlisted name %q answered the error %q instead of not found", unknown, got.Error)
	case got.Found:
		detail = fmt.Sprintf("GetSkill found %q, which no snapshot lists", unknown)
	}
	c.record(CheckGetSkillUnknown, req.SessionID, detail)
}

func (c *Checker) getProblem(ctx context.Context, host contract.Host, req contract.StepRequest, s skill.Summary) string {
	got, err := host.GetSkill(ctx, contract.SkillRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope, Name: s.Name})
	switch {
	case err != nil:
		return fmt.Sprintf("GetSkill %q: %v", s.Name, err)
	case got.Error != "":
		return "" // a provider may fail; that is reported to the model, not a contract breach
	case !got.Found:
		return fmt.Sprintf("GetSkill did not find %q, which the snapshot lists", s.Name)
	case got.Skill.Summary != s:
		return fmt.Sprintf("GetSkill %q answered a summary unlike the snapshot's: %+v, listed %+v", s.Name, got.Skill.Summary, s)
	case got.Skill.Content == "":
		return fmt.Sprintf("GetSkill %q, a model-invocable skill, sent no body", s.Name)
	}
	return ""
}

func (c *Checker) checkResources(ctx context.Context, host contract.Host, req contract.StepRequest, name string) {
	rr, ok := host.(contract.ResourceReader)
	if !ok {
		return
	}
	for _, path := range []string{"../hostcheck-outside", "hostcheck-no-such-file.md"} {
		got, err := rr.ReadResource(ctx, contract.ResourceRequest{SessionID: req.SessionID, Cwd: req.Cwd, AgentScope: req.AgentScope, Name: name, Path: path, MaxBytes: 64})
		if err != nil {
			return // no resource reads served, or a failure: nothing to hold
		}
		detail := ""
		if got.Status == contract.ResourceOK {
			detail = fmt.Sprintf("ReadResource %q of skill %q answered %d bytes", path, name, len(got.Data))
		}
		c.record(CheckResourceRefusal, req.SessionID, detail)
	}
}

// checkEvents reads the session's log twice, at two page sizes, and holds
// the pages and the step's hints to each other.
func (c *Checker) checkEvents(ctx context.Context, host contract.Host, req contract.StepRequest) {
	session := req.SessionID
	big, bigHead, problem, ok := readAll(ctx, host, session, 0, maxCheckedEvents)
	if !ok {
		return
	}
	if problem == "" {
		var small []contract.SessionEvent
		small, _, problem, ok = readAll(ctx, host, session, 0, smallPage)
		if !ok {
			return
		}
		if problem == "" && !sameEvents(big, small) {
			problem = fmt.Sprintf("reading by pages of %d gave %d events, by pages of %d gave %d, or different ones", maxCheckedEvents, len(big), smallPage, len(small))
		}
	}
	c.record(CheckEventsPages, session, problem)

	if req.Head != nil {
		detail := ""
		switch {
		case *req.Head != bigHead:
			detail = fmt.Sprintf("the step carried head %+v, ReadEvents reports %+v", *req.Head, bigHead)
		case len(big) > 0 && big[0].Seq != bigHead.Seq:
			detail = fmt.Sprintf("head seq %d, newest event %d", bigHead.Seq, big[0].Seq)
		}
		c.record(CheckEventsHead, session, detail)
	}

	c.mu.Lock()
	prevHead, hadPrev := c.lastHead[session]
	if req.Head != nil {
		c.lastHead[session] = req.Head.Seq
	}
	c.mu.Unlock()
	if req.Recent == nil {
		return
	}
	detail := ""
	if hadPrev && req.Recent.AfterSeq != prevHead {
		detail = fmt.Sprintf("recent_events after %d, while the previous step carried head %d", req.Recent.AfterSeq, prevHead)
	} else {
		want, _, problem, ok := readAll(ctx, host, session, req.Recent.AfterSeq, maxCheckedEvents)
		if !ok || problem != "" {
			return
		}
		if !sameRecent(want, req.Recent.Events) {
			detail = fmt.Sprintf("recent_events after %d held %d events, ReadEvents has %d after it, or different ones", req.Recent.AfterSeq, len(req.Recent.Events), len(want))
		}
	}
	c.record(CheckEventsRecent, session, detail)
}

// readAll reads the events after after, newest first, in pages of size, up
// to maxCheckedEvents. problem describes a breach of the paging rules; ok
// is false when the host failed or the log is longer than the bound.
func readAll(ctx context.Context, host contract.Host, session string, after uint64, size int) (evs []contract.SessionEvent, head contract.SessionHead, problem string, ok bool) {
	var before uint64
	for first := true; ; first = false {
		page, err := host.ReadEvents(ctx, contract.EventsRequest{SessionID: session, BeforeSeq: before, AfterSeq: after, MaxEvents: size})
		if err != nil {
			return nil, head, "", false
		}
		if first {
			head = page.Head
		} else if page.Head != head {
			return nil, head, "", false // the log moved between pages: nothing to hold
		}
		if len(page.Events) > size {
			return nil, head, fmt.Sprintf("a page of at most %d events held %d", size, len(page.Events)), true
		}
		for _, ev := range page.Events {
			if ev.Seq <= after || (before != 0 && ev.Seq >= before) {
				return nil, head, fmt.Sprintf("event %d outside the requested range (%d, %d)", ev.Seq, after, before), true
			}
			before = ev.Seq
			evs = append(evs, ev)
		}
		if !page.More {
			return evs, head, "", true
		}
		if len(page.Events) == 0 {
			return nil, head, "a page said more events remain but held none", true
		}
		if len(evs) >= maxCheckedEvents {
			return nil, head, "", false
		}
	}
}

// sameRecent reports whether a step's recent events are the events the
// log holds: a source sent by its digest must be the digest of the source
// the log holds.
func sameRecent(log, recent []contract.SessionEvent) bool {
	return slices.EqualFunc(log, recent, func(x, y contract.SessionEvent) bool {
		if x.Seq != y.Seq || x.Type != y.Type || x.Visible != y.Visible {
			return false
		}
		if y.SourceDigest != nil {
			return len(y.Source) == 0 && bytes.Equal(contract.SourceDigestOf(x.Source), y.SourceDigest)
		}
		return bytes.Equal(x.Source, y.Source)
	})
}

func sameEvents(a, b []contract.SessionEvent) bool {
	return slices.EqualFunc(a, b, func(x, y contract.SessionEvent) bool {
		return x.Seq == y.Seq && x.Type == y.Type && x.Visible == y.Visible && bytes.Equal(x.Source, y.Source)
	})
}

// noteAdded remembers the sources of the messages the plugin's answer to a
// step adds, and the session's head as the plugin answered (the host is
// still waiting for the answer, so it has appended nothing of the step), for
// checkSources to look for at the session's next step.
func (c *Checker) noteAdded(ctx context.Context, host contract.Host, req contract.StepRequest, resp contract.StepResponse) {
	var digests [][]byte
	for _, e := range resp.Edits {
		if (e.Op == contract.EditAppend || e.Op == contract.EditReplace) && len(e.Message.Source) > 0 {
			digests = append(digests, contract.SourceDigestOf(e.Message.Source))
		}
	}
	c.mu.Lock()
	delete(c.added, req.SessionID)
	c.mu.Unlock()
	if len(digests) == 0 {
		return
	}
	page, err := host.ReadEvents(ctx, contract.EventsRequest{SessionID: req.SessionID, MaxEvents: 1})
	if err != nil {
		return // nothing to hold the next step to
	}
	c.mu.Lock()
	c.added[req.SessionID] = addedSources{turn: req.Turn, step: req.Step, proposed: proposedDigest(req.Downstream.Messages), afterSeq: page.Head.Seq, digests: digests}
	c.mu.Unlock()
}

// checkSources holds the host to the sources the previous step's answer
// added: once the host has appended after that step, the log holds an
// event with each of them. A host that drops or rewrites them leaves the
// plugin unable to recognise its own catalog, so it publishes the whole
// catalog again at every step.
func (c *Checker) checkSources(ctx context.Context, host contract.Host, req contract.StepRequest) {
	c.mu.Lock()
	prev, ok := c.added[req.SessionID]
	delete(c.added, req.SessionID)
	c.mu.Unlock()
	if !ok || (prev.turn == req.Turn && prev.step == req.Step && prev.proposed == proposedDigest(req.Downstream.Messages)) {
		return // none added, or the same step asked again: its answer was not used
	}
	evs, _, problem, ok := readAll(ctx, host, req.SessionID, prev.afterSeq, maxCheckedEvents)
	if !ok || problem != "" || len(evs) == 0 {
		return // unreadable (events-pages says why), or the host appended nothing
	}
	have := map[string]bool{}
	empty := 0
	for _, ev := range evs {
		if len(ev.Source) == 0 {
			empty++
		}
		have[string(contract.SourceDigestOf(ev.Source))] = true
	}
	missing := 0
	for _, d := range prev.digests {
		if !have[string(d)] {
			missing++
		}
	}
	detail := ""
	if missing > 0 {
		detail = fmt.Sprintf("turn %d step %d: the plugin's answer added %d message(s) with a source_json (its catalog record), "+
			"and %d of those sources is on none of the %d events appended after that step (seq %d to %d; %d of them with no source_json at all): "+
			"store every message of a step's answer with its source_json exactly as received, byte for byte, and return it in ReadEvents; "+
			"otherwise the plugin cannot find its own catalog in the log and publishes the whole catalog again at every step",
			prev.turn, prev.step, len(prev.digests), missing, len(evs), evs[len(evs)-1].Seq, evs[0].Seq, empty)
	}
	c.record(CheckEventsSources, req.SessionID, detail)
}
