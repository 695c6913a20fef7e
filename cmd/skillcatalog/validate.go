package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/triggereval"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// presetFlags collects repeated -preset flags.
type presetFlags []agentskills.Preset

func (p *presetFlags) String() string {
	var s []string
	for _, v := range *p {
		s = append(s, string(v))
	}
	return strings.Join(s, ",")
}

// Set adds the preset v; "none" asks for no preset, which a command whose
// default is every preset (explain) tells from no -preset flag.
func (p *presetFlags) Set(v string) error {
	if v == "none" {
		if *p == nil {
			*p = presetFlags{}
		}
		return nil
	}
	if !slices.Contains(agentskills.Presets(), agentskills.Preset(v)) {
		return fmt.Errorf("unknown preset %q; the presets are %s", v, presetNames())
	}
	*p = append(*p, agentskills.Preset(v))
	return nil
}

func presetNames() string {
	var s []string
	for _, p := range agentskills.Presets() {
		s = append(s, string(p))
	}
	return strings.Join(s, ", ")
}

// validateReport is the -json output of validate.
type validateReport struct {
	// Valid is true when every skill checked meets the specification.
	Valid  bool              `json:"valid"`
	Skills []validatedSkill  `json:"skills"`
	Errors []validateProblem `json:"errors"` // arguments that hold no skill
	// Scan says which directories were checked, how many of their skills
	// skillcatalog loads, and which it skips and why, as demo, explain
	// and serve-mcp say it.
	Scan agentskills.Survey `json:"scan"`
}

// validatedSkill is one skill directory checked.
type validatedSkill struct {
	Path  string `json:"path"` // the skill directory, as given or found
	Valid bool   `json:"valid"`
	agentskills.SpecCheck
	// Served says whether serve-mcp serves the skill; NotServed says why
	// not.
	Served    bool   `json:"served"`
	NotServed string `json:"notServed,omitempty"`
	// Catalog says, for a skill skillcatalog loads, what a catalog
	// mounted with -description-max-length shows of its description.
	Catalog *catalogShown `json:"catalog,omitempty"`
	// Notes, with -strict, are what the skill lacks that the
	// specification does not require: a trigger-eval file.
	Notes []string `json:"notes,omitempty"`
}

// noEvalsNote is the -strict note on a skill without a trigger-eval file.
const noEvalsNote = "no trigger-eval file in evals/ (.json or .md): skillcatalog eval cannot check when it should be used"

// hasEvalFile reports whether the skill directory has a trigger-eval file
// that skillcatalog eval reads: a .json or .md file with a trigger case in
// its evals/ folder.
func hasEvalFile(dir string) bool {
	files, err := evalFiles(filepath.Join(dir, "evals"))
	if err != nil {
		return false
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if cases, err := triggereval.ParseFile(f, data); err == nil && len(cases) > 0 {
			return true
		}
	}
	return false
}

// catalogShown is what a catalog shows of a skill's description.
type catalogShown struct {
	// DescriptionLength is the description's length in characters, as
	// the catalog normalizes it (whitespace collapsed).
	DescriptionLength int `json:"descriptionLength"`
	// Shown is how many of them the catalog shows; Cut says it shows
	// fewer, ending in "...".
	Shown int  `json:"shown"`
	Cut   bool `json:"cut"`
}

// describeCatalog says what a catalog with catalogDescriptionMaxLength
// maxLen shows of description.
func describeCatalog(description string, maxLen int) *catalogShown {
	whole := []rune(render.NormalizeDescription(description, len(description)+render.MinDescriptionMaxLength))
	shown := []rune(render.NormalizeDescription(description, maxLen))
	return &catalogShown{DescriptionLength: len(whole), Shown: len(shown), Cut: len(shown) < len(whole)}
}

type validateProblem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

const validateUsage = `Usage: skillcatalog validate [flags] DIR...

Checks Agent Skills against the specification: a DIR is one skill (it holds
SKILL.md) or a directory of skills (its subdirectories that hold SKILL.md).
Errors break the specification (frontmatter fields, name grammar and
directory match, description and compatibility lengths); warnings name the
leniencies skillcatalog applies to load a skill anyway. A field Claude Code
documents (disable-model-invocation, user-invocable, argument-hint,
arguments, when_to_use, model, context, agent, disallowed-tools, shell,
effort, hooks) is an error that says so, and with -preset claude-code a
warning. A skill's directives (what its context, agent, model,
allowed-tools, disallowed-tools, shell, effort and hooks ask of the
runtime) are listed, as are its named arguments and whether the catalog
joins its when_to_use to its description, and a value skillcatalog
cannot read is a warning. Each skill also says whether skillcatalog's Agent
Skills provider (with the -preset layouts) loads it, which is the rule demo
and explain apply, and whether serve-mcp serves it: the MCP Skills
extension serves only skills that meet the specification. One line then
says, as demo, explain and serve-mcp say it, which directories were
scanned, how many skills load, how many are skipped and why.

A skill whose description is longer than the plugin's default
catalogDescriptionMaxLength (500) says what the catalog shows of it at
-description-max-length (by default 1024, the Agent Skills limit, which
hostsdk.Open and explain mount with): "the catalog shows its description
whole: N characters", or "the catalog cuts its description at N of M
characters".

Each DIR is reported as valid, invalid, or "no skill in DIR" (it holds no
SKILL.md, or is a file other than SKILL.md); the last line counts the three.
A DIR that does not exist is an error: nothing is checked.

With -strict, a skill without a trigger-eval file (a .json or .md file of
trigger cases in its evals/ folder, as skillcatalog eval reads) gets the
note "no trigger-eval file in evals/ ...". A note never makes a skill
invalid.

Exit status: 0 when every skill is valid, 1 when any is not, a DIR holds
no skill or does not exist, or the command was interrupted (SIGINT,
SIGTERM) before it finished, 2 for a usage error. SKILL.md is read as skillcatalog's Agent
Skills provider reads it: anything but a regular file (a FIFO, a device)
is reported, never opened for reading.

With -json it prints one object:
  {"valid": bool, "skills": [{"path", "valid", "errors": [{"field", "message"}],
   "warnings": [...], "loads": bool, "name", "notLoaded", "skipReason", "directives":
   {"context", "agent", "model", "allowedTools", "trusted"}, "served": bool, "notServed",
   "catalog": {"descriptionLength", "shown", "cut": bool}, "notes": [...]}], "errors": [{"path", "message"}], "scan": {"dirs", "absent", "loaded",
   "skipped": [{"path", "skill", "reason", "detail"}], "notScanned", "summary"}}

Flags:
`

func validateCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("validate", flag.ContinueOnError)
	asJSON := fl.Bool("json", false, "print the result as one JSON object")
	var presets presetFlags
	fl.Var(&presets, "preset", "load as the `LAYOUT` does too ("+presetNames()+"; repeatable): its leniencies are reported as warnings")
	strict := fl.Bool("strict", false, "also note what a skill lacks beyond the specification: a trigger-eval file in evals/ (see skillcatalog eval)")
	maxLen := fl.Int("description-max-length", hostsdk.OpenDescriptionMaxLength, "say what a catalog mounted with catalogDescriptionMaxLength `N` shows of each long description (the default is what hostsdk.Open mounts)")
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), validateUsage)
		fl.PrintDefaults()
	}
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	if fl.NArg() == 0 {
		return usageError(fl, stderr, "no DIR given")
	}
	if *maxLen < render.MinDescriptionMaxLength {
		return usageError(fl, stderr, "-description-max-length %d: it must be at least %d", *maxLen, render.MinDescriptionMaxLength)
	}
	for _, arg := range fl.Args() {
		if _, err := os.Stat(arg); errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "skillcatalog validate: %s: no such directory\n", skill.QuoteUnsafe(arg))
			return 1
		}
	}
	rep, err := validateAll(ctx, fl.Args(), func(dir string) validatedSkill {
		v := validateDir(dir, presets)
		if v.Loads {
			v.Catalog = describeCatalog(v.Description, *maxLen)
		}
		if *strict && !hasEvalFile(dir) {
			v.Notes = append(v.Notes, noEvalsNote)
		}
		return v
	})
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog validate: %v\n", err)
		return 1
	}
	if *asJSON {
		if !printJSON(stdout, stderr, "validate", rep) {
			return 1
		}
	} else {
		printValidation(stdout, rep, *maxLen)
	}
	if !rep.Valid {
		return 1
	}
	return 0
}

// validateAll checks every skill the arguments name with check. It returns
// as soon as ctx ends (SIGINT or SIGTERM: main's signal.NotifyContext),
// with an error saying so, even while a check is blocked in the file
// system: the process then exits, leaving that check behind.
func validateAll(ctx context.Context, args []string, check func(dir string) validatedSkill) (validateReport, error) {
	done := make(chan validateReport, 1)
	go func() {
		rep := validateReport{Valid: true, Skills: []validatedSkill{}, Errors: []validateProblem{}}
		for _, arg := range args {
			dirs, problem := skillDirs(arg)
			if problem != "" {
				rep.Errors = append(rep.Errors, validateProblem{Path: arg, Message: problem})
				rep.Valid = false
				continue
			}
			rep.Scan.Dirs = append(rep.Scan.Dirs, scannedDir(arg))
			for _, dir := range dirs {
				if ctx.Err() != nil {
					return
				}
				v := check(dir)
				rep.Valid = rep.Valid && v.Valid
				rep.Skills = append(rep.Skills, v)
				countSkill(&rep.Scan, v)
			}
		}
		done <- rep
	}()
	select {
	case rep := <-done:
		return rep, nil
	case <-ctx.Done():
		return validateReport{}, fmt.Errorf("interrupted before every skill was checked: %w", context.Cause(ctx))
	}
}

// skillDirs returns the skill directories arg names: itself when it holds
// a SKILL.md, else its subdirectories that do (in name order). problem
// says why there are none.
func skillDirs(arg string) (dirs []string, problem string) {
	fi, err := os.Stat(arg)
	if err != nil {
		return nil, err.Error()
	}
	if !fi.IsDir() {
		if filepath.Base(arg) == "SKILL.md" {
			return []string{filepath.Dir(arg)}, ""
		}
		return nil, "not a directory"
	}
	if hasSkillFile(arg) || hasMisnamedSkillFile(arg) {
		return []string{arg}, ""
	}
	entries, err := os.ReadDir(arg)
	if err != nil {
		return nil, err.Error()
	}
	for _, e := range entries {
		name := e.Name()
		if name == ".git" || name == "node_modules" {
			continue
		}
		sub := filepath.Join(arg, name)
		if fi, err := os.Stat(sub); err != nil || !fi.IsDir() {
			continue
		}
		if hasSkillFile(sub) || hasMisnamedSkillFile(sub) {
			dirs = append(dirs, sub)
		}
	}
	if len(dirs) == 0 {
		return nil, "holds no SKILL.md, and none of its subdirectories does"
	}
	return dirs, ""
}

func hasSkillFile(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, "SKILL.md"))
	return err == nil && exactName(dir, "SKILL.md")
}

// hasMisnamedSkillFile reports a skill.md spelled in another case.
func hasMisnamedSkillFile(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name() != "SKILL.md" && strings.EqualFold(e.Name(), "SKILL.md") {
			return true
		}
	}
	return false
}

// exactName reports whether dir holds an entry spelled exactly name (a
// file system that ignores case finds SKILL.md under skill.md too).
func exactName(dir, name string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == name })
}

// scannedDir is the directory a validate argument names: itself, or the
// directory of a SKILL.md.
func scannedDir(arg string) string {
	if fi, err := os.Stat(arg); err == nil && !fi.IsDir() {
		return filepath.Dir(arg)
	}
	return arg
}

// countSkill counts the checked skill v in sv: loaded, or skipped with
// its reason.
func countSkill(sv *agentskills.Survey, v validatedSkill) {
	if v.Loads {
		sv.Loaded++
		return
	}
	sv.Skipped = append(sv.Skipped, agentskills.SkippedSkill{Path: v.Path, Skill: filepath.Base(v.Path), Reason: v.SkipReason, Detail: v.NotLoaded})
}

// validateDir checks the skill in dir.
func validateDir(dir string, presets []agentskills.Preset) validatedSkill {
	v := validatedSkill{Path: dir}
	fail := func(reason, msg string) validatedSkill {
		v.SpecCheck = agentskills.SpecCheck{Errors: []agentskills.Finding{{Message: msg}}, Warnings: []agentskills.Finding{}, NotLoaded: msg, SkipReason: reason}
		v.NotServed = msg
		return v
	}
	if !hasSkillFile(dir) {
		return fail(agentskills.ReasonMisspelledFile, "the skill file is not named SKILL.md (the name is case-sensitive); hosts do not find it")
	}
	// The provider's own loader: what a host would read, and nothing that
	// is not a regular file (a FIFO would block a plain open).
	data, err := agentskills.ReadSkillFile(dir)
	if err != nil {
		return fail(agentskills.ReasonUnreadable, err.Error())
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fail(agentskills.ReasonUnreadable, err.Error())
	}
	check, err := agentskills.CheckSkillFile(filepath.Base(abs), data, presets...)
	if err != nil {
		return fail(agentskills.ReasonUnreadable, err.Error())
	}
	v.SpecCheck = check
	v.Valid = check.Valid()
	_, v.NotServed = skillserver.CheckServable(filepath.Base(abs), data)
	v.Served = v.NotServed == ""
	return v
}

// printSkillFields says what a loaded skill's when_to_use, arguments and
// paths do: the catalog lists the first after the description, the
// second bind `$name` placeholders, the last hold the skill out of the
// catalog until a touched file matches.
func printSkillFields(w io.Writer, c agentskills.SpecCheck) {
	if strings.TrimSpace(c.WhenToUse) != "" {
		fmt.Fprintf(w, "  when_to_use: the catalog lists it after the description, joined by %q, within the description's length\n", skill.WhenToUseJoin)
	}
	if line := argumentsLine(c.ArgumentNames); line != "" {
		fmt.Fprintf(w, "  arguments: %s\n", line)
	}
	if patterns := skill.PathPatterns(c.Paths); len(patterns) > 0 {
		fmt.Fprintf(w, "  paths: the catalog lists it once the session touched a file matching %s; the skill tool and /%s load it before\n",
			strings.Join(patterns, ", "), c.Name)
	}
}

func printValidation(w io.Writer, rep validateReport, maxLen int) {
	valid := 0
	for _, s := range rep.Skills {
		status := "invalid"
		if s.Valid {
			status, valid = "valid", valid+1
		}
		fmt.Fprintf(w, "%-7s %s\n", status, skill.QuoteUnsafe(s.Path))
		for _, f := range s.Errors {
			fmt.Fprintf(w, "  error: %s\n", findingText(f))
		}
		for _, f := range s.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", findingText(f))
		}
		if line := directivesLine(s.Directives); line != "" {
			fmt.Fprintf(w, "  directives: %s\n", line)
		}
		printSkillFields(w, s.SpecCheck)
		switch {
		case s.Loads && !s.Valid:
			fmt.Fprintf(w, "  skillcatalog loads it anyway, as %q\n", s.Name)
		case !s.Loads:
			fmt.Fprintf(w, "  skillcatalog does not load it: %s\n", skill.QuoteUnsafe(s.NotLoaded))
		}
		if s.Loads && !s.Served {
			fmt.Fprintf(w, "  serve-mcp does not serve it: %s\n", skill.QuoteUnsafe(s.NotServed))
		}
		if line := catalogLine(s.Catalog, maxLen); line != "" {
			fmt.Fprintf(w, "  %s\n", line)
		}
		for _, n := range s.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	for _, p := range rep.Errors {
		fmt.Fprintf(w, "no skill in %s: %s\n", skill.QuoteUnsafe(p.Path), skill.QuoteUnsafe(p.Message))
	}
	if len(rep.Scan.Dirs) > 0 {
		fmt.Fprintln(w, surveyLine(rep.Scan, ""))
	}
	noun := "skills"
	if len(rep.Skills) == 1 {
		noun = "skill"
	}
	fmt.Fprintf(w, "%d %s checked: %d valid, %d invalid", len(rep.Skills), noun, valid, len(rep.Skills)-valid)
	if n := len(rep.Errors); n > 0 {
		verb := "hold"
		if n == 1 {
			verb = "holds"
		}
		fmt.Fprintf(w, "; %d DIR %s no skill", n, verb)
	}
	fmt.Fprintln(w)
}

// catalogLine says what the catalog shows of a description the catalog
// cuts at maxLen, or that the plugin's default would cut: "" for one
// short enough for either.
func catalogLine(c *catalogShown, maxLen int) string {
	switch {
	case c == nil:
		return ""
	case c.Cut:
		return fmt.Sprintf("the catalog cuts its description at %d of %d characters (-description-max-length %d)", c.Shown, c.DescriptionLength, maxLen)
	case c.DescriptionLength > render.DefaultDescriptionMaxLength:
		return fmt.Sprintf("the catalog shows its description whole: %d characters (the plugin's default catalogDescriptionMaxLength, %d, would cut it)", c.DescriptionLength, render.DefaultDescriptionMaxLength)
	}
	return ""
}

func findingText(f agentskills.Finding) string {
	if f.Field == "" {
		return skill.QuoteUnsafe(f.Message)
	}
	return skill.QuoteUnsafe(f.Field + ": " + f.Message)
}
