package pluginserver

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"slices"
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

// TestLibraryLogLinesGetALevel: a line of the standard log package gets
// the level its bracketed prefix names (go-plugin writes "[ERR] ..."),
// info without one; gRPC's log gets its severities, from the one
// GRPC_GO_LOG_SEVERITY_LEVEL names up (error by default).
func TestLibraryLogLinesGetALevel(t *testing.T) {
	for _, tc := range []struct{ line, level, msg string }{
		{"[ERR] plugin: stream copy 'stderr' error: closed", "error", "plugin: stream copy 'stderr' error: closed"},
		{"[ERR]: error listening for knocks", "error", "error listening for knocks"},
		{"[WARN] slow", "warn", "slow"},
		{"[DEBUG] detail", "debug", "detail"},
		{"[TRACE] finer", "trace", "finer"},
		{"no prefix at all", "info", "no prefix at all"},
	} {
		var buf bytes.Buffer
		prefixedLevelWriter{slog.New(newLogHandler(&buf))}.Write([]byte(tc.line + "\n"))
		var got map[string]any
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil || got["@level"] != tc.level || got["@message"] != tc.msg {
			t.Errorf("%q: logged %s (%v), want @level %q and @message %q", tc.line, buf.Bytes(), err, tc.level, tc.msg)
		}
	}
	for _, tc := range []struct {
		env  string
		want []string
	}{
		{"", []string{"error"}},
		{"warning", []string{"warn", "error"}},
		{"INFO", []string{"info", "warn", "error"}},
	} {
		var buf bytes.Buffer
		g := newGRPCLogger(slog.New(newLogHandler(&buf)), func(k string) string {
			if k == "GRPC_GO_LOG_SEVERITY_LEVEL" {
				return tc.env
			}
			return ""
		})
		g.Info("i")
		g.Warningf("w %d", 1)
		g.Errorln("e")
		var levels []string
		for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
			var rec map[string]any
			if err := json.Unmarshal(line, &rec); err != nil {
				t.Fatalf("severity %q: not a JSON line: %s", tc.env, line)
			}
			levels = append(levels, rec["@level"].(string))
		}
		if !slices.Equal(levels, tc.want) {
			t.Errorf("severity %q: logged at %v, want %v", tc.env, levels, tc.want)
		}
		if g.V(1) {
			t.Errorf("severity %q: verbosity 1 logged without GRPC_GO_LOG_VERBOSITY_LEVEL", tc.env)
		}
	}
}
