// Package skillgenkit adds the skill catalog to Genkit
// (github.com/firebase/genkit/go) generations: the plugin's tools (`skill`,
// and `skill_resource` to read a skill's files) and the catalog of skills
// in the conversation, kept there durably, with a notice appended when a
// skill is added, changed or removed.
//
//	host, err := hostsdk.Open(ctx, &hostsdk.OpenOptions{SkillDirs: dirs, SessionDir: dir})
//	...
//	skills, err := skillgenkit.New(ctx, host, nil)
//	...
//	resp, err := genkit.Generate(skillgenkit.WithSession(ctx, "conversation-1"), g,
//		ai.WithMessages(history...), ai.WithTools(skills.Tools()...), ai.WithMiddleware(skills.Middleware()))
//
// The host lives as long as the skills: a function that sets them up
// returns host.Close for its caller rather than deferring it, since a
// Generate on a closed host fails (hostsdk.ErrClosed).
//
// # Why it works this way
//
// Genkit leaves the conversation to its caller, who passes the history to
// every Generate (ai.WithMessages) and usually keeps resp.History() for the
// next one. A v1.4 model middleware's edit of a request reaches that model
// call only: the tool loop builds its next request from the one it had. So
// before every model call the adapter hands the history it is about to
// send (its system messages set aside) to hostsdk.Session.Sync, which
// appends what is new to the session's log, runs the plugin's step, and
// answers the list to send: the history with every plugin message the
// model has been shown put back in its place. The plugin's messages are
// user messages marked in Message.Metadata with their ids
// (IsPluginMessage); a history that holds them, as resp.History() does,
// has them known by those ids in the session log, left out, and put back
// at their places. A message marked with an id the log never held is the
// caller's, and logged as a warning. After the model call, a final answer (a reply that
// requests no tool) is logged, so the log holds what the model said even
// when the conversation ends there. A restarted process (a new Host and
// adapter on the same session store) republishes nothing; a caller that
// summarises or edits its history is seen as a compaction, and the
// catalog is published again once if the summary hid it; one that passes
// only its last messages has what they lost hidden, and the catalog stays
// first in the conversation.
//
// The tools' definitions never change, and the middleware sends a
// request's tools in the order of their names (Genkit lists them in the
// order of a Go map): a change of skills reaches the model as an appended
// message, and the tools, the system prompt and earlier messages stay byte
// for byte what they were, a prefix the model's prompt cache keeps.
//
// Each Generate takes its session from its context (WithSession) and its
// tools from a call of Tools: Genkit v1.4 writes to a tool made with
// ai.NewTool when a Generate registers it, so concurrent Generates must
// not share one.
//
// # Call ids and tool input
//
// Genkit v1.4 runs a tool with its input alone: ai.ToolContext carries no
// tool request, so no call id (ToolRequest.Ref), and the input it passes
// has its null members dropped. The middleware sees each model response
// before Genkit runs its tools: it gives every tool request without a ref
// a derived one (sha-256 of the session id, the response's position in the
// request's messages, the request's position among the response's parts,
// its name and its input, as "call_" and 24 hex digits; a ref the model
// plugin set is kept), and keeps the requests of the adapter's tools in
// the context's binding. Each tool call takes the pending request with its
// name and input (identical requests in turn), and hands the plugin that
// request's ref and the input as the model sent it (Genkit's own input
// where two requests differ only by null members, which reach the tools
// alike).
//
// Genkit validates a tool's input against the tool's input schema before
// the tool runs, and in v1.4 a failed check, like an error the tool
// returns, ends the Generate. So the Genkit tools have the empty input
// schema, which any JSON value satisfies, and the model is offered the
// plugin's own schema (the middleware puts it into every request): bad
// arguments reach the plugin, and the model reads its fixed error text and
// can try again. A tool that cannot reach the plugin answers the model
// with the failure as text, for the same reason; a failed step calls the
// model without the plugin's additions. Both are logged (Options.Logger).
//
// # Enforced tool grants
//
// On a host opened with hostsdk.Options.ToolGrants (OpenOptions.ToolGrants),
// a skill's tool lists hold while it is active in the Generate's session
// (see the hostsdk package documentation for when that is): the middleware
// offers the model only the tools the grants leave, and a tool whose
// function is wrapped in Guard answers a call the grants withhold with the
// refusal naming the skill instead of running. Genkit runs whatever tool
// the model requests, so wrap the functions of the tools a skill may
// withhold.
//
// # Genkit versions
//
// This module is built against Genkit v1.4 and its ai.ModelMiddleware
// (Middleware). Everything except middleware.go is independent of the
// hook that calls it: the conversion between Genkit's messages and the
// session log's (convert.go), the tools (tools.go), the call ids
// (calls.go) and the steps before and after a model call
// (Skills.prepare, Skills.settle).
//
// Genkit v1.7 deprecates WithMiddleware for ai.WithUse and an
// ai.Middleware whose New(ctx) returns per-Generate ai.Hooks. A second
// entry point is a type beside middleware.go whose New returns Hooks with
// Tools set to the same tools (so ai.WithTools is no longer needed),
// WrapGenerate calling prepare on params.Request and settle on the
// response (v1.7 keeps that edit for the rest of the tool loop and in
// resp.History(); the adapter drops its marked messages before Sync in
// any case, so an edit seen twice is harmless), and WrapTool putting
// params.Request's Ref and Input into the context it passes on, which the
// tool reads before the binding's pending requests; the derived refs
// remain for models that give none. About thirty lines.
package skillgenkit
