// Command testall runs go vet and go test in every Go module of the
// repository: the root module and the adapter modules beside it
// (hostsdk/modelapi, hostsdk/eino, ...), each of which has its own go.mod
// so that the core never depends on a model SDK or an agent framework.
// Arguments are passed to go test, so
//
//	go run ./internal/testall -race
//
// is the whole suite. It stops at nothing: every module is tested, and the
// exit status is non-zero when any failed. The build tools' module
// (proto/tools) and anything under testdata are not test modules.
//
// A package whose tests were skipped for want of what they need (see
// internal/testneeds) prints a line saying so among the ok lines; testall
// repeats those lines at the end, where they are not lost in the output of
// the modules after it.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/skillcatalog/skillcatalog/internal/testneeds"
)

func main() {
	os.Exit(run())
}

func run() int {
	modules, err := findModules(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testall:", err)
		return 2
	}
	summary, err := os.CreateTemp("", "testall-skipped")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testall:", err)
		return 2
	}
	summary.Close()
	defer os.Remove(summary.Name())
	env := append(os.Environ(), testneeds.SummaryVar+"="+summary.Name())

	failed := 0
	for _, dir := range modules {
		fmt.Printf("== %s\n", dir)
		for _, args := range [][]string{{"vet", "./..."}, append(append([]string{"test"}, os.Args[1:]...), "./...")} {
			cmd := exec.Command("go", args...)
			cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Env = dir, os.Stdout, os.Stderr, env
			if err := cmd.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "testall: go %s in %s: %v\n", strings.Join(args, " "), dir, err)
				failed++
			}
		}
	}
	if skipped, err := os.ReadFile(summary.Name()); err == nil && len(skipped) > 0 {
		fmt.Printf("== tests skipped for want of what they need\n%s", skipped)
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "testall: %d of %d modules' commands failed\n", failed, 2*len(modules))
		return 1
	}
	return 0
}

// findModules returns the directories below root that hold a go.mod, root
// first, leaving out the build tools' module, testdata and node_modules.
func findModules(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", ".git":
				return filepath.SkipDir
			}
			if filepath.ToSlash(path) == "proto/tools" {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "go.mod" {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("find the modules: %w", err)
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("no go.mod below %s: run it from the repository root", root)
	}
	return dirs, nil
}
