package plugin

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// BenchmarkResourcePage: one 8 KB page from the middle of an 8 MiB
// resource, the largest the tool reads: checking the arguments, the
// listing, the host's window and the page cut, without the host's own read.
func BenchmarkResourcePage(b *testing.B) {
	file := strings.Repeat("données € ✓ 0123456789\n", skill.MaxResourceBytes/28)
	h := newResHost(summary("alpha", "A."))
	h.files["alpha/big.txt"] = file
	e := newEngine()
	args := []byte(`{"name":"alpha","path":"big.txt","offset":` + strconv.Itoa(len(file)/2) + `}`)
	ctx := context.Background()
	b.SetBytes(render.ResourcePageBytes)
	b.ReportAllocs()
	for b.Loop() {
		h.asked = h.asked[:0]
		res, err := e.executeResourceTool(ctx, h, resourceMount(), contract.ToolCall{Arguments: args})
		if err != nil || res.IsError {
			b.Fatal(res.Text, err)
		}
	}
}
