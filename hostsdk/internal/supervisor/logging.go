package supervisor

import (
	"context"
	"io"
	"log/slog"

	"github.com/hashicorp/go-hclog"
)

// hclogFor returns the hclog.Logger that go-plugin requires, forwarding
// every record (go-plugin's own and the plugin process's, which go-plugin
// relays from its stderr) to logger.
func hclogFor(logger *slog.Logger, name string) hclog.Logger {
	l := hclog.NewInterceptLogger(&hclog.LoggerOptions{Name: name, Level: hclog.Trace, Output: io.Discard})
	l.RegisterSink(slogSink{logger})
	return l
}

// slogSink hands hclog records to a slog.Logger.
type slogSink struct {
	log *slog.Logger
}

func (s slogSink) Accept(name string, level hclog.Level, msg string, args ...any) {
	var l slog.Level
	switch level {
	case hclog.Trace:
		l = slog.LevelDebug - 4
	case hclog.Debug:
		l = slog.LevelDebug
	case hclog.Warn:
		l = slog.LevelWarn
	case hclog.Error:
		l = slog.LevelError
	default:
		l = slog.LevelInfo
	}
	ctx := context.Background()
	if !s.log.Enabled(ctx, l) {
		return
	}
	s.log.Log(ctx, l, msg, append([]any{"logger", name}, args...)...)
}
