package pluginserver

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

// checkedIfAsked wraps svc in a hostcheck.Checker when the host started
// the plugin with hostcheck.ReportEnv in its environment; the checker's
// report is rewritten to that file after every call that checked
// something, so it survives however the host ends the process.
func checkedIfAsked(svc contract.Service, logger *slog.Logger) contract.Service {
	path := os.Getenv(hostcheck.ReportEnv)
	if path == "" {
		return svc
	}
	logger.Info("checking the host's callbacks", "report", path)
	write := func(r hostcheck.Report) {
		if err := writeReport(path, r); err != nil {
			logger.Error("write the host-check report", "report", path, "err", err)
		}
	}
	write(hostcheck.Report{})
	return hostcheck.New(write).Service(svc)
}

// writeReport replaces the report at path whole: a reader sees the old
// report or the new one, never a part.
func writeReport(path string, r hostcheck.Report) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".hostcheck-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace the report: %w", err)
	}
	return nil
}
