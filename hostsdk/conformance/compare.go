package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// The views below are what failure diffs show. Expected views copy every
// field the scenario leaves unset from the actual value, so a diff shows
// only what the scenario asked about.

// messageView is a message as compared.
type messageView struct {
	ID   string
	Role string
	Text string
	// Source is the parsed JSON source; nil when there is none, a string
	// starting "invalid JSON: " when it does not parse.
	Source any
	// SourceRaw is the exact source, shown only when the scenario asks.
	SourceRaw string
}

// eventView is a session-log event as compared.
type eventView struct {
	Seq       uint64
	Type      string
	Visible   bool
	Text      string
	Source    any
	SourceRaw string
}

// toolView is a tool result as compared.
type toolView struct {
	IsError bool
	Text    string
	// Value is the canonical value as parsed JSON; nil for none.
	Value any
}

var cmpOpts = []cmp.Option{cmpopts.EquateEmpty()}

func diff(want, got any) string {
	return cmp.Diff(want, got, cmpOpts...)
}

// sourceValue parses a durable source for comparison.
func sourceValue(src []byte) any {
	if src == nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(src, &v); err != nil {
		return "invalid JSON: " + string(src)
	}
	return v
}

func viewMessage(m hostsdk.Message) messageView {
	return messageView{ID: m.ID, Role: string(m.Role), Text: m.Text(), Source: sourceValue(m.Source)}
}

func viewMessages(ms []hostsdk.Message) []messageView {
	out := make([]messageView, len(ms))
	for i, m := range ms {
		out[i] = viewMessage(m)
	}
	return out
}

// diffMessages compares expected messages with actual ones, position by
// position.
func diffMessages(want []messageExpect, got []hostsdk.Message) string {
	gotViews := make([]messageView, len(got))
	wantViews := make([]messageView, len(want))
	for i := range got {
		gotViews[i] = viewMessage(got[i])
		if i < len(want) && want[i].SourceRaw != nil {
			gotViews[i].SourceRaw = string(got[i].Source)
		}
	}
	for i, w := range want {
		var g *messageView
		if i < len(gotViews) {
			g = &gotViews[i]
		}
		v := messageView{Role: w.Role}
		if w.ID != nil {
			v.ID = *w.ID
		} else if g != nil {
			v.ID = g.ID
		}
		if w.Role == "" && g != nil {
			v.Role = g.Role
		}
		switch {
		case w.Text != nil && g != nil:
			v.Text = w.Text.want(g.Text)
		case w.Text != nil:
			v.Text = w.Text.describe()
		case g != nil:
			v.Text = g.Text
		}
		if w.Source.Set {
			v.Source = w.Source.Value
		} else if g != nil {
			v.Source = g.Source
		}
		if w.SourceRaw != nil {
			v.SourceRaw = *w.SourceRaw
		}
		wantViews[i] = v
	}
	return diff(wantViews, gotViews)
}

// changes returns the final messages that are not proposed ones (added or
// replacing) and the ids of proposed messages the final list lacks.
func changes(proposed, final []hostsdk.Message) (added []hostsdk.Message, removed []string) {
	used := make([]bool, len(proposed))
	for _, m := range final {
		found := false
		for i, p := range proposed {
			if !used[i] && sameMessage(p, m) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			added = append(added, m)
		}
	}
	for i, p := range proposed {
		if !used[i] {
			removed = append(removed, p.ID)
		}
	}
	return added, removed
}

func sameMessage(a, b hostsdk.Message) bool {
	return a.ID == b.ID && a.Role == b.Role && slices.EqualFunc(a.Content, b.Content, hostsdk.ContentBlock.Equal) &&
		(a.Source == nil) == (b.Source == nil) && bytes.Equal(a.Source, b.Source)
}

func viewEvents(evs []sessionlog.Event) []eventView {
	out := make([]eventView, len(evs))
	for i, ev := range evs {
		v := eventView{Seq: ev.Seq, Type: ev.Type, Visible: ev.Visible, Source: sourceValue(ev.Source), SourceRaw: string(ev.Source)}
		if ev.Body != nil {
			var body struct {
				Content []hostsdk.ContentBlock `json:"content"`
			}
			if json.Unmarshal(ev.Body, &body) == nil {
				v.Text = hostsdk.Message{Content: body.Content}.Text()
			}
		}
		out[i] = v
	}
	return out
}

func diffEvents(want []eventExpect, got []eventView) string {
	gotViews := slices.Clone(got)
	wantViews := make([]eventView, len(want))
	for i, w := range want {
		var g *eventView
		if i < len(gotViews) {
			g = &gotViews[i]
		}
		var v eventView
		if g != nil {
			v = *g
		}
		if w.Seq != nil {
			v.Seq = *w.Seq
		}
		if w.Type != "" {
			v.Type = w.Type
		}
		if w.Visible != nil {
			v.Visible = *w.Visible
		}
		switch {
		case w.Text != nil && g != nil:
			v.Text = w.Text.want(g.Text)
		case w.Text != nil:
			v.Text = w.Text.describe()
		}
		if w.Source.Set {
			v.Source = w.Source.Value
		}
		if w.SourceRaw != nil {
			v.SourceRaw = *w.SourceRaw
		}
		wantViews[i] = v
	}
	// The raw source is shown only where the scenario asked for it.
	for i := range gotViews {
		if i >= len(want) || want[i].SourceRaw == nil {
			gotViews[i].SourceRaw = ""
			if i < len(wantViews) {
				wantViews[i].SourceRaw = ""
			}
		}
	}
	return diff(wantViews, gotViews)
}

func summarizeEvents(views []eventView) string {
	var b strings.Builder
	for _, v := range views {
		vis := "visible"
		if !v.Visible {
			vis = "hidden"
		}
		src := v.SourceRaw
		if len(src) > 120 {
			src = src[:117] + "..."
		}
		fmt.Fprintf(&b, "  %d %s (%s) source=%s\n", v.Seq, v.Type, vis, src)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func viewTool(res hostsdk.ToolResult) toolView {
	v := toolView{IsError: res.IsError, Text: res.Text}
	var value any
	switch {
	case res.Value != nil:
		value = res.Value
	case res.Resource != nil:
		value = res.Resource
	case res.Search != nil:
		value = res.Search
	}
	if value != nil {
		b, err := json.Marshal(value)
		if err != nil {
			v.Value = "unencodable value: " + err.Error()
		} else {
			v.Value = sourceValue(b)
		}
	}
	return v
}

// textDiff compares a text with a match; "" when it matches.
func textDiff(m *textMatch, got string) string {
	if m.failure(got) == "" {
		return ""
	}
	return diff(m.want(got), got)
}

// describe renders the match for messages about a missing text.
func (m *textMatch) describe() string {
	if m.Exact != nil {
		return fmt.Sprintf("%q", *m.Exact)
	}
	var parts []string
	if m.Prefix != "" {
		parts = append(parts, fmt.Sprintf("starts with %q", m.Prefix))
	}
	if m.Suffix != "" {
		parts = append(parts, fmt.Sprintf("ends with %q", m.Suffix))
	}
	for _, c := range m.Contains {
		parts = append(parts, fmt.Sprintf("contains %q", c))
	}
	for _, c := range m.Excludes {
		parts = append(parts, fmt.Sprintf("does not contain %q", c))
	}
	return "<text that " + strings.Join(parts, ", ") + ">"
}

// describeStep says what a step does, for failure labels.
func describeStep(st *stepSpec) string {
	where := func(scope, provider string) string {
		if provider != "" {
			return "provider " + provider
		}
		return scope
	}
	switch {
	case st.PreStep != nil:
		return st.PreStep.describe()
	case st.ToolCall != nil:
		return st.ToolCall.describe()
	case st.AddSkill != nil:
		return fmt.Sprintf("add skill %s to %s", st.AddSkill.Name, where(st.AddSkill.Scope, st.AddSkill.Provider))
	case st.RemoveSkill != nil:
		return fmt.Sprintf("remove skill %s from %s", st.RemoveSkill.Name, where(st.RemoveSkill.Scope, st.RemoveSkill.Provider))
	case st.ChangeSkill != nil:
		ch := st.ChangeSkill
		return fmt.Sprintf("change %s of skill %s in %s", ch.what(), ch.Name, where(ch.Scope, ch.Provider))
	case st.SetProvider != nil:
		s := "set provider " + st.SetProvider.ID
		if st.SetProvider.State != "" {
			s += " " + st.SetProvider.State
		}
		return s
	case st.Grants != nil:
		return fmt.Sprintf("tools offered in session %s", st.Grants.Session)
	case st.Restrict != nil:
		return fmt.Sprintf("restrict %s in %s", st.Restrict.Tool, st.Restrict.Scope)
	case st.Unrestrict != nil:
		return fmt.Sprintf("unrestrict %s in %s", st.Unrestrict.Tool, st.Unrestrict.Scope)
	case st.Shadow != nil:
		return fmt.Sprintf("shadow %s in %s", st.Shadow.Tool, st.Shadow.Scope)
	case st.Unshadow != nil:
		return fmt.Sprintf("remove the shadow %s from %s", st.Unshadow.Tool, st.Unshadow.Scope)
	case st.Compact != nil:
		return st.Compact.describe()
	case st.AppendEvents != nil:
		return fmt.Sprintf("append %d event(s) to session %s", len(st.AppendEvents.Events), st.AppendEvents.Session)
	case st.SelectSkills != nil:
		return st.SelectSkills.describe()
	case st.RestartHost != nil:
		return "restart the host"
	}
	return "no action"
}

func (a *preStepAction) describe() string {
	s := fmt.Sprintf("preStep by %s in session %s", a.Agent, a.Session)
	if ds := a.Downstream; ds != nil {
		if ds.Reject != nil {
			s += ", downstream rejects"
		} else if len(ds.Messages) > 0 {
			s += fmt.Sprintf(", %d proposed message(s)", len(ds.Messages))
		}
	}
	if a.Cancel {
		s += ", cancelled"
	}
	return s
}

func (a *toolCallAction) describe() string {
	arg := ""
	if a.Skill != nil {
		arg = fmt.Sprintf("%q", *a.Skill)
	} else {
		arg = *a.Arguments
	}
	return fmt.Sprintf("toolCall %s %s by %s", a.Tool, arg, a.Agent)
}

// what names the fields a change sets.
func (ch *skillChange) what() string {
	var what []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"description", ch.Description != nil}, {"body", ch.Body != nil},
		{"policy", ch.ModelInvocable != nil || ch.UserInvocable != nil},
		{"resource base", ch.ResourceBase != nil}, {"load error", ch.LoadError != nil},
		{"vanished", ch.Vanished != nil},
	} {
		if f.set {
			what = append(what, f.name)
		}
	}
	return strings.Join(what, " and ")
}

func (a *compactAction) describe() string {
	rng := "everything"
	if a.From != 0 || a.To != 0 {
		rng = fmt.Sprintf("events %d..%d", max(a.From, 1), a.To)
		if a.To == 0 {
			rng = fmt.Sprintf("events %d..head", a.From)
		}
	}
	return fmt.Sprintf("compact %s of session %s", rng, a.Session)
}

func (a *selectAction) describe() string {
	var parts []string
	for _, l := range []struct {
		what string
		vals []string
	}{
		{"include names", a.IncludeNames}, {"exclude names", a.ExcludeNames},
		{"include providers", a.IncludeProviders}, {"exclude providers", a.ExcludeProviders},
	} {
		if len(l.vals) > 0 {
			parts = append(parts, l.what+" "+strings.Join(l.vals, ","))
		}
	}
	if len(parts) == 0 {
		return "clear the skill selection of session " + a.Session
	}
	return fmt.Sprintf("select skills of session %s: %s", a.Session, strings.Join(parts, "; "))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// reasonView is a reason as a diff shows it.
type reasonView struct {
	Code, Detail string
}

// diffReasons compares a step's reasons with their expectations, position
// by position; a detail left out is not compared.
func diffReasons(want []reasonExpect, got []hostsdk.Reason) string {
	wantViews := make([]reasonView, len(want))
	gotViews := make([]reasonView, len(got))
	for i, r := range got {
		gotViews[i] = reasonView{string(r.Code), r.Detail}
	}
	for i, w := range want {
		wantViews[i].Code = w.Code
		switch {
		case w.Detail != nil && i < len(got):
			wantViews[i].Detail = w.Detail.want(got[i].Detail)
		case w.Detail != nil:
			wantViews[i].Detail = w.Detail.describe()
		case i < len(got):
			wantViews[i].Detail = got[i].Detail
		}
	}
	return diff(wantViews, gotViews)
}

// diffTexts compares texts with their expectations, position by position.
func diffTexts(want []textMatch, got []string) string {
	wantViews := make([]string, len(want))
	for i := range want {
		if i < len(got) {
			wantViews[i] = want[i].want(got[i])
		} else {
			wantViews[i] = want[i].describe()
		}
	}
	return diff(wantViews, got)
}
