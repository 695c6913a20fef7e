package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

const lockUsage = `Usage: skillcatalog lock [source flags] [-o FILE] [-format F]
       skillcatalog lock [source flags] -verify FILE

Reads the skill sources explain reads (skill directories, an MCP server, a
website: the same flags) and writes a lock: per skill its kind (local, mcp,
website), origin, name and content digest, sorted, the same bytes for the
same skills (the format is package skilllock's). A local skill's digest
covers its SKILL.md and every file under it; a remote skill's is the digest
its source publishes where it publishes one.

-format skills-lock writes a skills CLI skills-lock.json instead: the local
skills' computedHash, merged into the file -o names when it exists.

-verify FILE reads the sources, compares them with the lock FILE (either
format), prints one line per difference and exits 1 when there is one:

  changed KIND ORIGIN NAME: locked DIGEST, now DIGEST
  added   KIND ORIGIN NAME: DIGEST (not in the lock)
  removed KIND ORIGIN NAME: DIGEST (no source offers it)

A host runs against a lock with hostsdk.OpenOptions.Lock, the discovery
option lockFile, or explain -lock FILE.

The flags are explain's (the mount and selection options change nothing
here, and -lock, -session and -request are refused), then lock's own.

Flags:
`

func lockCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o explainOptions
	fl := explainFlags(&o)
	fl.Init("lock", flag.ContinueOnError)
	out := fl.String("o", "", "write the lock to `FILE` (default: standard output)")
	format := fl.String("format", "skillcatalog", "the lock's `FORMAT`: skillcatalog or skills-lock (a skills CLI skills-lock.json)")
	verify := fl.String("verify", "", "compare the sources with the lock `FILE` and list each difference; exit 1 on any")
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), lockUsage)
		fl.PrintDefaults()
	}
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	if fl.NArg() > 0 {
		return usageError(fl, stderr, "unexpected argument %q", fl.Arg(0))
	}
	if *format != "skillcatalog" && *format != "skills-lock" {
		return usageError(fl, stderr, "-format %q is not skillcatalog or skills-lock", *format)
	}
	switch {
	case o.lockFile != "":
		return usageError(fl, stderr, "-lock reads the sources through a lock; lock reads them as they are (-verify FILE compares them with one)")
	case o.session != "" || o.requests != "" || o.request != "":
		return usageError(fl, stderr, "-session, -request and -requests are explain's; lock reads only the sources")
	}
	lock, dirs, err := currentLock(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog lock: %v\n", err)
		return 1
	}
	if *verify != "" {
		return verifyLock(*verify, lock, dirs, stdout, stderr)
	}
	data := lock.Encode()
	if *format == "skills-lock" {
		if data, err = skillsLockFile(*out, lock, o.cwd, dirs); err != nil {
			fmt.Fprintf(stderr, "skillcatalog lock: %v\n", err)
			return 1
		}
	}
	if *out == "" {
		_, err = stdout.Write(data)
	} else {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog lock: %v\n", err)
		return 1
	}
	return 0
}

// currentLock reads o's sources and returns the lock of what they offer
// now, and each local skill's directory. It fails when a source could not
// be read: a lock of part of the skills would pin the rest out.
func currentLock(ctx context.Context, o explainOptions) (*skilllock.Lock, map[string]string, error) {
	roots, err := o.resolvePaths()
	if err != nil {
		return nil, nil, err
	}
	fsys, err := agentskills.New(&agentskills.Options{ExtraRoots: roots, HomeDir: o.home, Presets: o.scannedPresets(),
		TrustProject: func(string) bool { return o.trustProject }})
	if err != nil {
		return nil, nil, err
	}
	defer fsys.Close()
	reg, closeRemote, err := o.registry(fsys)
	if err != nil {
		return nil, nil, err
	}
	defer closeRemote()
	q := skills.Query{SessionID: explainSession, Cwd: o.cwd, Chain: []string{o.agent, tools.GlobalScope}}
	snap, err := reg.Snapshot(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	if !snap.Complete || len(snap.Degraded) > 0 {
		return nil, nil, fmt.Errorf("a skill source could not be read, so no lock is written: %v", append(snap.Incomplete, snap.Degraded...))
	}
	entries := make([]skilllock.Entry, 0, len(snap.Skills))
	for _, s := range snap.Skills {
		d, found, err := reg.ContentDigest(ctx, q, s.Name)
		if err != nil {
			return nil, nil, fmt.Errorf("skill %q: %w", s.Name, err)
		}
		if !found {
			return nil, nil, fmt.Errorf("skill %q: its source no longer offers it", s.Name)
		}
		k := skills.LockKey(s)
		entries = append(entries, skilllock.Entry{Kind: k.Kind, Origin: k.Origin, Name: k.Name, Digest: d})
	}
	lock, err := skilllock.New(entries)
	if err != nil {
		return nil, nil, err
	}
	local, _, err := fsys.Skills(ctx, o.cwd)
	if err != nil {
		return nil, nil, err
	}
	dirs := make(map[string]string, len(local))
	for _, s := range local {
		dirs[s.Name] = s.Dir
	}
	return lock, dirs, nil
}

// verifyLock compares the sources' lock now with the lock file at path.
func verifyLock(path string, now *skilllock.Lock, dirs map[string]string, stdout, stderr io.Writer) int {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog lock: -verify: %v\n", err)
		return 1
	}
	locked, err := skilllock.ParseNamed(path, data)
	if err != nil {
		fmt.Fprintf(stderr, "skillcatalog lock: -verify %s: %v\n", path, err)
		return 1
	}
	if now, err = inLockedOrder(now, locked, dirs); err != nil {
		fmt.Fprintf(stderr, "skillcatalog lock: -verify: %v\n", err)
		return 1
	}
	diffs := lockDiff(locked, now)
	for _, d := range diffs {
		fmt.Fprintln(stdout, d)
	}
	if len(diffs) > 0 {
		fmt.Fprintf(stderr, "skillcatalog lock: %d difference(s) from %s\n", len(diffs), path)
		return 1
	}
	fmt.Fprintf(stdout, "%s: the %d locked skills match\n", path, len(locked.Entries))
	return 0
}

// inLockedOrder returns now with the digest of each local skill that
// locked records in the skills CLI's order taken in that order.
func inLockedOrder(now, locked *skilllock.Lock, dirs map[string]string) (*skilllock.Lock, error) {
	entries := slices.Clone(now.Entries)
	for i, e := range entries {
		l, ok := locked.Lookup(e.Key())
		if !ok || l.Order != skilllock.OrderSkillsCLI || dirs[e.Name] == "" {
			continue
		}
		d, err := skilllock.SkillsCLITreeDigest(os.DirFS(dirs[e.Name]))
		if err != nil {
			return nil, err
		}
		entries[i].Digest, entries[i].Order = d, skilllock.OrderSkillsCLI
	}
	return skilllock.New(entries)
}

// lockDiff lists how now differs from locked, one line per skill, in the
// locks' order.
func lockDiff(locked, now *skilllock.Lock) []string {
	var out []string
	label := func(e skilllock.Entry) string {
		origin := e.Origin
		if origin == "" {
			origin = "-"
		}
		return fmt.Sprintf("%s %s %q", e.Kind, origin, e.Name)
	}
	for _, e := range locked.Entries {
		switch n, ok := now.Lookup(e.Key()); {
		case !ok:
			out = append(out, fmt.Sprintf("removed %s: %s (no source offers it)", label(e), e.Digest))
		case n.Digest != e.Digest:
			out = append(out, fmt.Sprintf("changed %s: locked %s, now %s", label(e), e.Digest, n.Digest))
		}
	}
	for _, n := range now.Entries {
		if _, ok := locked.Lookup(n.Key()); !ok {
			out = append(out, fmt.Sprintf("added   %s: %s (not in the lock)", label(n), n.Digest))
		}
	}
	return out
}

// skillsLockFile is the skills-lock.json of lock's local skills, merged
// into the one at path when there is one; a new skill's source is its
// directory relative to cwd.
func skillsLockFile(path string, lock *skilllock.Lock, cwd string, dirs map[string]string) ([]byte, error) {
	cli := &skilllock.SkillsCLILock{}
	if path != "" {
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			if cli, err = skilllock.ParseSkillsCLI(data); err != nil {
				return nil, err
			}
		case !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
	}
	// The CLI's computedHash orders the files as the CLI does.
	entries := slices.Clone(lock.Entries)
	for i, e := range entries {
		if e.Kind != skilllock.KindLocal || dirs[e.Name] == "" {
			continue
		}
		d, err := skilllock.SkillsCLITreeDigest(os.DirFS(dirs[e.Name]))
		if err != nil {
			return nil, err
		}
		entries[i].Digest, entries[i].Order = d, skilllock.OrderSkillsCLI
	}
	lock, err := skilllock.New(entries)
	if err != nil {
		return nil, err
	}
	cli.Merge(lock, func(name string) string {
		rel, err := filepath.Rel(cwd, dirs[name])
		if err != nil {
			return filepath.ToSlash(dirs[name])
		}
		return "./" + filepath.ToSlash(rel)
	})
	return cli.Encode(), nil
}

// explainLocked explains the skills a lock left out.
func explainLocked(snap skills.Snapshot) []explainedSkill {
	var out []explainedSkill
	for _, lo := range snap.LockedOut {
		e := explainedSkill{Name: lo.Name, Origin: lo.Origin, Reasons: []explainReason{{lo.Reason, lo.Detail}}}
		if lo.Origin != "" {
			e.OriginKind = lo.OriginKind
		}
		out = append(out, e)
	}
	return out
}

// lockOptions are the registry options of o's -lock and -unlocked.
func (o explainOptions) lockOptions() (*skills.RegistryOptions, error) {
	if o.lockFile == "" {
		return nil, nil
	}
	var unlocked skills.UnlockedPolicy
	switch o.unlocked {
	case "leave-out":
	case "allow":
		unlocked = skills.UnlockedAllow
	default:
		return nil, fmt.Errorf("-unlocked %q is not leave-out or allow", o.unlocked)
	}
	data, err := os.ReadFile(o.lockFile)
	if err != nil {
		return nil, fmt.Errorf("-lock: %w", err)
	}
	lock, err := skilllock.ParseNamed(o.lockFile, data)
	if err != nil {
		return nil, fmt.Errorf("-lock %s: %w", o.lockFile, err)
	}
	return &skills.RegistryOptions{Lock: lock, Unlocked: unlocked}, nil
}
