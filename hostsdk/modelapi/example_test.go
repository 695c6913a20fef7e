package modelapi_test

import (
	"fmt"
	"log"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
)

// Calls reads the tool calls of the model's reply (any adapter's) as the
// calls a host runs through its Session, and ResultMessage carries their results back in one
// message, which each adapter turns into its API's tool-result form.
func ExampleCalls() {
	use, err := modelapi.ToolUseBlock("call_1", "skill", `{"name": "pdf-forms"}`)
	if err != nil {
		log.Fatal(err)
	}
	reply := hostsdk.Message{Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("Loading it."), use}}
	calls := modelapi.Calls(reply)
	for _, c := range calls {
		fmt.Println(c.CallID, c.Name, string(c.Arguments))
	}

	// The host runs each call and answers it with its result.
	result := modelapi.Result{CallID: calls[0].CallID, Result: hostsdk.ToolResult{Text: "Read the form's fields first."}}
	msg, err := modelapi.ResultMessage("result-1", result)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Role, len(msg.Content), msg.Content[0].Type)
	// Output:
	// call_1 skill {"name":"pdf-forms"}
	// tool 1 tool_result
}
