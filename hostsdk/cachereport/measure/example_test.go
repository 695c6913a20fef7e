package measure_test

import (
	"fmt"
	"log"

	"github.com/skillcatalog/skillcatalog/hostsdk/cachereport/measure"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
)

// Measure says what a prompt cache makes of a conversation's requests:
// here three requests whose conversation only grows, as the plugin keeps
// it, so that each holds the one before as its prefix, read back from the
// cache under OpenAI's automatic caching.
func ExampleMeasure() {
	bodies := []string{
		`{"messages":[{"role":"user","content":"Fill in the form."}]}`,
		`{"messages":[{"role":"user","content":"Fill in the form."},{"role":"assistant","content":"Done."}]}`,
		`{"messages":[{"role":"user","content":"Fill in the form."},{"role":"assistant","content":"Done."},{"role":"user","content":"Thanks."}]}`,
	}
	var reqs []modelapi.Prompt
	for _, b := range bodies {
		p, err := modelapi.PromptOf([]byte(b), "messages")
		if err != nil {
			log.Fatal(err)
		}
		reqs = append(reqs, p)
	}
	res := measure.Measure(reqs, measure.Automatic)
	fmt.Printf("%d of %d bytes read from the cache; requests that broke the prefix: %d\n", res.Cached, res.Bytes, res.Broken)
	// Output:
	// 149 of 279 bytes read from the cache; requests that broke the prefix: 0
}
