package skillgenkit

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/firebase/genkit/go/ai"

	"github.com/skillcatalog/skillcatalog/hostsdk"
)

// skillTool runs one of the mount's tools (skill, skill_resource) for
// Genkit.
type skillTool struct {
	skills *Skills
	name   string
}

// newTools reads the mount's tools the agent sees, and makes their
// definitions as the model is offered them. They depend on the agent's
// scope, not on the session, so no session is needed.
func (s *Skills) newTools() error {
	s.defs = make(map[string]*ai.ToolDefinition)
	for _, d := range s.host.Tools(s.opts.AgentScope) {
		var schema map[string]any
		if err := json.Unmarshal(d.InputSchema, &schema); err != nil {
			return fmt.Errorf("skillgenkit: the input schema of tool %q: %w", d.Name, err)
		}
		def := *s.newTool(d).Definition()
		def.InputSchema = schema
		s.tools = append(s.tools, d)
		s.defs[d.Name] = &def
	}
	if len(s.tools) == 0 {
		return fmt.Errorf("skillgenkit: the agent scope %q sees no tool of the plugin: no mount is in effect there, or its tools are restricted away", s.opts.AgentScope)
	}
	return nil
}

// newTool makes the Genkit tool of one of the mount's tools.
//
// Genkit checks a tool's input against the tool's own input schema before
// the tool runs, and in v1.4 an input that fails the check, like an error
// the tool returns, ends the whole Generate. The plugin's schemas forbid
// unknown members and require a name; a model that sends {"skill": "x"}
// would end the application's Generate with a schema error instead of
// reading the plugin's fixed error text and trying again. So the Genkit
// tool's schema is the empty schema, which every JSON value satisfies,
// and the plugin checks the arguments; the model is offered the plugin's
// schema all the same (Skills.offered puts it into every request).
func (s *Skills) newTool(d hostsdk.ToolDefinition) ai.Tool {
	t := &skillTool{skills: s, name: d.Name}
	return ai.NewTool(d.Name, d.Description, t.run, ai.WithInputSchema(map[string]any{}))
}

// offered returns the tools of a request as the model is offered them:
// the adapter's with the plugin's input schemas, and all of them in the
// order of their names. Genkit lists a request's tools in the order of a
// Go map, which changes from one Generate to the next and would cost the
// prompt cache every byte after the first tool; so the order is fixed.
// It fails when the request lacks one of the adapter's tools, which the
// catalog would name to the model.
func (s *Skills) offered(tools []*ai.ToolDefinition) ([]*ai.ToolDefinition, error) {
	out := slices.Clone(tools)
	found := 0
	for i, t := range out {
		if d, ok := s.defs[t.Name]; ok {
			out[i] = d
			found++
		}
	}
	if found < len(s.defs) {
		return nil, fmt.Errorf("skillgenkit: the Generate does not offer the model the skill tools: pass ai.WithTools(skills.Tools()...)")
	}
	slices.SortStableFunc(out, func(a, b *ai.ToolDefinition) int { return cmp.Compare(a.Name, b.Name) })
	return out, nil
}

// run runs the call through the plugin, with the call id and, where it is
// certainly this call's, the input as the model sent it (see calls.go). A
// failure to reach the plugin becomes the tool's text, because an error
// from a Genkit tool ends the whole Generate: the model reads what went
// wrong and can go on without the skill. A closed host
// (hostsdk.ErrClosed) ends the Generate: the application outlived its
// host.
func (t *skillTool) run(tc *ai.ToolContext, input any) (string, error) {
	b, err := bindingOf(tc)
	if err != nil {
		return "", err
	}
	ref, args := b.claim(t.name, input)
	if args == nil {
		if args, err = json.Marshal(input); err != nil {
			return "", fmt.Errorf("skillgenkit: tool %q: the input: %w", t.name, err)
		}
	}
	sess := t.skills.session(tc, b)
	res, err := sess.CallTool(tc, hostsdk.ToolCall{CallID: ref, Name: t.name, Arguments: args})
	switch {
	case err != nil && (tc.Err() != nil || errors.Is(err, hostsdk.ErrClosed)):
		return "", fmt.Errorf("skillgenkit: tool %q: %w", t.name, err)
	case err != nil:
		t.skills.opts.Logger.Warn("skill catalog: a tool call failed", "session", b.id, "tool", t.name, "err", err)
		return fmt.Sprintf("Error: the %s tool is unavailable: %v", t.name, err), nil
	}
	return res.Text, nil
}
