// Package example is the README's example of the model API adapters: one
// model step of an agent, with Anthropic's Messages API.
package example

import (
	"context"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/anthropicapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// Step runs one model step of session: the plugin's step with the
// messages the runtime proposes (the user's, on a turn's first step), the
// model called with the session's transcript and the agent's tools, its
// reply and the results of its tool calls appended to the session. It
// reports whether the model answered without calling a tool.
func Step(ctx context.Context, session *hostsdk.Session, tree *tools.Tree, client anthropic.Client,
	model anthropic.Model, proposed []hostsdk.Message) (bool, error) {
	if _, err := session.Step(ctx, hostsdk.Decision{Messages: proposed}, nil); err != nil {
		return false, err
	}
	// The conversation is what the session log holds: the runtime's own
	// messages, the plugin's catalog, earlier replies and results.
	entries, err := session.Transcript(ctx)
	if err != nil {
		return false, err
	}
	var conversation []hostsdk.Message
	for _, e := range entries {
		if e.Visible {
			conversation = append(conversation, e.Message)
		}
	}
	// Tools, system prompt and messages, with cache breakpoints where
	// they pay (anthropicapi.Caching chooses others).
	params, err := anthropicapi.Request(conversation, tree.Visible(session.AgentScope()), nil)
	if err != nil {
		return false, err
	}
	params.Model, params.MaxTokens = model, 4096
	resp, err := client.Messages.New(ctx, params)
	if err != nil {
		return false, err
	}
	reply, err := anthropicapi.Message(resp)
	if err != nil {
		return false, err
	}
	if _, err := session.Append(ctx, reply); err != nil {
		return false, err
	}
	calls := modelapi.Calls(reply)
	if len(calls) == 0 {
		return true, nil
	}
	var results []modelapi.Result
	for _, call := range calls {
		res, err := session.CallTool(ctx, call)
		var notPlugins *hostsdk.ToolNotFoundError
		switch {
		case errors.As(err, &notPlugins):
			// Not the plugin's tool: the runtime runs its own tools here.
			res = hostsdk.ToolResult{Text: fmt.Sprintf("Error: no tool %q", call.Name), IsError: true}
		case err != nil:
			return false, err
		}
		results = append(results, modelapi.Result{CallID: call.CallID, Result: res})
	}
	msg, err := modelapi.ResultMessage(fmt.Sprintf("%s-results", reply.ID), results...)
	if err != nil {
		return false, err
	}
	_, err = session.Append(ctx, msg)
	return false, err
}
