package pluginserver

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"

	"github.com/skillcatalog/skillcatalog/internal/hostcheckrelay"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

// standIn is what the plugin binary does when a host under check started
// it (hostcheck.RelayEnv is set): it has the checker start the plugin in
// its place, on its standard input, output and error, and returns the
// exit status to exit with, the plugin's. It exits at once, and the
// checker kills the plugin, when the host is gone.
func standIn(path string, logger *slog.Logger) int {
	defer watchHost(hostCheckInterval, os.Getppid, exitOrphaned(logger))()
	code, err := hostcheckrelay.Stub(path, os.Environ())
	if err != nil {
		logger.Error("hand the host to the host checker's plugin", "checker", path, "err", err)
	}
	return code
}

// checkedIfAsked wraps svc in a hostcheck.Checker when the host checker
// started this process with hostcheck.ReportFDEnv in its environment: the
// checker's report is written, one JSON value a line, to that descriptor
// after every call that checked something, so the checker holds the latest
// however the process ends.
func checkedIfAsked(svc contract.Service, logger *slog.Logger) contract.Service {
	v := os.Getenv(hostcheck.ReportFDEnv)
	if v == "" {
		return svc
	}
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		logger.Error("not checking the host: the report's descriptor is not one above standard error", hostcheck.ReportFDEnv, v)
		return svc
	}
	logger.Info("checking the host's callbacks")
	w := &reportWriter{enc: json.NewEncoder(os.NewFile(uintptr(fd), "hostcheck-report")), logger: logger}
	w.checker = hostcheck.New(w.write)
	w.write(hostcheck.Report{})
	return w.checker.Service(svc)
}

// reportWriter writes the checker's report, the newest last: calls that
// change it may race, so each write takes the report as it is then.
type reportWriter struct {
	mu      sync.Mutex
	enc     *json.Encoder
	checker *hostcheck.Checker
	logger  *slog.Logger
	failed  bool
}

func (w *reportWriter) write(hostcheck.Report) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failed {
		return
	}
	if err := w.enc.Encode(w.checker.Report()); err != nil {
		w.failed = true
		w.logger.Error("write the host-check report", "err", fmt.Errorf("report descriptor: %w", err))
	}
}
