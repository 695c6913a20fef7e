package anthropicapi_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/anthropicapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// Tools gives the Messages API the tools an agent sees, here the plugin's
// `skill` tool as a host's tool tree resolves it: name, description and
// input schema, byte for byte.
func ExampleTools() {
	offered := []tools.ResolvedTool{{Definition: tools.Definition{
		Name:        "skill",
		Description: "Load a skill's instructions by name.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
	}}}
	params := anthropicapi.Tools(offered)
	out, err := json.Marshal(params)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out))
	// Output:
	// [{"input_schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]},"name":"skill","description":"Load a skill's instructions by name."}]
}

// Message reads the model's response back as an assistant message, its
// tool calls "tool_use" blocks; modelapi.Calls turns them into the calls a
// host runs. The response here is the JSON the Messages API answers with.
func ExampleMessage() {
	body := `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","stop_reason":"tool_use",
		"content":[{"type":"text","text":"I'll load the skill."},{"type":"tool_use","id":"toolu_1","name":"skill","input":{"name":"pdf-forms"}}],
		"usage":{"input_tokens":10,"output_tokens":5}}`
	var resp anthropic.Message
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		log.Fatal(err)
	}
	msg, err := anthropicapi.Message(&resp)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Role, msg.Text())
	for _, call := range modelapi.Calls(msg) {
		fmt.Println(call.CallID, call.Name, string(call.Arguments))
	}
	// Output:
	// assistant I'll load the skill.
	// toolu_1 skill {"name":"pdf-forms"}
}
