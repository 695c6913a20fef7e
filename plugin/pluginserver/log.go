package pluginserver

import (
	"io"
	"log/slog"
)

// hclogTimeFormat is the timestamp layout go-plugin expects in the JSON
// lines it reads from a plugin's stderr.
const hclogTimeFormat = "2006-01-02T15:04:05.000000Z07:00"

// newLogHandler returns a slog handler that writes the JSON lines go-plugin
// takes apart on the host side (@level, @message, @timestamp, then the
// attributes), so the plugin's records reach the host's logger with their
// level and attributes intact.
func newLogHandler(w io.Writer) slog.Handler {
	return slog.NewJSONHandler(w, &slog.HandlerOptions{
		Level: slog.LevelDebug, // the host's logger decides what is kept
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) > 0 {
				return a
			}
			switch a.Key {
			case slog.TimeKey:
				return slog.String("@timestamp", a.Value.Time().Format(hclogTimeFormat))
			case slog.LevelKey:
				return slog.String("@level", hclogLevel(a.Value.Any()))
			case slog.MessageKey:
				return slog.Attr{Key: "@message", Value: a.Value}
			}
			return a
		},
	}).WithAttrs([]slog.Attr{slog.String("@module", "skillcatalog")})
}

// hclogLevel names a slog level the way hclog does; levels between the
// named ones round down.
func hclogLevel(v any) string {
	l, ok := v.(slog.Level)
	if !ok {
		return "info"
	}
	switch {
	case l < slog.LevelDebug:
		return "trace"
	case l < slog.LevelInfo:
		return "debug"
	case l < slog.LevelWarn:
		return "info"
	case l < slog.LevelError:
		return "warn"
	}
	return "error"
}
