package plugin

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// bigLibrary is a library whose catalog is over the default budget: 80
// skills with descriptions of some 150 characters, two of them about
// invoices.
func bigLibrary() []skill.Summary {
	var skills []skill.Summary
	for i := range 80 {
		skills = append(skills, summary(fmt.Sprintf("chore-%02d", i), fmt.Sprintf("Handles release chore number %d: checks the inputs, runs the steps in order and writes a short report of what it changed.", i)))
	}
	skills = append(skills,
		summary("invoice-pdf", "Create invoices as PDF files from a list of billable hours, with the company's letterhead and payment terms."),
		summary("invoice-reminders", "Draft polite reminders for invoices that are past due, escalating after thirty days."),
	)
	return skills
}

func userMessage(id, text string) contract.Message {
	return contract.Message{ID: id, Role: contract.RoleUser, UserInput: true, Content: []contract.ContentBlock{{Type: "text", Text: text}}}
}

// relevantOf returns the relevant-skills message a step appends, if any.
func relevantOf(resp contract.StepResponse) (contract.Message, events.Relevant, bool) {
	for _, e := range resp.Edits {
		if r, ok := events.ParseRelevant(e.Message.Source); ok && e.Op == contract.EditAppend {
			return e.Message, r, true
		}
	}
	return contract.Message{}, events.Relevant{}, false
}

func TestRelevantSkillsAtTheUsersTurn(t *testing.T) {
	t.Parallel()
	h := newMemHost(bigLibrary()...)
	e := newEngine()
	req := step(h, enter(userMessage("u1", "Create an invoice PDF for last month's billable hours")))
	resp := mustPreStep(t, e, h, testMount(), req)
	if resp.Outcome != contract.OutcomeInitial {
		t.Fatalf("outcome %v", resp.Outcome)
	}
	msg, rec, ok := relevantOf(resp)
	if !ok {
		t.Fatalf("no relevant-skills message: %+v", resp.Edits)
	}
	if rec.For != "u1" || len(rec.Names) == 0 || rec.Names[0] != "invoice-pdf" {
		t.Errorf("record %+v", rec)
	}
	if last := resp.Edits[len(resp.Edits)-1]; last.Message.ID != msg.ID {
		t.Error("the relevant-skills message is not the step's last")
	}
	if msg.ID != "skill-relevant-s1-0" || msg.Role != contract.RoleUser {
		t.Errorf("message %s, role %v", msg.ID, msg.Role)
	}
	text := msg.Content[0].Text
	if !strings.Contains(text, "-`invoice-pdf`: Create invoices as PDF files from a list of billable hours, with the company's letterhead and payment terms.\n") {
		t.Errorf("the message does not give the full description:\n%s", text)
	}
	var codes []contract.ReasonCode
	for _, r := range resp.Reasons {
		codes = append(codes, r.Code)
	}
	if diff := cmp.Diff([]contract.ReasonCode{contract.ReasonPublishedInitial, contract.ReasonBudget, contract.ReasonRelevant}, codes); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}

	// The same user message again (a retried step, another replica): it
	// was answered.
	h.apply(t, req, resp)
	again := mustPreStep(t, e, h, testMount(), step(h, enter(userMessage("u1", "Create an invoice PDF for last month's billable hours"))))
	if _, _, ok := relevantOf(again); ok {
		t.Error("a user message answered before was answered again")
	}
	// A later request about invoices: what was described is not described
	// again.
	later := mustPreStep(t, e, h, testMount(), step(h, enter(userMessage("u2", "Send reminders for the invoices past due"))))
	_, rec2, ok := relevantOf(later)
	if !ok || contains(rec2.Names, "invoice-pdf") || !contains(rec2.Names, "invoice-reminders") {
		t.Errorf("second request: %+v, %v", rec2, ok)
	}
	// A restarted plugin reads the same from the log.
	h.apply(t, step(h, enter()), later)
	fresh := mustPreStep(t, newEngine(), h, testMount(), step(h, enter(userMessage("u3", "Invoices: create a PDF and send reminders"))))
	if _, rec3, ok := relevantOf(fresh); ok {
		t.Errorf("after a restart, skills described before were described again: %+v", rec3)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestRelevantSkillsOnlyAtTheUsersTurn(t *testing.T) {
	t.Parallel()
	toolResult := contract.Message{ID: "t1", Role: contract.RoleTool, Content: []contract.ContentBlock{{Type: "text", Text: "invoice PDF created"}}}
	assistant := contract.Message{ID: "a1", Role: contract.RoleAssistant, Content: []contract.ContentBlock{{Type: "text", Text: "Let me create the invoice PDF."}}}
	notInput := userMessage("u1", "Create an invoice PDF")
	notInput.UserInput = false
	for name, msgs := range map[string][]contract.Message{
		"after a tool result":              {userMessage("u1", "Create an invoice PDF"), toolResult},
		"after the model's reply":          {userMessage("u1", "Create an invoice PDF"), assistant},
		"a user message that is not input": {notInput},
		"no message":                       nil,
		"a request no skill is for":        {userMessage("u1", "Help me write a poem about the sea")},
		"stop words only":                  {userMessage("u1", "how do I do this?")},
	} {
		h := newMemHost(bigLibrary()...)
		resp := mustPreStep(t, newEngine(), h, testMount(), step(h, enter(msgs...)))
		if _, rec, ok := relevantOf(resp); ok {
			t.Errorf("%s: a relevant-skills message %+v", name, rec)
		}
	}
}

func TestRelevantSkillsModes(t *testing.T) {
	t.Parallel()
	small := []skill.Summary{summary("invoice-pdf", "Create invoices as PDF files."), summary("chore", "Does chores.")}
	long := []skill.Summary{summary("invoice-pdf", "Create invoices as PDF files. "+strings.Repeat("It also handles letterheads and payment terms. ", 20))}
	ask := enter(userMessage("u1", "Create an invoice PDF"))
	for _, tc := range []struct {
		name   string
		skills []skill.Summary
		mode   string
		want   bool
	}{
		{"auto, catalog over its budget", bigLibrary(), "", true},
		{"auto, catalog within its budget", small, "", false},
		{"off, catalog over its budget", bigLibrary(), contract.RelevantOff, false},
		{"on, every description shown in full", small, contract.RelevantOn, false},
		{"on, a description capped", long, contract.RelevantOn, true},
	} {
		h := newMemHost(tc.skills...)
		m := testMount()
		m.cfg.RelevantSkills = tc.mode
		resp := mustPreStep(t, newEngine(), h, m, step(h, ask))
		if _, _, ok := relevantOf(resp); ok != tc.want {
			t.Errorf("%s: relevant-skills message %v, want %v", tc.name, ok, tc.want)
		}
	}
}

// TestRelevantSkillsAfterCompaction: a compaction that hides the messages
// that described skills lets them be described again.
func TestRelevantSkillsAfterCompaction(t *testing.T) {
	t.Parallel()
	h := newMemHost(bigLibrary()...)
	e := newEngine()
	req := step(h, enter(userMessage("u1", "Create an invoice PDF")))
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req))
	h.hide(1, uint64(len(h.events)))
	resp := mustPreStep(t, e, h, testMount(), step(h, enter(userMessage("u2", "Create an invoice PDF"))))
	if resp.Outcome != contract.OutcomeReplacement {
		t.Errorf("outcome %v, want the catalog published again", resp.Outcome)
	}
	if _, rec, ok := relevantOf(resp); !ok || rec.Names[0] != "invoice-pdf" {
		t.Errorf("after compaction: %+v, %v", rec, ok)
	}
}

// TestRelevantSkillsLeaveOutInvokedOnes: a skill the user invokes by name
// comes whole with the step; it is not also suggested.
func TestRelevantSkillsLeaveOutInvokedOnes(t *testing.T) {
	t.Parallel()
	skills := bigLibrary()
	h := newMemHost(skills...)
	h.defs["invoice-pdf"] = testDefinition("invoice-pdf", "Make the PDF.")
	m := testMount()
	m.cfg.UserInvocation = true
	resp := mustPreStep(t, newEngine(), h, m, step(h, enter(userMessage("u1", "/invoice-pdf for the billable hours, then reminders for past due invoices"))))
	if _, rec, ok := relevantOf(resp); !ok || contains(rec.Names, "invoice-pdf") {
		t.Errorf("relevant %+v, %v", rec, ok)
	}
	if len(resp.Invocations) != 1 {
		t.Errorf("invocations %+v", resp.Invocations)
	}
}

// TestRelevantSkillsRecordSentByDigest: the record the plugin wrote, sent
// back by its digest with the next step's events, still counts.
func TestRelevantSkillsRecordSentByDigest(t *testing.T) {
	t.Parallel()
	h := newMemHost(bigLibrary()...)
	e := newEngine()
	req := step(h, enter(userMessage("u1", "Create an invoice PDF")))
	resp := mustPreStep(t, e, h, testMount(), req)
	_, _, ok := relevantOf(resp)
	if !ok {
		t.Fatal("no relevant-skills message")
	}
	after := h.head().Seq
	h.apply(t, req, resp)
	recent := h.recentSince(after)
	for i := range recent.Events {
		if src := recent.Events[i].Source; events.IsRelevantKind(src) {
			recent.Events[i].Source, recent.Events[i].SourceDigest = nil, contract.SourceDigestOf(src)
		}
	}
	next := step(h, enter(userMessage("u1", "Create an invoice PDF")))
	next.Recent = recent
	reads := h.reads
	if _, _, ok := relevantOf(mustPreStep(t, e, h, testMount(), next)); ok {
		t.Error("the user message was answered again")
	}
	if h.reads != reads {
		t.Errorf("%d reads: the digest was not resolved", h.reads-reads)
	}
}

// TestRelevantSkillsOncePerUserMessage: a user message the log shows
// answered (by another replica, say) is not answered again, whatever the
// answer held.
func TestRelevantSkillsOncePerUserMessage(t *testing.T) {
	t.Parallel()
	h := newMemHost(bigLibrary()...)
	e := newEngine()
	h.apply(t, step(h, enter()), mustPreStep(t, e, h, testMount(), step(h, enter())))
	h.appendSource(events.EncodeRelevant(events.Relevant{Names: []string{"chore-01"}, For: "u1"}))
	if _, rec, ok := relevantOf(mustPreStep(t, e, h, testMount(), step(h, enter(userMessage("u1", "Create an invoice PDF"))))); ok {
		t.Errorf("u1, answered in the log, answered again: %+v", rec)
	}
	if _, rec, ok := relevantOf(mustPreStep(t, e, h, testMount(), step(h, enter(userMessage("u2", "Create an invoice PDF"))))); !ok || rec.Names[0] != "invoice-pdf" {
		t.Errorf("u2: %+v, %v", rec, ok)
	}
}
