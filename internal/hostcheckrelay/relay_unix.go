//go:build unix

package hostcheckrelay

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/wire"
	"github.com/skillcatalog/skillcatalog/plugin/hostcheck"
)

// requestTimeout bounds how long a connection may take to ask for a
// plugin; the plugin binary asks at once.
const requestTimeout = 10 * time.Second

// maxProblems bounds the problems a Relay keeps.
const maxProblems = 20

// Relay is the checker's end: a socket whose path the host under check
// passes on to the plugin binary it starts, in hostcheck.RelayEnv, and the
// plugins the checker starts for it.
type Relay struct {
	ln   *net.UnixListener
	exe  string   // what the checker starts as its plugin
	name string   // the plugin's argv[0]
	env  []string // the plugins' environment, before the handshake's variables

	accepting chan struct{} // closed when the accept loop has ended

	mu       sync.Mutex
	closed   bool
	conns    map[*net.UnixConn]struct{}
	running  map[*pluginProc]struct{}
	started  int
	reports  []hostcheck.Report
	problems []string
	wg       sync.WaitGroup
}

// Result is what the plugins the checker started for a host reported.
type Result struct {
	// Report adds up the reports of every plugin (see hostcheck.Merge).
	Report hostcheck.Report
	// Plugins counts the plugin processes the checker started.
	Plugins int
	// Problems say what else went wrong: a connection that did not ask for
	// a plugin, a plugin that could not start.
	Problems []string
}

// Listen opens the checker's socket at path (in a directory only this user
// can reach) and serves it until Close. exe is the plugin binary the
// checker starts, "" for the running binary's own image.
func Listen(path, exe string) (*Relay, error) {
	name, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the running binary: %w", err)
	}
	if exe == "" {
		exe = selfImage(name)
	} else {
		name = exe
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen for the host's plugin: %w", err)
	}
	r := &Relay{ln: ln, exe: exe, name: name, env: pluginEnv(os.Environ()), accepting: make(chan struct{}),
		conns: map[*net.UnixConn]struct{}{}, running: map[*pluginProc]struct{}{}}
	go r.accept()
	return r, nil
}

// selfImage is what starts the running binary again even if its path now
// names another file: the kernel's link to the image this process runs,
// where there is one, else the path.
func selfImage(path string) string {
	const self = "/proc/self/exe"
	if fi, err := os.Stat(self); err == nil && fi.Mode().IsRegular() {
		return self
	}
	return path
}

// pluginEnv is environ without the check's variables and the handshake's:
// the host chooses the latter for each plugin it starts.
func pluginEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name != hostcheck.RelayEnv && name != hostcheck.ReportFDEnv && !wire.HandshakeVar(name) {
			out = append(out, kv)
		}
	}
	return out
}

// Path is the socket's path, the value of hostcheck.RelayEnv.
func (r *Relay) Path() string { return r.ln.Addr().String() }

// closeGrace is how long Close waits for what a connection has yet to
// send: a request already sent is still read, and judged.
const closeGrace = time.Second

// Close stops listening, kills the plugins still running, waits for them
// and returns what they reported. Every connection made before Close is
// judged, even one still waiting to be accepted; none starts a plugin.
func (r *Relay) Close() Result {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	// Stop the accept loop, then take what is still waiting in the
	// listener's backlog: closing the listener would drop it unjudged.
	_ = r.ln.SetDeadline(time.Unix(1, 0))
	<-r.accepting
	for _, c := range r.backlog() {
		r.serve(c)
	}
	_ = r.ln.Close()
	r.mu.Lock()
	for p := range r.running {
		p.kill()
	}
	for c := range r.conns {
		_ = c.SetReadDeadline(time.Now().Add(closeGrace))
	}
	r.mu.Unlock()
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	return Result{Report: hostcheck.Merge(r.reports...), Plugins: r.started, Problems: slices.Clone(r.problems)}
}

func (r *Relay) accept() {
	defer close(r.accepting)
	for {
		conn, err := r.ln.AcceptUnix()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return // Close
		}
		if err != nil {
			r.problem("accept the host's plugin: %v", err)
			return
		}
		r.serve(conn)
	}
}

// backlog accepts the connections waiting on the listener without waiting
// for more. The accept loop must have ended.
func (r *Relay) backlog() []*net.UnixConn {
	raw, err := r.ln.SyscallConn()
	if err != nil {
		return nil
	}
	var fds []int
	_ = raw.Control(func(fd uintptr) {
		syscall.ForkLock.RLock()
		defer syscall.ForkLock.RUnlock()
		for {
			nfd, _, err := syscall.Accept(int(fd))
			if err != nil {
				return // EAGAIN: no more
			}
			syscall.CloseOnExec(nfd)
			fds = append(fds, nfd)
		}
	})
	var conns []*net.UnixConn
	for _, fd := range fds {
		f := os.NewFile(uintptr(fd), "hostcheck-conn")
		c, err := net.FileConn(f)
		_ = f.Close()
		if uc, ok := c.(*net.UnixConn); ok && err == nil {
			conns = append(conns, uc)
		}
	}
	return conns
}

// serve handles conn in a goroutine of its own.
func (r *Relay) serve(conn *net.UnixConn) {
	r.mu.Lock()
	r.conns[conn] = struct{}{}
	r.wg.Add(1)
	r.mu.Unlock()
	go r.handle(conn)
}

// problem records what went wrong.
func (r *Relay) problem(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.problems) < maxProblems {
		r.problems = append(r.problems, fmt.Sprintf(format, args...))
	}
}

// handle serves one connection: a stand-in's request, the plugin started
// for it, and the plugin's exit status sent back once it has exited.
func (r *Relay) handle(conn *net.UnixConn) {
	defer r.wg.Done()
	defer func() {
		r.mu.Lock()
		delete(r.conns, conn)
		r.mu.Unlock()
		_ = conn.Close()
	}()
	req, files, err := readRequest(conn)
	if errors.Is(err, errNothingSent) {
		return // nothing to judge
	}
	if err != nil {
		r.problem("a process connected to the checker's socket without asking for a plugin as the plugin binary does: %v", err)
		return
	}
	p, err := r.start(req, files)
	closeFiles(files)
	if err != nil && !errors.Is(err, errCheckOver) {
		r.problem("start the plugin for the host: %v", err)
	}
	if err != nil {
		_, _ = conn.Write([]byte{1})
		return
	}
	// The stand-in's end closes when it exits, however that happened:
	// then the host is done with this plugin.
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		_, _ = io.Copy(io.Discard, conn)
		p.kill()
	}()
	code := p.wait()
	r.mu.Lock()
	delete(r.running, p)
	if rep, ok := p.report(); ok {
		r.reports = append(r.reports, rep)
	}
	r.mu.Unlock()
	_, _ = conn.Write([]byte{code})
}

// start starts the checker's plugin for a stand-in: on its standard
// input, output and error, with the host's handshake variables, and with
// one end of a fresh socket pair for the report.
func (r *Relay) start(req request, files []*os.File) (*pluginProc, error) {
	mine, theirs, err := socketPair()
	if err != nil {
		return nil, err
	}
	defer theirs.Close()
	cmd := exec.Command(r.exe)
	cmd.Args = []string{r.name}
	cmd.Env = append(append(slices.Clone(r.env), req.Env...), hostcheck.ReportFDEnv+"=3")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0], files[1], files[2]
	cmd.ExtraFiles = []*os.File{theirs}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.closed:
		err = errCheckOver
	case len(r.running) >= maxPluginsRunning:
		err = fmt.Errorf("the host already has %d plugins running, the most one check runs at once", maxPluginsRunning)
	default:
		err = cmd.Start()
	}
	if err != nil {
		_ = mine.Close()
		return nil, err
	}
	p := newPluginProc(cmd, mine)
	r.running[p] = struct{}{}
	r.started++
	return p, nil
}

// errCheckOver: the host asked for a plugin after it exited (a process it
// left behind did): the check is over.
var errCheckOver = errors.New("the check is over")

// errNothingSent: a connection closed without sending a byte.
var errNothingSent = errors.New("connected and sent nothing")

// readRequest reads a stand-in's request: its three descriptors, sent with
// requestMagic, then the request as JSON.
func readRequest(conn *net.UnixConn) (request, []*os.File, error) {
	if err := conn.SetReadDeadline(time.Now().Add(requestTimeout)); err != nil {
		return request{}, nil, err
	}
	var magic [1]byte
	oob := make([]byte, syscall.CmsgSpace(4*4)) // room for one descriptor too many
	n, oobn, flags, _, err := conn.ReadMsgUnix(magic[:], oob)
	if errors.Is(err, io.EOF) || (err == nil && n == 0 && oobn == 0) {
		return request{}, nil, errNothingSent
	}
	if err != nil {
		return request{}, nil, fmt.Errorf("read the request: %w", err)
	}
	files, err := receivedFiles(oob[:oobn])
	switch {
	case err != nil:
	case n != 1 || magic[0] != requestMagic:
		err = fmt.Errorf("it began with %q, not the plugin binary's request", magic[:n])
	case flags&syscall.MSG_CTRUNC != 0:
		err = errors.New("it passed more descriptors than standard input, output and error")
	case len(files) != 3:
		err = fmt.Errorf("it passed %d descriptors, not standard input, output and error", len(files))
	}
	var req request
	if err == nil {
		if err = json.NewDecoder(io.LimitReader(conn, maxRequestBytes)).Decode(&req); err != nil {
			err = fmt.Errorf("read the request: %w", err)
		} else {
			err = req.check()
		}
	}
	if err == nil {
		err = conn.SetReadDeadline(time.Time{})
	}
	if err != nil {
		closeFiles(files)
		return request{}, nil, err
	}
	return req, files, nil
}

// receivedFiles opens the descriptors a control message passed.
func receivedFiles(oob []byte) ([]*os.File, error) {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, fmt.Errorf("read the passed descriptors: %w", err)
	}
	var files []*os.File
	for i := range msgs {
		fds, err := syscall.ParseUnixRights(&msgs[i])
		if err != nil {
			continue // not descriptors
		}
		for _, fd := range fds {
			syscall.CloseOnExec(fd)
			files = append(files, os.NewFile(uintptr(fd), "hostcheck-stdio"))
		}
	}
	return files, nil
}

func closeFiles(files []*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// socketPair returns the checker's end of a fresh socket pair, as a
// connection, and the plugin's, as a file to pass on; neither is
// inherited by any other process the checker starts.
func socketPair() (net.Conn, *os.File, error) {
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, fmt.Errorf("create the report's socket pair: %w", err)
	}
	f := os.NewFile(uintptr(fds[0]), "hostcheck-report")
	defer f.Close()
	mine, err := net.FileConn(f)
	if err != nil {
		_ = syscall.Close(fds[1])
		return nil, nil, fmt.Errorf("open the report's socket: %w", err)
	}
	return mine, os.NewFile(uintptr(fds[1]), "hostcheck-report"), nil
}

// pluginProc is a plugin the checker started, and the last report it sent.
type pluginProc struct {
	cmd  *exec.Cmd
	sock net.Conn
	done chan struct{} // closed when the report's socket is read to its end

	mu   sync.Mutex
	last hostcheck.Report
	got  bool
}

func newPluginProc(cmd *exec.Cmd, sock net.Conn) *pluginProc {
	p := &pluginProc{cmd: cmd, sock: sock, done: make(chan struct{})}
	go p.read()
	return p
}

// read keeps the last whole report the plugin wrote; one cut short by the
// plugin's end is not one.
func (p *pluginProc) read() {
	defer close(p.done)
	dec := json.NewDecoder(p.sock)
	for {
		var rep hostcheck.Report
		if err := dec.Decode(&rep); err != nil {
			return
		}
		p.mu.Lock()
		p.last, p.got = rep, true
		p.mu.Unlock()
	}
}

func (p *pluginProc) report() (hostcheck.Report, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last, p.got
}

func (p *pluginProc) kill() { _ = p.cmd.Process.Kill() }

// reportDrain bounds the wait for the rest of a report once the plugin
// has exited: only a process the plugin left behind could hold the socket.
const reportDrain = 5 * time.Second

// wait waits for the plugin to exit and its report to be read, and
// returns its exit status for the stand-in (1 for a signal).
func (p *pluginProc) wait() byte {
	_ = p.cmd.Wait()
	_ = p.sock.SetReadDeadline(time.Now().Add(reportDrain))
	<-p.done
	_ = p.sock.Close()
	if code := p.cmd.ProcessState.ExitCode(); code >= 0 && code <= 255 {
		return byte(code)
	}
	return 1
}
