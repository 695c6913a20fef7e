package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
)

// modelDriver is the command that runs trigger evals with a model: it
// lives in the hostsdk/modelapi module, with the model SDKs, which this
// module does not depend on.
const modelDriver = "skillcatalog-modeleval"

// runModelDriver runs the cases of args' files with a model, through the
// driver (SKILLCATALOG_MODELEVAL, else modelDriver on PATH), with the
// options it shares with eval, and returns its exit status.
func runModelDriver(ctx context.Context, o evalOptions, args []string, stdout, stderr io.Writer) int {
	var files []string
	for _, a := range args {
		fs, err := evalFiles(a)
		if err != nil {
			fmt.Fprintf(stderr, "skillcatalog eval: %v\n", err)
			return 1
		}
		files = append(files, fs...)
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "skillcatalog eval: -model needs the eval FILEs or skill DIRs")
		return 2
	}
	path := os.Getenv("SKILLCATALOG_MODELEVAL")
	if path == "" {
		var err error
		if path, err = exec.LookPath(modelDriver); err != nil {
			fmt.Fprintf(stderr, "skillcatalog eval: -model runs %s, which is not installed: go install github.com/skillcatalog/skillcatalog/hostsdk/modelapi/cmd/%s@latest\n", modelDriver, modelDriver)
			return 1
		}
	}
	cmd := exec.CommandContext(ctx, path, driverArgs(o, files)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintf(stderr, "skillcatalog eval: run %s: %v\n", path, err)
		return 1
	}
	return 0
}

// driverArgs are the driver's arguments for o and files.
func driverArgs(o evalOptions, files []string) []string {
	args := []string{"-model", o.model, "-runs", strconv.Itoa(o.runs), "-threshold", strconv.FormatFloat(o.threshold, 'g', -1, 64)}
	if o.modelName != "" {
		args = append(args, "-model-name", o.modelName)
	}
	for _, d := range o.explain.skillsDirs {
		args = append(args, "-skills", d)
	}
	for _, f := range [][2]string{{"-home", o.explain.home}, {"-cwd", o.explain.cwd}, {"-skill", o.skill}, {"-relevant-skills", o.explain.relevantSkills}} {
		if f[1] != "" {
			args = append(args, f[0], f[1])
		}
	}
	if o.explain.catalogBudget != 0 {
		args = append(args, "-catalog-budget", strconv.Itoa(o.explain.catalogBudget))
	}
	if o.json {
		args = append(args, "-json")
	}
	return append(append(args, "--"), files...)
}
