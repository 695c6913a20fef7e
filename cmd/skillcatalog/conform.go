package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk/conformance"
)

// defaultConformanceDir is where the conformance scenarios live in the
// repository.
const defaultConformanceDir = "testdata/conformance"

const conformUsage = `Usage: skillcatalog conform (-plugin PATH | -in-process) [-run REGEXP] [FILE|DIR ...]

Runs conformance scenarios against a plugin binary through the host SDK and
prints one line per scenario (PASS name, or FAIL name and what differed),
then "N passed, N failed". A directory stands for every .yaml/.yml file
below it; the default is ` + defaultConformanceDir + `.

Exit status: 0 when every scenario passed, 1 when one failed or a scenario
file could not be read or parsed, 2 on a usage error.

Flags:
`

// conformCommand implements `skillcatalog conform`.
func conformCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform", flag.ContinueOnError)
	pluginPath := fs.String("plugin", "", "the plugin binary to test (required unless -in-process)")
	inProcess := fs.Bool("in-process", false, "test the plugin's rules in this process instead of a binary")
	run := fs.String("run", "", "run only scenarios whose name matches this regular expression")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), conformUsage)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	switch {
	case *inProcess && *pluginPath != "":
		return usageError(fs, stderr, "-plugin and -in-process exclude each other")
	case !*inProcess && *pluginPath == "":
		return usageError(fs, stderr, "-plugin PATH or -in-process is required")
	case !*inProcess:
		info, err := os.Stat(*pluginPath)
		if err != nil || info.IsDir() {
			fmt.Fprintf(stderr, "skillcatalog conform: -plugin %s is not a plugin binary: %v\n", *pluginPath, statProblem(err))
			return 2
		}
	}
	var filter *regexp.Regexp
	if *run != "" {
		var err error
		if filter, err = regexp.Compile(*run); err != nil {
			fmt.Fprintf(stderr, "skillcatalog conform: -run: %v\n", err)
			return 2
		}
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{defaultConformanceDir}
	}
	var files []string
	for _, p := range paths {
		found, err := conformance.Files([]string{p})
		if err != nil {
			// Reported (and counted as failed) like a file that does not parse.
			found = []string{p}
		}
		files = append(files, found...)
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "skillcatalog conform: no scenario files in %s\n", strings.Join(paths, " "))
		return 2
	}

	var match func(string) bool
	if filter != nil {
		match = filter.MatchString
	}
	runner := &conformance.Runner{PluginPath: *pluginPath, InProcess: *inProcess}
	if _, failed := runner.RunFiles(ctx, files, match, stdout); failed > 0 {
		return 1
	}
	return 0
}

func statProblem(err error) string {
	if err == nil {
		return "it is a directory"
	}
	return err.Error()
}
