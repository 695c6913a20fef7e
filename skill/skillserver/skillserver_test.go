package skillserver_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog"
	"github.com/skillcatalog/skillcatalog/skill/mcpskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// The example skills served over streamable HTTP are what the MCP provider
// lists and loads.
func TestServesExamplesToTheProvider(t *testing.T) {
	handler, err := skillserver.New(skillcatalog.ExampleSkills()).HTTPHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	defer srv.Close()
	p, err := mcpskills.New(&mcpskills.Options{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	obs, err := p.List(ctx, skills.ListRequest{SessionID: "s1"})
	if err != nil || !obs.Complete {
		t.Fatalf("List = %+v, %v", obs, err)
	}
	var names []string
	for _, s := range obs.Skills {
		names = append(names, s.Name)
	}
	// deploy-production is not model-invocable, so it is not published.
	if diff := cmp.Diff([]string{"commit-messages", "pdf-forms", "release-notes"}, names); diff != "" {
		t.Errorf("listed skills (-want +got):\n%s", diff)
	}
	def, found, err := p.Load(ctx, skills.LoadRequest{SessionID: "s1", Name: "pdf-forms"})
	if err != nil || !found {
		t.Fatalf("Load = %v, %v", found, err)
	}
	if !strings.HasPrefix(def.Content, "# PDF forms") {
		t.Errorf("content = %q, want the body without frontmatter", def.Content)
	}
	if _, found, _ := p.Load(ctx, skills.LoadRequest{SessionID: "s1", Name: "deploy-production"}); found {
		t.Error("a skill kept from the model was served")
	}
}
