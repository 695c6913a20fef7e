package events

import (
	"bytes"
	"encoding/json"
)

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

// IsInvocationKind reports whether source is a JSON object whose "kind" is
// InvocationKind: the source of a message the plugin added for a skill the
// user invoked.
func IsInvocationKind(source []byte) bool {
	if !bytes.Contains(source, []byte(InvocationKind)) {
		return false // most sources are not: skip the decode
	}
	var v struct {
		Kind string `json:"kind"`
	}
	return json.Unmarshal(source, &v) == nil && v.Kind == InvocationKind
}
