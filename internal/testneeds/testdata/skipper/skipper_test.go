// Package skipper is a package whose one test lacks a prerequisite, for
// the tests of testneeds to run go test on.
package skipper

import (
	"errors"
	"os"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/testneeds"
)

func TestMain(m *testing.M) {
	os.Exit(testneeds.Report(m.Run()))
}

func TestRuns(t *testing.T) {}

func TestNeedsWidget(t *testing.T) {
	testneeds.Skip(t, "a widget", errors.New("no widget here"))
}
