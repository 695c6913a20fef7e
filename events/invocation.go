package events

import (
	"bytes"
	"encoding/json"
)

// invocationKind is the "kind" of the source of a message that carries a
// skill the user invoked by name. Such sources are foreign to the catalog
// rules: they neither count as a published catalog nor hide one.
const invocationKind = "skill-invocation"

// EncodeInvocation returns the durable source of the message that carries
// the skill name invoked by the user, whose instructions have the
// ContentDigest d: {"kind":"skill-invocation","name":...,"digest":...}. The
// digest lets a step that attaches the skill again after a compaction say
// whether it changed since; an empty d leaves the member out, as records of
// earlier versions have none (ParseLoads reads both).
func EncodeInvocation(name, d string) []byte {
	return EncodeInvocationVersion(name, d, "")
}

// EncodeInvocationVersion is EncodeInvocation naming, besides, the content
// digest of the version invoked (Loaded.ContentDigest); an empty one, or
// one of another form, is left out, and the record is EncodeInvocation's.
func EncodeInvocationVersion(name, d, contentDigest string) []byte {
	contentDigest = validOrEmpty(contentDigest)
	b, err := json.Marshal(struct {
		Kind          string `json:"kind"`
		Name          string `json:"name"`
		Digest        string `json:"digest,omitempty"`
		ContentDigest string `json:"content_digest,omitempty"`
	}{invocationKind, name, d, contentDigest})
	if err != nil {
		// Marshalling strings cannot fail.
		panic(err)
	}
	return b
}

// IsInvocationKind reports whether source is a JSON object whose "kind" is
// invocationKind: the source of a message the plugin added for a skill the
// user invoked.
func IsInvocationKind(source []byte) bool {
	if !bytes.Contains(source, []byte(invocationKind)) {
		return false // most sources are not: skip the decode
	}
	var v struct {
		Kind string `json:"kind"`
	}
	return json.Unmarshal(source, &v) == nil && v.Kind == invocationKind
}
