// Package contract is the skill-catalog plugin protocol as Go: the
// protocol's types, the two interfaces every end of it adapts to, and the
// errors that cross it. It holds no rules and knows no transport.
//
//   - [Service] is what a host calls: Configure, BindTools, Unmount, PreStep,
//     ExecuteSkillTool, EndSession and Ping. The engine (package plugin)
//     implements it; so does the gRPC client of a plugin process
//     (internal/wire), so a host drives an in-process engine and a plugin
//     binary through the same seven calls.
//   - [Host] is what a service calls back: Snapshot, GetSkill and ReadEvents,
//     and, optionally, ReadResource ([ResourceReader]). A host hands its Host
//     to [Service.Configure] for each mount; over gRPC the same Host is served
//     on go-plugin's broker and reached through the HostService.
//
// Every message either way is at most [MaxMessageBytes]; an end that meets a
// larger one fails the call with an error matching [ErrMessageTooLarge].
//
// # Whose fault a failure is
//
// A Service call that failed because of the host's side (a Host callback
// returned an error or was still running when the call's deadline passed, a
// provider could not load a skill the user invoked, a callback answered
// with something this contract does not allow) returns an error that
// matches [ErrHostFailed]. The caller's own cancellation or deadline matches
// context.Canceled or context.DeadlineExceeded. Anything else is the
// service's own failure. So a host decides whom to blame with one
// errors.Is(err, ErrHostFailed) besides what its transport says about
// itself (a process that died). Over gRPC the mark is the status code
// ABORTED (see proto/HOSTS.md).
//
// # Adding a field
//
// A field of a request or an answer is added in one place per layer: the
// type here (or, for a skill's summary and definition, in package skill),
// the message in proto/skillcatalog/v1, and one conversion in each
// direction in internal/wire. The engine and the host SDK pass the types
// through whole; only the code that gives the field a meaning changes.
//
// Package contracttest runs any Service against the contract with a
// scriptable fake Host.
package contract
