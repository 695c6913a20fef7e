package hostsdk

import (
	"bytes"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// A `skill` tool result carries the plugin's record of the load
// (ToolResult.Source): stored as the source of the message that carries
// the result, it lets a later step attach the skill's instructions again
// once a compaction hides that message. A runtime that builds its own
// messages sets it (Message.Source = result.Source); for a framework whose
// tools return text only (Eino, Genkit), the Session remembers the record
// by call id and Sync sets it on the framework's tool-result message.

// noteLoad remembers the load record of a tool call's result, by its call
// id, for Sync.
func (st *session) noteLoad(callID string, source []byte) {
	if callID == "" || len(source) == 0 {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.loads == nil {
		st.loads = make(map[string][]byte)
	}
	if _, ok := st.loads[callID]; !ok && len(st.loads) >= maxPendingLoads {
		for k := range st.loads { // any one: a framework hands results on at once
			delete(st.loads, k)
			break
		}
	}
	st.loads[callID] = bytes.Clone(source)
}

// withLoadSources sets, on the messages without a source that carry the
// result of a call whose load record the session remembers, that record,
// and forgets it. msgs is changed in place.
func (st *session) withLoadSources(msgs []Message) []Message {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.loads) == 0 {
		return msgs
	}
	for i := range msgs {
		if msgs[i].Source != nil || msgs[i].Role == contract.RoleAssistant {
			continue
		}
		for _, c := range msgs[i].Content {
			out, ok := c.ToolResult()
			if !ok {
				continue
			}
			if src, ok := st.loads[out.CallID]; ok {
				msgs[i].Source = src
				delete(st.loads, out.CallID)
				break
			}
		}
	}
	return msgs
}
