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

// Step runs one model step: the plugin's PreStep, the model called with the
// session's transcript and the agent's tools, its reply and the results of
// its tool calls appended to the session. It reports whether the model
// answered without calling a tool.
func Step(ctx context.Context, host *hostsdk.Host, tree *tools.Tree, client anthropic.Client,
	model anthropic.Model, step hostsdk.Step) (bool, error) {
	if _, err := host.PreStep(ctx, step); err != nil {
		return false, err
	}
	// The conversation is what the session log holds: the runtime's own
	// messages, the plugin's catalog, earlier replies and results.
	entries, err := host.Transcript(ctx, step.SessionID)
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
	params, err := anthropicapi.Request(conversation, tree.Visible(step.AgentScope), nil)
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
	if _, err := host.AppendMessages(ctx, step.SessionID, reply); err != nil {
		return false, err
	}
	calls := modelapi.Calls(reply, hostsdk.ToolCall{SessionID: step.SessionID, Cwd: step.Cwd, AgentScope: step.AgentScope})
	if len(calls) == 0 {
		return true, nil
	}
	var results []modelapi.Result
	for _, call := range calls {
		res, err := host.CallTool(ctx, call)
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
	_, err = host.AppendMessages(ctx, step.SessionID, msg)
	return false, err
}
