package events

import "encoding/json"

// InvocationKind is the "kind" of the source of a message that carries a
// skill the user invoked by name. Such sources are foreign to the catalog
// rules: they neither count as a published catalog nor hide one.
const InvocationKind = "skill-invocation"

// EncodeInvocation returns the durable source of the message that carries
// the skill name invoked by the user: {"kind":"skill-invocation","name":...}.
func EncodeInvocation(name string) []byte {
	b, err := json.Marshal(struct {
		Kind string `json:"kind"`
		Name string `json:"name"`
	}{InvocationKind, name})
	if err != nil {
		// Marshalling two strings cannot fail.
		panic(err)
	}
	return b
}
