package pluginserver

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"google.golang.org/grpc/grpclog"
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
		Level: slog.LevelDebug - 4, // trace and up: the host's logger decides what is kept
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

// routeLibraryLogs sends what the libraries the plugin runs log on their
// own through logger, as JSON lines with a level like the plugin's: the
// standard library's log package (go-plugin's broker and stream errors,
// "[ERR] ..."), at the level its bracketed prefix names, and gRPC's log,
// at its severities, as much of it as GRPC_GO_LOG_SEVERITY_LEVEL and
// GRPC_GO_LOG_VERBOSITY_LEVEL ask for (errors alone by default, as gRPC
// does). go-plugin logs a plain line of the plugin's stderr at debug,
// whatever it says, and both wrote plain lines. It sets process-wide
// loggers: the plugin process is its own, and this runs first in Serve,
// before gRPC logs anything.
func routeLibraryLogs(logger *slog.Logger, getenv func(string) string) {
	log.SetFlags(0)
	log.SetPrefix("")
	log.SetOutput(prefixedLevelWriter{logger})
	grpclog.SetLoggerV2(newGRPCLogger(logger, getenv))
}

// prefixedLevelWriter logs each line written to it at the level its
// prefix names ([TRACE], [DEBUG], [INFO], [WARN], [ERR] or [ERROR], as
// go-plugin and hclog write them), info when it names none.
type prefixedLevelWriter struct{ logger *slog.Logger }

func (w prefixedLevelWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		level, msg := prefixLevel(line)
		w.logger.Log(context.Background(), level, msg)
	}
	return len(p), nil
}

// prefixLevel reads the level a log line's bracketed prefix names and
// returns the line without it.
func prefixLevel(line string) (slog.Level, string) {
	for _, p := range []struct {
		prefix string
		level  slog.Level
	}{
		{"[TRACE]", slog.LevelDebug - 4}, {"[DEBUG]", slog.LevelDebug}, {"[INFO]", slog.LevelInfo},
		{"[WARN]", slog.LevelWarn}, {"[ERR]", slog.LevelError}, {"[ERROR]", slog.LevelError},
	} {
		if rest, ok := strings.CutPrefix(line, p.prefix); ok {
			return p.level, strings.TrimSpace(strings.TrimPrefix(rest, ":"))
		}
	}
	return slog.LevelInfo, line
}

// grpcLogger is a grpclog.LoggerV2 that logs through a slog logger, from
// the severity up that GRPC_GO_LOG_SEVERITY_LEVEL names (error when it
// names none) and with GRPC_GO_LOG_VERBOSITY_LEVEL's verbosity, as gRPC's
// own logger reads them.
type grpcLogger struct {
	logger    *slog.Logger
	min       slog.Level
	verbosity int
}

func newGRPCLogger(logger *slog.Logger, getenv func(string) string) *grpcLogger {
	g := &grpcLogger{logger: logger, min: slog.LevelError}
	switch strings.ToLower(getenv("GRPC_GO_LOG_SEVERITY_LEVEL")) {
	case "warning":
		g.min = slog.LevelWarn
	case "info":
		g.min = slog.LevelInfo
	}
	g.verbosity, _ = strconv.Atoi(getenv("GRPC_GO_LOG_VERBOSITY_LEVEL"))
	return g
}

func (g *grpcLogger) log(level slog.Level, msg string) {
	if level >= g.min {
		g.logger.Log(context.Background(), level, "grpc: "+strings.TrimRight(msg, "\n"))
	}
}

func (g *grpcLogger) Info(args ...any)   { g.log(slog.LevelInfo, fmt.Sprint(args...)) }
func (g *grpcLogger) Infoln(args ...any) { g.log(slog.LevelInfo, fmt.Sprintln(args...)) }
func (g *grpcLogger) Infof(format string, args ...any) {
	g.log(slog.LevelInfo, fmt.Sprintf(format, args...))
}
func (g *grpcLogger) Warning(args ...any)   { g.log(slog.LevelWarn, fmt.Sprint(args...)) }
func (g *grpcLogger) Warningln(args ...any) { g.log(slog.LevelWarn, fmt.Sprintln(args...)) }
func (g *grpcLogger) Warningf(format string, args ...any) {
	g.log(slog.LevelWarn, fmt.Sprintf(format, args...))
}
func (g *grpcLogger) Error(args ...any)   { g.log(slog.LevelError, fmt.Sprint(args...)) }
func (g *grpcLogger) Errorln(args ...any) { g.log(slog.LevelError, fmt.Sprintln(args...)) }
func (g *grpcLogger) Errorf(format string, args ...any) {
	g.log(slog.LevelError, fmt.Sprintf(format, args...))
}

// Fatal logs at error, whatever the severity asked for, and exits, as
// gRPC's own logger does.
func (g *grpcLogger) Fatal(args ...any) { g.fatal(fmt.Sprint(args...)) }
func (g *grpcLogger) Fatalln(args ...any) {
	g.fatal(fmt.Sprintln(args...))
}
func (g *grpcLogger) Fatalf(format string, args ...any) { g.fatal(fmt.Sprintf(format, args...)) }

func (g *grpcLogger) fatal(msg string) {
	g.logger.Error("grpc: " + strings.TrimRight(msg, "\n"))
	os.Exit(1)
}

// V reports whether verbosity level l is logged.
func (g *grpcLogger) V(l int) bool { return l <= g.verbosity }
