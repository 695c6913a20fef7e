package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/skillcatalog/skillcatalog/hostsdk/webskills"
	"github.com/skillcatalog/skillcatalog/skill"
)

const publishUsage = `Usage: skillcatalog publish [-json] DIR OUT

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

Every skill is validated first, as validate checks it; if any does not meet
the specification, nothing is written and the command fails. A skill's
hidden files are left out; a link or any other file that is not regular is
refused, as is a skill the web provider would refuse to unpack (more than
512 files, 16 MiB, or a compression ratio over 100).

Exit status: 0 when every skill was published, 1 when any skill is invalid
or cannot be published, 2 for a usage error. With -json it prints
{"out", "skills": [{"name", "type", "url", "digest", "files", "bytes"}]}.

Flags:
`

// publishReport is the -json output of publish.
type publishReport struct {
	Out    string                `json:"out"`
	Skills []webskills.Published `json:"skills"`
}

func publishCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("publish", flag.ContinueOnError)
	asJSON := fl.Bool("json", false, "print what was published as one JSON object")
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
	rep, err := validateAll(ctx, []string{dir}, func(d string) validatedSkill { return validateDir(d, nil) })
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog publish: %v\n", err)
		return 1
	}
	if !rep.Valid {
		printValidation(stderr, rep)
		fmt.Fprintf(stderr, "skillcatalog publish: nothing written: every skill must meet the specification (skillcatalog validate %s says the same)\n", skill.QuoteUnsafe(dir))
		return 1
	}
	list := make([]webskills.PublishSkill, 0, len(rep.Skills))
	for _, s := range rep.Skills {
		list = append(list, webskills.PublishSkill{Name: s.Name, Dir: s.Path})
	}
	published, err := webskills.Publish(out, list)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog %v\n", err)
		return 1
	}
	if *asJSON {
		if !printJSON(stdout, stderr, "publish", publishReport{Out: out, Skills: published}) {
			return 1
		}
		return 0
	}
	for _, p := range published {
		fmt.Fprintf(stdout, "%-8s %s  %s (%d files, %d bytes)  %s\n", p.Type, p.Name, p.URL, p.Files, p.Bytes, p.Digest)
	}
	noun := "skills"
	if len(published) == 1 {
		noun = "skill"
	}
	fmt.Fprintf(stdout, "%d %s published: %s (v0.2.0) and %s (v0.1.0)\n", len(published), noun,
		skill.QuoteUnsafe(webskills.IndexPath(out)), skill.QuoteUnsafe(filepath.Join(out, ".well-known", "skills", "index.json")))
	return 0
}
