package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/modeltext"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// demoReads returns the demo's skill_resource events.
func demoReads(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), append([]string{"demo", "-json"}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("demo exited %d: %s", code, stderr.String())
	}
	var reads []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line is not JSON: %q: %v", line, err)
		}
		if ev["event"] == "tool" && ev["tool"] == "skill_resource" {
			reads = append(reads, ev)
		}
	}
	return reads
}

// TestDemoReadsALocalSkillsFile: without a remote server the demo reads the
// file the example pdf-forms skill refers to first.
func TestDemoReadsALocalSkillsFile(t *testing.T) {
	reads := demoReads(t)
	if len(reads) != 1 {
		t.Fatalf("%d skill_resource calls, want 1", len(reads))
	}
	want, err := os.ReadFile("../../testdata/skills/pdf-forms/scripts/list_fields.py")
	if err != nil {
		t.Fatal(err)
	}
	value, _ := reads[0]["value"].(map[string]any)
	if reads[0]["isError"] != false || value["name"] != "pdf-forms" || value["path"] != "scripts/list_fields.py" || value["content"] != string(want) {
		t.Errorf("read = %v", reads[0])
	}
}

// TestDemoReadsARemoteSkillsScript: with the remote example skills served
// over MCP, the demo reads data-export's script through the host; the page
// names the server (the demo's default label) and shows the script
// escaped, which unescapes to the file.
func TestDemoReadsARemoteSkillsScript(t *testing.T) {
	handler, err := skillserver.New(os.DirFS("../../testdata/remote-skills")).HTTPHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	defer srv.Close()
	reads := demoReads(t, "-mcp-url", srv.URL)
	if len(reads) != 1 {
		t.Fatalf("%d skill_resource calls, want 1", len(reads))
	}
	want, err := os.ReadFile("../../testdata/remote-skills/data-export/scripts/export_csv.py")
	if err != nil {
		t.Fatal(err)
	}
	value, _ := reads[0]["value"].(map[string]any)
	if reads[0]["isError"] != false || value["name"] != "data-export" || value["path"] != "scripts/export_csv.py" || value["content"] != string(want) {
		t.Errorf("read = %v", reads[0])
	}
	text, _ := reads[0]["text"].(string)
	if !strings.HasPrefix(text, `<skill_resource name="data-export" mcp_server="mcp" path="scripts/export_csv.py" offset="0" bytes="1100" total_bytes="1100">`) {
		t.Errorf("text = %.200q", text)
	}
	if shown, err := modeltext.RemoteResourcePage(text, "data-export", modeltext.MCPServer("mcp")); err != nil || modeltext.Unescape(shown) != string(want) {
		t.Errorf("page %v:\n%s", err, text)
	}
}
