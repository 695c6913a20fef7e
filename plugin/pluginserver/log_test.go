package pluginserver

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLogLinesAreHclogJSON: a record becomes the JSON line go-plugin reads
// from a plugin's stderr: the top-level time, level and message under
// hclog's keys, the module, and attributes as they are, where an
// attribute inside a group keeps its key even when it is one of slog's own.
func TestLogLinesAreHclogJSON(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(newLogHandler(&buf))
	logger.Warn("mounted", "mount", "m1", slog.Group("g", "msg", "inner", "level", "low"))

	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("not one JSON line: %v\n%s", err, buf.Bytes())
	}
	if _, ok := line["@timestamp"].(string); !ok {
		t.Errorf("no @timestamp string in %s", buf.Bytes())
	}
	delete(line, "@timestamp")
	want := map[string]any{
		"@level":   "warn",
		"@message": "mounted",
		"@module":  "skillcatalog",
		"mount":    "m1",
		"g":        map[string]any{"msg": "inner", "level": "low"},
	}
	if diff := cmp.Diff(want, line); diff != "" {
		t.Errorf("log line (-want +got):\n%s", diff)
	}
}

func TestHclogLevelNames(t *testing.T) {
	for _, tc := range []struct {
		level any
		want  string
	}{
		{slog.LevelDebug - 1, "trace"},
		{slog.LevelDebug, "debug"},
		{slog.LevelInfo - 1, "debug"},
		{slog.LevelInfo, "info"},
		{slog.LevelWarn - 1, "info"},
		{slog.LevelWarn, "warn"},
		{slog.LevelError - 1, "warn"},
		{slog.LevelError, "error"},
		{slog.LevelError + 4, "error"},
		{"not a level", "info"},
	} {
		if got := hclogLevel(tc.level); got != tc.want {
			t.Errorf("hclogLevel(%v) = %q, want %q", tc.level, got, tc.want)
		}
	}
}
