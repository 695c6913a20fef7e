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
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/webskills"
)

const publishUsage = `Usage: skillcatalog publish [-json] [-strict] DIR OUT

Writes the skills in DIR (one skill's folder, or a directory of skills, as
validate takes it) as a static tree under OUT that any web server can serve,
under the Agent Skills Discovery RFC:

  OUT/.well-known/agent-skills/index.json   the v0.2.0 index ($schema, and per
                                            skill its type, url and digest)
  OUT/.well-known/agent-skills/NAME/SKILL.md  a skill of SKILL.md alone ("skill-md")
  OUT/.well-known/agent-skills/NAME.tar.gz    a skill with supporting files ("archive")
  OUT/.well-known/skills/                     the v0.1.0 layout, for older clients

Each digest is the SHA-256 of the exact bytes written, and the output is
reproducible: the same skills give the same bytes. Both directories under
OUT/.well-known are replaced whole; nothing else under OUT is touched.

Every skill is checked first as the major clients read it (the errors
validate -preset claude-code -preset codex reports): a field outside the
specification, Claude Code's among them, is published as written, since
clients read the fields they know and pass over the rest; a skill they
would refuse (an error in a field the specification defines, such as a
description over 1,024 characters or a name that is not its folder's, or
a file the provider cannot read) is left out with a line on stderr
naming it and why, and the others are written. With -strict every skill
must meet the specification alone, Claude Code's fields being errors, and
if any does not, nothing is written. A skill folder that is a symbolic
link is published from where it leads, as validate reads it. A skill's
hidden files are left out; a skill with a file or folder whose name the
v0.1.0 index cannot list (the RFC allows printable ASCII other than
\ ? # [ ] in paths: rename it, or hide it) is left out too (with -strict,
nothing is written). A link or any other file that is not regular is
refused, and a skill the web provider would refuse to unpack (more than
512 files, 16 MiB, or a compression ratio over 100): nothing is written
then. Files are written 0644 (0755 when executable) and every directory
publish creates 0755, whatever the umask.

Exit status: 0 when every skill was published, 3 when the others were
published and some skill was left out, 1 when nothing was written (a
skill is invalid under -strict, every skill was left out, or one cannot
be published), 2 for a usage error. With -json it prints
{"out", "skills": [{"name", "type", "url", "digest", "files", "bytes"}],
"leftOut": [{"name", "path", "reason"}]}.

Flags:
`

// publishReport is the -json output of publish.
type publishReport struct {
	Out    string                `json:"out"`
	Skills []webskills.Published `json:"skills"`
	// LeftOut are the skills not published, each with why.
	LeftOut []leftOutSkill `json:"leftOut"`
}

// leftOutSkill is a skill publish left out: its folder's name and why.
type leftOutSkill struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// clientPresets are the clients publish writes for by default: it
// publishes a skill as Claude Code and Codex read it, their own fields
// and all, since a site of spec-only skills would leave out most real
// ones.
var clientPresets = []agentskills.Preset{agentskills.PresetClaudeCode, agentskills.PresetCodex}

// specFields are the frontmatter fields the Agent Skills specification
// defines. An error about any other field does not leave a skill out:
// clients read the fields they know and pass over the rest.
var specFields = []string{"allowed-tools", "compatibility", "description", "license", "metadata", "name"}

// exitLeftOut is publish's exit status when it wrote the site but left
// out some skill: a script can tell a partial site from a failure (1).
const exitLeftOut = 3

func publishCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("publish", flag.ContinueOnError)
	asJSON := fl.Bool("json", false, "print what was published as one JSON object")
	strict := fl.Bool("strict", false, "publish only if every skill meets the Agent Skills specification alone (no client's fields), else write nothing")
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), publishUsage)
		fl.PrintDefaults()
	}
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	if fl.NArg() != 2 {
		return usageError(fl, stderr, "want DIR and OUT, got %d arguments", fl.NArg())
	}
	dir, out := fl.Arg(0), fl.Arg(1)
	presets := clientPresets
	if *strict {
		presets = nil
	}
	rep, err := validateAll(ctx, []string{dir}, func(d string) validatedSkill { return validateDir(d, presets) })
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog publish: %v\n", err)
		return 1
	}
	if *strict && !rep.Valid || len(rep.Errors) > 0 {
		printValidation(stderr, rep, hostsdk.OpenDescriptionMaxLength)
		fmt.Fprintf(stderr, "skillcatalog publish: nothing written: every skill must meet the specification (skillcatalog validate %s says the same)\n", skill.QuoteUnsafe(dir))
		return 1
	}
	list, leftOut, err := publishList(rep.Skills, *strict)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog publish: %v; nothing written\n", err)
		return 1
	}
	for _, l := range leftOut {
		fmt.Fprintf(stderr, "skillcatalog publish: left out %s: %s\n", skill.QuoteUnsafe(l.Name), l.Reason)
	}
	if len(list) == 0 {
		fmt.Fprintln(stderr, "skillcatalog publish: nothing written: every skill was left out")
		return 1
	}
	created := missingDirs(out)
	published, err := webskills.Publish(out, list)
	if err == nil {
		err = openDirs(out, created)
	}
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog %v\n", err)
		return 1
	}
	code := 0
	if len(leftOut) > 0 {
		code = exitLeftOut
	}
	if *asJSON {
		if !printJSON(stdout, stderr, "publish", publishReport{Out: out, Skills: published, LeftOut: leftOut}) {
			return 1
		}
		return code
	}
	for _, p := range published {
		fmt.Fprintf(stdout, "%-8s %s  %s (%d files, %d bytes)  %s\n", p.Type, p.Name, p.URL, p.Files, p.Bytes, p.Digest)
	}
	noun := "skills"
	if len(published) == 1 {
		noun = "skill"
	}
	left := ""
	if len(leftOut) > 0 {
		left = fmt.Sprintf(", %d left out (named on stderr)", len(leftOut))
	}
	fmt.Fprintf(stdout, "%d %s published%s: %s (v0.2.0) and %s (v0.1.0)\n", len(published), noun, left,
		skill.QuoteUnsafe(webskills.IndexPath(out)), skill.QuoteUnsafe(filepath.Join(out, ".well-known", "skills", "index.json")))
	return code
}

// publishList returns the skills to publish, each from its folder with
// links resolved, as validate reads it through them (a skill folder linked
// into DIR, or a DIR that is a link to one skill's folder), after checking
// that the v0.1.0 index can list every file publish copies. A skill the
// clients would refuse is left out, with why; with strict the first such
// skill is an error instead.
func publishList(skills []validatedSkill, strict bool) ([]webskills.PublishSkill, []leftOutSkill, error) {
	list := make([]webskills.PublishSkill, 0, len(skills))
	leftOut := []leftOutSkill{}
	for _, s := range skills {
		why := refusal(s)
		var dir string
		if why == "" {
			var err error
			if dir, err = filepath.EvalSymlinks(s.Path); err == nil {
				err = checkPublishedNames(dir)
			}
			if err != nil && strict {
				return nil, nil, fmt.Errorf("skill %q: %w", s.Name, err)
			}
			if err != nil {
				why = err.Error()
			}
		}
		if why != "" {
			leftOut = append(leftOut, leftOutSkill{Name: filepath.Base(s.Path), Path: s.Path, Reason: why})
			continue
		}
		list = append(list, webskills.PublishSkill{Name: s.Name, Dir: dir})
	}
	return list, leftOut, nil
}

// refusal says why clients would refuse the checked skill s, or returns
// "": an error in a field the specification defines (a description over
// 1,024 characters, a name that is not its folder's) or in the file as a
// whole, or a file the provider does not load.
func refusal(s validatedSkill) string {
	var whys []string
	for _, f := range s.Errors {
		if f.Field == "" || slices.Contains(specFields, f.Field) {
			whys = append(whys, findingText(f))
		}
	}
	if len(whys) == 0 && !s.Loads {
		whys = append(whys, skill.QuoteUnsafe(s.NotLoaded))
	}
	return strings.Join(whys, "; ")
}

// checkPublishedNames refuses a name below the skill folder dir that a
// v0.1.0 index cannot list: the Agent Skills Discovery RFC allows only
// printable ASCII other than \ ? # [ ] in the paths of a skill's files,
// and a client (the web provider among them) refuses the whole entry of a
// skill that lists another. Hidden names are left out, as publish leaves
// them out.
func checkPublishedNames(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		name := d.Name()
		if strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		for i := 0; i < len(name); i++ {
			if c := name[i]; c < 0x20 || c > 0x7e || strings.IndexByte(`\?#[]`, c) >= 0 {
				rel, _ := filepath.Rel(dir, p)
				return fmt.Errorf("%q: a name the v0.1.0 index cannot list (the Agent Skills Discovery RFC allows printable ASCII other than \\ ? # [ ] in file paths); rename it, or hide it (a name starting with \".\")", filepath.ToSlash(rel))
			}
		}
		return nil
	})
}

// missingDirs returns the directories publishing to out creates, those
// not there yet: out and the ancestors it lacks, and out/.well-known.
func missingDirs(out string) []string {
	var dirs []string
	if _, err := os.Lstat(filepath.Join(out, ".well-known")); errors.Is(err, fs.ErrNotExist) {
		dirs = append(dirs, filepath.Join(out, ".well-known"))
	}
	for dir := filepath.Clean(out); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) || filepath.Dir(dir) == dir {
			break
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

// openDirs gives every directory publish created the mode 0755, whatever
// the umask, as its files are 0644 whatever the umask: a site is served,
// often by a web server of another user. Those are the directories of the
// two trees publish replaced whole, and created, the ones it made above
// them; no other directory under out is touched.
func openDirs(out string, created []string) error {
	for _, tree := range []string{filepath.Dir(webskills.IndexPath(out)), filepath.Join(out, ".well-known", "skills")} {
		err := filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			return os.Chmod(p, 0o755)
		})
		if err != nil {
			return fmt.Errorf("publish: %w", err)
		}
	}
	for _, dir := range created {
		if err := os.Chmod(dir, 0o755); err != nil {
			return fmt.Errorf("publish: %w", err)
		}
	}
	return nil
}
