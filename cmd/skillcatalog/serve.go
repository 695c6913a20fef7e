package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillcatalog/skillcatalog"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// serveMCPCommand publishes a skills directory over MCP, on stdio or
// streamable HTTP, for the demo's -mcp-* flags and for remote agents: as the
// MCP Skills extension defines, and as skill://index.json for older clients.
func serveMCPCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("serve-mcp", flag.ContinueOnError)
	dir := fl.String("skills", "", "serve the Agent Skills in `DIR`: a folder per skill, in nested folders if you like, or one skill's own folder (a DIR whose SKILL.md has no skill below it; a SKILL.md at the top of a DIR of other skills is not served) (default: the embedded examples)")
	addr := fl.String("http", "", "serve streamable HTTP on `ADDR` (for example 127.0.0.1:8765) at /mcp instead of stdio")
	tokenFile := fl.String("token-file", "", "with -http, require \"Authorization: Bearer <token>\", the token being the first line of `FILE` (or set "+tokenEnv+")")
	lim := httpLimitFlags(fl)
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), serveMCPUsage)
		fl.PrintDefaults()
	}
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	if fl.NArg() > 0 {
		return usageError(fl, stderr, "unexpected argument %q", fl.Arg(0))
	}
	if err := lim.check(); err != nil {
		return usageError(fl, stderr, "%v", err)
	}
	token, err := bearerToken(*tokenFile)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "skillcatalog serve-mcp: %v\n", err)
		return 1
	case token != "" && *addr == "":
		return usageError(fl, stderr, "a bearer token (-token-file or %s) needs -http", tokenEnv)
	}
	srv, done, code := skillsServer(ctx, *dir, stderr)
	if srv == nil {
		return code
	}
	defer done()
	if *addr == "" {
		if err := srv.ServeStdio(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "skillcatalog serve-mcp: %v\n", err)
			return 1
		}
		return 0
	}
	if err := serveMCPHTTP(ctx, srv, *addr, token, lim, stdout); err != nil {
		fmt.Fprintf(stderr, "skillcatalog serve-mcp: %v\n", err)
		return 1
	}
	return 0
}

// skillsServer makes the server of -skills dir (the embedded examples if
// dir is ""), says which skills it will not serve and why, then in one
// line, as demo, explain and validate say it, how many it serves and
// skips, and watches dir. A dir that is one skill's own folder (it holds a
// SKILL.md and no skill below it) serves that skill. A SKILL.md at the top
// of a dir that holds other skills is not served, with a line saying so,
// and the others keep their paths. A nil server comes with the exit code; done releases what the
// server needed.
func skillsServer(ctx context.Context, dir string, stderr io.Writer) (srv *skillserver.Server, done func(), code int) {
	done = func() {}
	if dir == "" {
		srv = skillserver.New(skillcatalog.ExampleSkills())
		announceSurvey(srv, "the example skills", stderr)
		return srv, done, 0
	}
	one := false // dir is one skill's folder
	if err := checkSkillsDir(dir); err != nil {
		fmt.Fprintf(stderr, "skillcatalog serve-mcp: %v\n", err)
		return nil, done, 1
	}
	var note string
	srv = skillserver.NewDir(dir)
	if isSkillFolder(dir) {
		if sv := srv.Survey(); sv.Loaded+len(sv.Skipped) > 0 {
			note = fmt.Sprintf("%s is not served: the folder holds other skills, which are served at their own paths; to serve the folder as a skill too, pass -skills %s, the folder that holds it",
				filepath.Join(dir, "SKILL.md"), filepath.Dir(filepath.Clean(dir)))
		} else {
			one = true
		}
	}
	if one {
		root, remove, err := skillFolderLink(dir)
		if err != nil {
			fmt.Fprintf(stderr, "skillcatalog serve-mcp: -skills %s is one skill's folder, and serving it alone failed: %v; pass the folder that holds it\n", dir, err)
			return nil, done, 1
		}
		srv, done = skillserver.NewDir(root), remove
	}
	// Say once, up front, which skills will not be served and why.
	if _, err := srv.Index(); err != nil {
		fmt.Fprintf(stderr, "skillcatalog serve-mcp: -skills %s: %v\n", dir, err)
		done()
		return nil, func() {}, 1
	}
	if note != "" {
		fmt.Fprintf(stderr, "skillcatalog serve-mcp: %s\n", skill.QuoteUnsafe(note))
	}
	announceSurvey(srv, dir, stderr)
	if err := srv.Watch(ctx); err != nil {
		fmt.Fprintf(stderr, "skillcatalog serve-mcp: changes will not be announced: %v\n", err)
	}
	return srv, done, 0
}

// announceSurvey says which skills the server does not serve and why,
// one line each, then its one line, naming the directory as the user gave
// it (label).
func announceSurvey(srv *skillserver.Server, label string, stderr io.Writer) {
	for _, d := range srv.Diagnostics() {
		fmt.Fprintf(stderr, "skillcatalog serve-mcp: %s\n", d)
	}
	sv := srv.Survey()
	sv.Dirs, sv.Absent = []string{label}, nil
	fmt.Fprintf(stderr, "skillcatalog serve-mcp: %s\n", surveyLine(sv, "the lines above say why"))
}

// httpLimits are the bounds serve-mcp -http puts on clients.
type httpLimits struct {
	readTimeout, idleTimeout, sessionIdle *time.Duration
	maxSessions                           *int
}

// httpLimitFlags defines the flags of httpLimits on fl.
func httpLimitFlags(fl *flag.FlagSet) httpLimits {
	return httpLimits{
		readTimeout: fl.Duration("read-timeout", defaultReadTimeout, "with -http, close the connection of a request whose headers and body have not fully arrived within `DURATION`"),
		idleTimeout: fl.Duration("idle-timeout", defaultIdleTimeout, "with -http, close a kept-alive connection that carries no request for `DURATION`"),
		sessionIdle: fl.Duration("session-idle-timeout", skillserver.DefaultSessionIdleTimeout, "with -http, close an MCP session with no request in flight and no event stream open for `DURATION`"),
		maxSessions: fl.Int("max-sessions", skillserver.DefaultMaxSessions, "with -http, hold at most `N` MCP sessions: a new one closes the session idle the longest, or is refused with 503 if all are in use"),
	}
}

// Defaults of the connection bounds of serve-mcp -http.
const (
	// defaultReadTimeout leaves a slow link ample time for a request body
	// of the SDK's 4 MiB bound.
	defaultReadTimeout = 30 * time.Second
	// defaultIdleTimeout is how long a kept-alive connection may wait for
	// its next request.
	defaultIdleTimeout = 2 * time.Minute
	// headerTimeout bounds the arrival of a request's headers (or
	// -read-timeout, if shorter).
	headerTimeout = 10 * time.Second
)

// check fails, naming the flag and its bound, on a value out of range.
func (l httpLimits) check() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"-read-timeout", *l.readTimeout}, {"-idle-timeout", *l.idleTimeout}, {"-session-idle-timeout", *l.sessionIdle}} {
		if d.v <= 0 {
			return fmt.Errorf("%s %v: want more than 0", d.name, d.v)
		}
	}
	if *l.maxSessions < 1 {
		return fmt.Errorf("-max-sessions %d: want at least 1", *l.maxSessions)
	}
	return nil
}

// serveMCPHTTP serves srv at http://addr/mcp until ctx ends, then lets
// requests in flight finish for up to 5 seconds.
//
// -read-timeout is the server's ReadTimeout: a request whose headers and
// body have not arrived within it fails and its connection is closed. It
// does not cut off event streams: once a request's body has been read, the
// server lifts the read deadline while it watches for the client going
// away. There is no WriteTimeout, which would end every event stream of an
// MCP session at that age. Kept-alive connections between requests are
// bounded by -idle-timeout.
func serveMCPHTTP(ctx context.Context, srv *skillserver.Server, addr, token string, lim httpLimits, stdout io.Writer) error {
	handler, err := srv.HTTPHandler(&skillserver.HTTPOptions{SessionIdleTimeout: *lim.sessionIdle, MaxSessions: *lim.maxSessions})
	if err != nil {
		return err
	}
	if token != "" {
		handler = skillserver.RequireBearerToken(handler, token)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: min(headerTimeout, *lim.readTimeout),
		ReadTimeout:       *lim.readTimeout,
		IdleTimeout:       *lim.idleTimeout,
	}
	fmt.Fprintf(stdout, "serving skills over MCP at http://%s/mcp\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shutdown)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

const serveMCPUsage = `Usage: skillcatalog serve-mcp [flags]

Serves a directory of Agent Skills over MCP, on stdio or streamable HTTP.

It declares the MCP Skills extension (io.modelcontextprotocol/skills, SEP-2640)
with directoryRead, and answers skills/list (100 entries a page), skills/get and
resources/directory/read. A skill is a folder with a SKILL.md, at any depth: the
folder acme/billing/refunds is the skill refunds, at
skill://acme/billing/refunds/SKILL.md. Folder names on the way are ASCII
letters, digits, '.', '_' and '-', starting with a letter or digit; a skill
inside another skill is served on its own and as files of the other. Each
entry holds the SKILL.md frontmatter as JSON and every file of the skill with
its sha256 digest and size. A file is served only while its bytes match the
entry listed: a file that changed is rescanned (and the listing change
announced) before it is served. A skill of more than 512 files or 16 MiB, or
of more than 2,048 folders or 4,096 files and folders (a node_modules left
inside), is not served; the messages at start say which skills are not served and why,
then one line, as demo, explain and validate say it, how many are served and
how many skipped, by reason. The MCP Skills extension serves only skills that
meet the Agent Skills specification, so a skill that skillcatalog loads with
a warning (a name that is not its folder's, a description over 1,024
characters) is not served: skillcatalog validate DIR says which.

For clients without the extension, skill://index.json lists the skills whose
folder sits directly in the directory. Every file of a skill is
skill://<path>/<file> (regular files of at most 8 MiB; no hidden files; no
links that leave the skill's folder).

Clients of MCP base revision 2026-07-28 and of 2025-11-25 (or earlier) are
both served. Over HTTP, requests with the header Mcp-Protocol-Version:
2026-07-28 are served statelessly, all others in sessions, at the same URL;
over stdio, the client's revision is spoken. With -skills, changes to the
files are announced (notifications/resources/list_changed, which 2026-07-28
clients receive through subscriptions/listen).

Over HTTP, clients are bounded: a request's headers and body must arrive
within -read-timeout, a kept-alive connection carrying no request is closed
after -idle-timeout, and at most -max-sessions sessions are held, each
closed after -session-idle-timeout with no request in flight and no event
stream open (its client's next request gets 404 and a client starts a new
session). A new session beyond the bound closes the session idle the
longest, or is refused with 503 if every session is in use. No bound cuts
off an event stream that is open.

SIGINT or SIGTERM stops it gracefully: requests in flight finish (for up to
5 seconds) before it exits.

Flags:
`

// checkSkillsDir fails, naming the -skills flag and the path, unless dir is
// a directory that can be read.
func checkSkillsDir(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("-skills %s: no such directory", dir)
	case err != nil:
		return fmt.Errorf("-skills %s: %w", dir, err)
	case !info.IsDir():
		return fmt.Errorf("-skills %s: not a directory", dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("-skills %s: %w", dir, err)
	}
	defer f.Close()
	if _, err := f.ReadDir(1); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("-skills %s: %w", dir, err)
	}
	return nil
}

// tokenEnv names the environment variable that may hold serve-mcp's bearer
// token; a file keeps it out of the process list.
const tokenEnv = "SKILLCATALOG_MCP_TOKEN"

// bearerToken reads the token from the first line of file, or else from
// the environment; "" means no token is required.
func bearerToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(os.Getenv(tokenEnv)), nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("-token-file: %w", err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	token := strings.TrimSpace(line)
	if token == "" {
		return "", fmt.Errorf("-token-file %s: the first line is empty", file)
	}
	return token, nil
}
