package conformance_test

import (
	"context"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/conformance"
	"github.com/skillcatalog/skillcatalog/internal/plugintest"
)

// scenarioDir holds the repository's conformance scenarios.
const scenarioDir = "../../testdata/conformance"

// pluginPath is the real plugin binary, built once by TestMain.
var pluginPath string

func TestMain(m *testing.M) { plugintest.Main(m, &pluginPath) }

func loadAll(t *testing.T) []*conformance.Scenario {
	t.Helper()
	files, err := conformance.Files([]string{scenarioDir})
	if err != nil {
		t.Fatal(err)
	}
	var out []*conformance.Scenario
	for _, f := range files {
		s, err := conformance.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestScenarios runs every scenario of the repository against the plugin.
func TestScenarios(t *testing.T) {
	scenarios := loadAll(t)
	if len(scenarios) < 30 {
		t.Errorf("only %d scenarios; the suite promises at least 30", len(scenarios))
	}
	names := make(map[string]string)
	for _, s := range scenarios {
		if prev, dup := names[s.Name]; dup {
			t.Errorf("scenario name %q is used by %s and %s", s.Name, prev, s.File)
		}
		names[s.Name] = s.File
	}
	// Both hosting modes keep the same contract.
	for _, mode := range []struct {
		name   string
		runner *conformance.Runner
	}{
		{"process", &conformance.Runner{PluginPath: pluginPath}},
		{"in-process", &conformance.Runner{InProcess: true}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			for _, s := range scenarios {
				t.Run(s.Name, func(t *testing.T) {
					res := mode.runner.Run(context.Background(), s)
					for _, f := range res.Failures {
						t.Error(f)
					}
				})
			}
		})
	}
}

func TestScenarioFilesAreDocumented(t *testing.T) {
	for _, s := range loadAll(t) {
		if strings.TrimSpace(s.Description) == "" {
			t.Errorf("%s: scenario has no description", s.File)
		}
	}
}
