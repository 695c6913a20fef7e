package skillcatalog

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The top level is fixed by the design: the folders below, nothing else.
func TestTopLevelFolders(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			got = append(got, e.Name())
		}
	}
	want := []string{"cmd", "digest", "events", "hostsdk", "internal", "plugin", "proto", "render", "skill", "testdata"}
	if !slices.Equal(got, want) {
		t.Errorf("top-level folders = %v, want %v", got, want)
	}
}

// The plugin binary links nothing of the host SDK: the skill sources both
// ends use live under skill/, the host's own packages under hostsdk/.
func TestPluginLinksNoHostSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/skillcatalog-plugin").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/skillcatalog/skillcatalog/hostsdk") {
			t.Errorf("the plugin binary links %s", pkg)
		}
	}
}
