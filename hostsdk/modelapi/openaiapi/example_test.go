package openaiapi_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/openaiapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// ChatTools gives the Chat Completions API the tools an agent sees, here
// the plugin's `skill` tool as a host's tool tree resolves it, as function
// tools with their parameters schema byte for byte.
func ExampleChatTools() {
	offered := []tools.ResolvedTool{{Definition: tools.Definition{
		Name:        "skill",
		Description: "Load a skill's instructions by name.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
	}}}
	params, err := openaiapi.ChatTools(offered)
	if err != nil {
		log.Fatal(err)
	}
	out, err := json.Marshal(params)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out))
	// Output:
	// [{"function":{"description":"Load a skill's instructions by name.","name":"skill","parameters":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}},"type":"function"}]
}

// ChatMessage reads a Chat Completions response back as an assistant
// message, its function calls "tool_use" blocks; modelapi.Calls turns them
// into the calls a host runs. The response here is the JSON the API
// answers with.
func ExampleChatMessage() {
	body := `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-5",
		"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
			"tool_calls":[{"id":"call_1","type":"function","function":{"name":"skill","arguments":"{\"name\":\"pdf-forms\"}"}}]}}]}`
	var resp openai.ChatCompletion
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		log.Fatal(err)
	}
	msg, err := openaiapi.ChatMessage(&resp)
	if err != nil {
		log.Fatal(err)
	}
	for _, call := range modelapi.Calls(msg) {
		fmt.Println(call.CallID, call.Name, string(call.Arguments))
	}
	// Output:
	// call_1 skill {"name":"pdf-forms"}
}

// ResponsesMessage does the same for a Responses API response.
func ExampleResponsesMessage() {
	body := `{"id":"resp_1","object":"response","created_at":1,"model":"gpt-5","status":"completed",
		"output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"skill","arguments":"{\"name\":\"pdf-forms\"}","status":"completed"}]}`
	var resp responses.Response
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		log.Fatal(err)
	}
	msg, err := openaiapi.ResponsesMessage(&resp)
	if err != nil {
		log.Fatal(err)
	}
	for _, call := range modelapi.Calls(msg) {
		fmt.Println(call.CallID, call.Name, string(call.Arguments))
	}
	// Output:
	// call_1 skill {"name":"pdf-forms"}
}
