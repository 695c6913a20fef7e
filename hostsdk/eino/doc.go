// Package skilleino adds the skill catalog to agents built with Eino's ADK
// (github.com/cloudwego/eino/adk): an existing adk.ChatModelAgent gets the
// plugin's tools (`skill`, and `skill_resource` to read a skill's files)
// and the catalog of skills in its conversation, kept there durably, with a
// notice appended when a skill is added, changed or removed.
//
//	host, err := hostsdk.Open(ctx, &hostsdk.OpenOptions{SkillDirs: dirs, SessionDir: dir})
//	...
//	skills, err := skilleino.New(ctx, host, nil)
//	...
//	cfg.Middlewares = append(cfg.Middlewares, skills.Middleware())
//	events := runner.Run(ctx, history, skilleino.WithSession("conversation-1"))
//
// The host lives as long as the agent: a function that builds the agent
// returns host.Close for its caller rather than deferring it, since a Run
// on a closed host fails (hostsdk.ErrClosed).
//
// # Why it works this way
//
// Eino leaves the conversation to its caller, who passes the whole history
// to every Runner.Run, and rebuilds the model's input from it. A message
// injected once is gone by the next Run. So before every model call the
// adapter hands the history it is about to send (its system messages set
// aside) to hostsdk.Session.Sync, which appends what is new to the
// session's log, runs the plugin's step, and answers the list to send:
// the history with every plugin message the model has been shown put back
// in its place. The caller's history never holds a plugin message and
// needs no change; the session log records what the model saw (a Run's
// final answer with the next Run's first model call, when it is sent
// back), so a restarted process (a new Host and adapter on the same
// session store) republishes nothing. A caller that summarises or edits
// its history is seen as a compaction, and the catalog is published again
// once if the summary hid it; one that passes only its last messages has
// what they lost hidden, and the catalog stays first in the conversation.
//
// The plugin's messages are user messages marked in Message.Extra with
// their ids, so the next model call of the same Run, which hands back the
// rewritten list, has them known by those ids in the session log, left
// out, and put back at their places. A message marked with an id the log
// never held is the caller's, and logged as a warning. The tools'
// definitions never change: a change of skills reaches the model as an
// appended message, and the tools, system prompt and earlier messages stay
// byte for byte what they were, a prefix the model's prompt cache keeps.
//
// A Run names its session with the session value SessionKey
// (WithSession), and optionally the session's working directory with
// CwdKey; a Run that names no session fails rather than join another's. Failures of the plugin or of the session store do not stop the
// agent: the model is called without the step (and the failure logged),
// and a tool call that cannot reach the plugin answers the model with the
// error as text, since an error from an Eino tool ends the Run.
//
// # Skill directives
//
// A skill that asks to run in a sub-agent (`context: fork`, or
// `fork_with_context` with the conversation) or on another model
// (`model:`) gets it when the adapter has the means: Options.Agents (an
// AgentHub, such as Agents) runs a fork skill the model loads in the agent
// its `agent` names, whose final answer is the tool's result, and
// Options.Models (a ModelHub, such as Models), with the agent's model
// wrapped by Skills.Model, runs the rest of the Run on the model the skill
// names. Otherwise the skill runs inline on the agent's model, and its
// result says so. A sub-agent runs in a session of its own (the parent's
// id and "/fork/" and the tool call's id), for at most
// Options.ForkTimeout; one that has not answered by then is stopped and
// the skill runs inline, its result saying why. Each adapter answers for
// the sessions it runs (hostsdk.Session.HandleDirectives), so adapters
// with different hubs share a host. See directives.go.
//
// # Enforced tool grants
//
// On a host opened with hostsdk.Options.ToolGrants (OpenOptions.ToolGrants),
// a skill's tool lists hold while it is active in the Run's session (see
// the hostsdk package documentation for when that is): the middleware
// answers a call of a withheld tool with the refusal naming the skill
// instead of running it (AgentMiddleware.WrapToolCall), and the model
// Skills.Model returns is offered only the tools the grants leave
// (model.WithTools on each call; a model that ignores that option is
// offered them all, and the calls are still refused).
//
// # Eino versions
//
// This module is built against Eino v0.7 and its AgentMiddleware
// (Middleware). Everything except middleware.go is independent of the
// hook that calls it: the conversion between Eino's messages and the
// session log's (convert.go), the tools (tools.go) and the step
// (Skills.rewrite, which takes and returns []*schema.Message).
//
// Eino v0.8 deprecates AgentMiddleware for ChatModelAgentMiddleware in
// ChatModelAgentConfig.Handlers. The design already fits it: its
// BeforeModelRewriteState receives the same ChatModelAgentState.Messages
// and keeps the rewrite for the rest of the Run, as BeforeChatModel does,
// so a second entry point is a value embedding
// adk.BaseChatModelAgentMiddleware whose BeforeAgent appends the same tools
// to ChatModelAgentContext.Tools and whose BeforeModelRewriteState calls
// rewrite, about twenty lines beside middleware.go. The tool wrapper needs
// no WrapInvokableToolCall: the tools are ordinary InvokableTools, and the
// call id still comes from compose.GetToolCallID. From v0.9 Eino stamps
// each message with an id in Extra ("_eino_msg_id"); the conversion
// already hands it to Sync as the message's id, so the session log names
// messages as Eino does.
package skilleino
