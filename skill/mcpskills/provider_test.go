package mcpskills

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// memServer is a test server reached over in-memory pipes; down makes new
// connections fail.
type memServer struct {
	*mcpfake.Server
	down     atomic.Bool
	connects atomic.Int32
}

func newMemServer() *memServer {
	return &memServer{Server: mcpfake.New()}
}

// crash closes every session and refuses new ones until recover.
func (m *memServer) crash() {
	m.down.Store(true)
	m.CloseSessions()
}

func (m *memServer) recover() { m.down.Store(false) }

func (m *memServer) transport() (mcp.Transport, error) {
	if m.down.Load() {
		return nil, errors.New("connection refused")
	}
	m.connects.Add(1)
	return m.InMemoryTransport(context.Background())
}

// newMemProvider returns a provider connected to m over in-memory pipes.
func newMemProvider(t *testing.T, m *memServer, cfg Options) *Provider {
	t.Helper()
	// URL only satisfies validation; the transport below replaces it.
	cfg.URL = "http://in-memory.invalid/mcp"
	p, err := newProvider(cfg, m.transport)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func listSkills(t *testing.T, p *Provider, session string) skills.Observation {
	t.Helper()
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: session})
	if err != nil {
		t.Fatalf("List(%s): %v", session, err)
	}
	if !obs.Complete {
		t.Fatalf("List(%s): incomplete without an error", session)
	}
	return obs
}

func load(t *testing.T, p *Provider, session, name string) skill.Definition {
	t.Helper()
	def, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: session, Name: name})
	if err != nil || !found {
		t.Fatalf("Load(%s, %s) = found %v, %v", session, name, found, err)
	}
	return def
}

func wantReads(t *testing.T, s *mcpfake.Server, uri string, want int) {
	t.Helper()
	if got := s.Reads(uri); got != want {
		t.Fatalf("server saw %d reads of %s, want %d", got, uri, want)
	}
}

func TestListAndLoad(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy   the\tservice.", "---\nname: deploy\ndescription: x\n---\n\n# Deploy\nRun it.\n")
	m.SetSkill("audit", "Audit logs.", "# Audit\n")
	p := newMemProvider(t, m, Options{Label: "remote"})

	obs := listSkills(t, p, "s1")
	want := []skill.Summary{
		{Name: "audit", Description: "Audit logs.", Invocation: skill.DefaultPolicy(), Provider: "remote", Origin: "remote", QualifiedName: "remote:audit"},
		{Name: "deploy", Description: "Deploy the service.", Invocation: skill.DefaultPolicy(), Provider: "remote", Origin: "remote", QualifiedName: "remote:deploy"},
	}
	if diff := cmp.Diff(want, obs.Skills); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if m.TotalReads() != 1 {
		t.Errorf("List read %d resources, want only the index", m.TotalReads())
	}

	def := load(t, p, "s1", "deploy")
	wantDef := skill.Definition{
		Summary:      want[1],
		ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: "skill://deploy/"},
		Content:      "# Deploy\nRun it.",
	}
	if diff := cmp.Diff(wantDef, def); diff != "" {
		t.Errorf("Load (-want +got):\n%s", diff)
	}

	// The qualified name under which the registry lists a colliding
	// remote skill loads the same skill; another server's label does not.
	if diff := cmp.Diff(wantDef, load(t, p, "s1", "remote:deploy")); diff != "" {
		t.Errorf("Load by qualified name (-want +got):\n%s", diff)
	}
	for _, name := range []string{"missing", "Bad_Name", "../deploy", "", "other:deploy", "remote:missing", "remote:x/deploy"} {
		if _, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: name}); found || err != nil {
			t.Errorf("Load(%q) = found %v, %v; want not found", name, found, err)
		}
	}
	if got := p.Diagnostics(); len(got) != 0 {
		t.Errorf("Diagnostics = %q, want none", got)
	}
}

func TestLoadBeforeListReadsIndex(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "body")
	p := newMemProvider(t, m, Options{})
	if def := load(t, p, "s1", "deploy"); def.Content != "body" {
		t.Fatalf("content %q", def.Content)
	}
	listSkills(t, p, "s1")
	wantReads(t, m.Server, IndexURI, 1)
}

func TestOneReadPerResourcePerSession(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	p := newMemProvider(t, m, Options{IndexMaxAge: time.Hour})
	uri := mcpfake.SkillURI("deploy")

	listSkills(t, p, "s1")
	load(t, p, "s1", "deploy")
	load(t, p, "s1", "deploy")
	listSkills(t, p, "s1")
	wantReads(t, m.Server, uri, 1)
	wantReads(t, m.Server, IndexURI, 1)

	// A second session has its own view.
	listSkills(t, p, "s2")
	load(t, p, "s2", "deploy")
	load(t, p, "s2", "deploy")
	wantReads(t, m.Server, uri, 2)
	wantReads(t, m.Server, IndexURI, 2)
}

func TestSessionViewIsStable(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "old body")
	p := newMemProvider(t, m, Options{IndexMaxAge: time.Hour})
	listSkills(t, p, "s1")
	load(t, p, "s1", "deploy")

	m.SetSkill("deploy", "Deploy.", "new body")
	if got := load(t, p, "s1", "deploy").Content; got != "old body" {
		t.Errorf("session s1 sees %q after the server changed, want its cached %q", got, "old body")
	}
	if got := load(t, p, "s2", "deploy").Content; got != "new body" {
		t.Errorf("new session sees %q, want %q", got, "new body")
	}
}

func TestConcurrentLoadsShareOneRead(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	p := newMemProvider(t, m, Options{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: "deploy"}); !found || err != nil {
				t.Errorf("Load = %v, %v", found, err)
			}
		})
	}
	wg.Wait()
	wantReads(t, m.Server, mcpfake.SkillURI("deploy"), 1)
	wantReads(t, m.Server, IndexURI, 1)
	if got := m.connects.Load(); got != 1 {
		t.Errorf("%d connections, want 1", got)
	}
}

// waitingContext reports the first call of Done. A reader of this package
// first calls it once it waits: on a read another reader started, or on a
// request of its own.
type waitingContext struct {
	context.Context
	once    sync.Once
	waiting chan struct{}
}

func newWaitingContext(parent context.Context) *waitingContext {
	return &waitingContext{Context: parent, waiting: make(chan struct{})}
}

func (c *waitingContext) Done() <-chan struct{} {
	c.once.Do(func() { close(c.waiting) })
	return c.Context.Done()
}

// holdReads makes the server's reads of uri wait for release, announcing
// each on the returned channel.
func holdReads(t *testing.T, s *mcpfake.Server, uri string) (reading <-chan struct{}, release func()) {
	t.Helper()
	ch := make(chan struct{}, 16)
	held := make(chan struct{})
	s.OnRead(func(got string) {
		if got == uri {
			ch <- struct{}{}
			<-held
		}
	})
	var once sync.Once
	release = func() { once.Do(func() { close(held) }) }
	t.Cleanup(release)
	return ch, release
}

func TestConcurrentReadersShareOneServerRead(t *testing.T) {
	const readers = 6
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	uri := mcpfake.SkillURI("deploy")
	p := newMemProvider(t, m, Options{})
	listSkills(t, p, "s1")
	reading, release := holdReads(t, m.Server, uri)

	errs := make(chan error, readers)
	loadIn := func(ctx context.Context) {
		def, found, err := p.Load(ctx, skills.LoadRequest{SessionID: "s1", Name: "deploy"})
		if err == nil && (!found || def.Content != "# Deploy") {
			err = fmt.Errorf("Load = %+v, found %v", def, found)
		}
		errs <- err
	}
	go loadIn(t.Context())
	<-reading
	// Every other reader waits, on the held read or on a request of its
	// own, before the server answers.
	for range readers - 1 {
		ctx := newWaitingContext(t.Context())
		go loadIn(ctx)
		<-ctx.waiting
	}
	release()
	for range readers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	wantReads(t, m.Server, uri, 1)
}

func TestSharedReadCancelledByItsStarterIsReadAgain(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	uri := mcpfake.SkillURI("deploy")
	p := newMemProvider(t, m, Options{})
	listSkills(t, p, "s1")
	reading, release := holdReads(t, m.Server, uri)

	starter, cancel := context.WithCancel(t.Context())
	starterErr := make(chan error, 1)
	go func() {
		_, _, err := p.Load(starter, skills.LoadRequest{SessionID: "s1", Name: "deploy"})
		starterErr <- err
	}()
	<-reading
	waiter := newWaitingContext(t.Context())
	waiterDone := make(chan error, 1)
	go func() {
		def, found, err := p.Load(waiter, skills.LoadRequest{SessionID: "s1", Name: "deploy"})
		if err == nil && (!found || def.Content != "# Deploy") {
			err = fmt.Errorf("Load = %+v, found %v", def, found)
		}
		waiterDone <- err
	}()
	<-waiter.waiting
	cancel()
	if err := <-starterErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("starter's Load = %v, want context.Canceled", err)
	}
	select {
	case <-reading: // the waiter's own read
	case err := <-waiterDone:
		t.Fatalf("waiter's Load ended with its starter's read: %v", err)
	}
	release()
	if err := <-waiterDone; err != nil {
		t.Fatalf("waiter's Load: %v", err)
	}
	wantReads(t, m.Server, uri, 2)
	// The waiter's read was cached: nothing more reaches the server.
	load(t, p, "s1", "deploy")
	wantReads(t, m.Server, uri, 2)
}

// TestFailedReadIsRetriedAndNotCached: a read the server fails is not
// cached, and the next load reads again. The load's error, which the model
// sees, names the server's JSON-RPC error by its code; the server's own
// message goes to the log.
func TestFailedReadIsRetriedAndNotCached(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	var logged bytes.Buffer
	p := newMemProvider(t, m, Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	uri := mcpfake.SkillURI("deploy")
	listSkills(t, p, "s1")

	m.SetFailure(uri, "storage unavailable")
	for i := 1; i <= 2; i++ {
		_, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: "deploy"})
		if err == nil || found {
			t.Fatalf("Load while failing = found %v, %v; want an error", found, err)
		}
		if want := "mcpskills: loading skill deploy: the server answered with JSON-RPC error 0"; err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
		wantReads(t, m.Server, uri, i)
	}
	if log := logged.String(); strings.Count(log, "level=WARN") != 2 || strings.Count(log, `message="storage unavailable"`) != 2 {
		t.Errorf("the server's message is not logged once a failure:\n%s", log)
	}

	m.SetFailure(uri, "")
	if got := load(t, p, "s1", "deploy").Content; got != "# Deploy" {
		t.Fatalf("content %q", got)
	}
	wantReads(t, m.Server, uri, 3)
	load(t, p, "s1", "deploy")
	wantReads(t, m.Server, uri, 3)
	if got := m.connects.Load(); got != 1 {
		t.Errorf("an error answered by the server replaced the connection: %d connections", got)
	}
}

func TestFailingIndexIsIncompleteAndRetried(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	p := newMemProvider(t, m, Options{})
	m.SetFailure(IndexURI, "index unavailable")
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
	if err == nil || obs.Complete || len(obs.Skills) != 0 {
		t.Fatalf("List = %+v, %v; want incomplete with an error", obs, err)
	}
	if d := p.Diagnostics(); len(d) != 1 || !strings.Contains(d[0], "index unavailable") {
		t.Errorf("Diagnostics = %q", d)
	}
	m.SetFailure(IndexURI, "")
	if obs := listSkills(t, p, "s1"); len(obs.Skills) != 1 {
		t.Fatalf("List after recovery = %+v", obs)
	}
	if d := p.Diagnostics(); len(d) != 0 {
		t.Errorf("Diagnostics after recovery = %q", d)
	}
	wantReads(t, m.Server, IndexURI, 2)
}

func TestMalformedIndexIsIncomplete(t *testing.T) {
	for name, doc := range map[string]string{
		"not json":      `{"skills": [`,
		"no skills":     `{"items": []}`,
		"skills object": `{"skills": {"a": 1}}`,
		"too large":     `{"skills": [], "pad": "` + strings.Repeat("x", 4096) + `"}`,
	} {
		t.Run(name, func(t *testing.T) {
			m := newMemServer()
			m.SetSkill("deploy", "Deploy.", "# Deploy\n")
			p := newMemProvider(t, m, Options{MaxIndexBytes: 2048, IndexMaxAge: time.Hour})
			listSkills(t, p, "s1")

			m.SetIndex(doc)
			obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s2"})
			if err == nil || obs.Complete || len(obs.Skills) != 0 {
				t.Fatalf("List = %+v, %v; want incomplete with an error", obs, err)
			}
			if !strings.Contains(err.Error(), "malformed index") {
				t.Errorf("error %q does not say the index is malformed", err)
			}
			// Not cached: the next List asks again.
			if _, err := p.List(t.Context(), skills.ListRequest{SessionID: "s2"}); err == nil {
				t.Fatal("second List succeeded")
			}
			wantReads(t, m.Server, IndexURI, 3)
		})
	}
}

func TestInvalidEntriesDroppedWithDiagnostics(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	m.SetIndex(`{"skills": [
		{"name": "deploy", "type": "skill-md", "description": "Deploy.", "url": "skill://deploy/SKILL.md", "capability": "skill:1"},
		{"name": "evil", "type": "skill-md", "description": "x", "url": "skill://deploy/SKILL.md"},
		{"name": "Bad", "type": "skill-md", "description": "x", "url": "skill://Bad/SKILL.md"}
	]}`)
	p := newMemProvider(t, m, Options{})
	obs := listSkills(t, p, "s1")
	if len(obs.Skills) != 1 || obs.Skills[0].Name != "deploy" {
		t.Fatalf("List = %+v", obs)
	}
	if d := p.Diagnostics(); len(d) != 2 {
		t.Errorf("Diagnostics = %q, want 2", d)
	}
	if _, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: "evil"}); found || err != nil {
		t.Errorf("Load(evil) = %v, %v; want not found", found, err)
	}
}

// TestEvictionLeastRecentlyUsed reads 101 resources in one session (the index
// and 100 bodies) with the default bound of 100: the least recently used
// body is evicted, the most recent one is not, and the index stays pinned.
func TestEvictionLeastRecentlyUsed(t *testing.T) {
	m := newMemServer()
	for i := range 100 {
		m.SetSkill(fmt.Sprintf("s%03d", i), "Skill.", fmt.Sprintf("body %d", i))
	}
	p := newMemProvider(t, m, Options{IndexMaxAge: time.Hour})
	listSkills(t, p, "s1")
	for i := range 100 {
		load(t, p, "s1", fmt.Sprintf("s%03d", i))
	}
	for i := range 100 {
		wantReads(t, m.Server, mcpfake.SkillURI(fmt.Sprintf("s%03d", i)), 1)
	}

	load(t, p, "s1", "s099")
	wantReads(t, m.Server, mcpfake.SkillURI("s099"), 1)
	load(t, p, "s1", "s000")
	wantReads(t, m.Server, mcpfake.SkillURI("s000"), 2)
	listSkills(t, p, "s1")
	wantReads(t, m.Server, IndexURI, 1)
	// Re-reading s000 evicted the next least recently used body, s001.
	load(t, p, "s1", "s001")
	wantReads(t, m.Server, mcpfake.SkillURI("s001"), 2)
	load(t, p, "s1", "s002")
	wantReads(t, m.Server, mcpfake.SkillURI("s002"), 2)
	load(t, p, "s1", "s099")
	wantReads(t, m.Server, mcpfake.SkillURI("s099"), 1)
}

func TestEvictionByBytes(t *testing.T) {
	m := newMemServer()
	for _, n := range []string{"a", "b", "c"} {
		m.SetSkill(n, "Skill.", strings.Repeat(n, 1000))
	}
	// Room for the index and two bodies, not three.
	p := newMemProvider(t, m, Options{CacheMaxBytes: 2600, IndexMaxAge: time.Hour})
	listSkills(t, p, "s1")
	load(t, p, "s1", "a")
	load(t, p, "s1", "b")
	load(t, p, "s1", "c") // evicts a
	load(t, p, "s1", "c")
	load(t, p, "s1", "b")
	wantReads(t, m.Server, mcpfake.SkillURI("b"), 1)
	wantReads(t, m.Server, mcpfake.SkillURI("c"), 1)
	load(t, p, "s1", "a")
	wantReads(t, m.Server, mcpfake.SkillURI("a"), 2)
	listSkills(t, p, "s1")
	wantReads(t, m.Server, IndexURI, 1)
}

func TestLargeBodyServedNotCached(t *testing.T) {
	m := newMemServer()
	big := strings.Repeat("0123456789abcdef", 2<<20/16) // 2 MiB
	m.SetSkill("big", "Big.", big)
	m.SetSkill("small", "Small.", "small body")
	p := newMemProvider(t, m, Options{CacheMaxBytes: 1 << 20})
	load(t, p, "s1", "small")
	for i := 1; i <= 2; i++ {
		def := load(t, p, "s1", "big")
		if len(def.Content) != len(big) || def.Content != big {
			t.Fatalf("big body: %d bytes, want %d", len(def.Content), len(big))
		}
		wantReads(t, m.Server, mcpfake.SkillURI("big"), i)
	}
	// The oversized body did not push anything out.
	load(t, p, "s1", "small")
	wantReads(t, m.Server, mcpfake.SkillURI("small"), 1)
	wantReads(t, m.Server, IndexURI, 1)
}

func TestEndSessionReleasesView(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	p := newMemProvider(t, m, Options{})
	for i := range 50 {
		s := fmt.Sprintf("s%d", i)
		load(t, p, s, "deploy")
		p.EndSession(s)
	}
	p.mu.Lock()
	n := len(p.sessions)
	p.mu.Unlock()
	if n != 0 {
		t.Errorf("%d session views remain after every session ended", n)
	}
	load(t, p, "s0", "deploy")
	wantReads(t, m.Server, mcpfake.SkillURI("deploy"), 51)
}

func TestEndSessionDuringRead(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	uri := mcpfake.SkillURI("deploy")
	p := newMemProvider(t, m, Options{})
	listSkills(t, p, "s1")
	m.SetBlocking(uri, true)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, _, err := p.Load(ctx, skills.LoadRequest{SessionID: "s1", Name: "deploy"})
		done <- err
	}()
	<-m.Started()
	p.EndSession("s1")
	cancel()
	<-m.Cancelled()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Load = %v, want context.Canceled", err)
	}
	p.mu.Lock()
	n := len(p.sessions)
	p.mu.Unlock()
	if n != 0 {
		t.Errorf("an ended session came back: %d views", n)
	}
}

func TestCancellationAbortsRequest(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	p := newMemProvider(t, m, Options{})
	listSkills(t, p, "s1")
	testCancellation(t, p, m.Server)
}

// testCancellation cancels a Load while the server is blocked reading the
// body, and checks that the call returns the cancellation, that the server's
// handler saw it, and that the provider still works afterwards.
func testCancellation(t *testing.T, p *Provider, s *mcpfake.Server) {
	t.Helper()
	uri := mcpfake.SkillURI("deploy")
	s.SetBlocking(uri, true)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, _, err := p.Load(ctx, skills.LoadRequest{SessionID: "s1", Name: "deploy"})
		done <- err
	}()
	if got := <-s.Started(); got != uri {
		t.Fatalf("server started reading %s", got)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Load = %v, want context.Canceled", err)
	}
	if got := <-s.Cancelled(); got != uri {
		t.Fatalf("server saw %s cancelled", got)
	}
	s.SetBlocking(uri, false)
	load(t, p, "s1", "deploy")
}

func TestRequestTimeout(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	p := newMemProvider(t, m, Options{RequestTimeout: 50 * time.Millisecond})
	m.SetBlocking(IndexURI, true)
	obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
	if err == nil || obs.Complete || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("List = %+v, %v; want incomplete, deadline exceeded", obs, err)
	}
	<-m.Started()
	<-m.Cancelled()
	m.SetBlocking(IndexURI, false)
	// A timed-out server may be stuck: the next call uses a new connection.
	listSkills(t, p, "s1")
	if got := m.connects.Load(); got != 2 {
		t.Errorf("%d connections, want 2", got)
	}
}

func TestServerDownIsIncompleteThenRecovers(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	m.SetSkill("audit", "Audit.", "# Audit\n")
	p := newMemProvider(t, m, Options{IndexMaxAge: time.Nanosecond})
	listSkills(t, p, "s1")

	m.crash()
	for range 2 {
		obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
		if err == nil || obs.Complete || len(obs.Skills) != 0 {
			t.Fatalf("List with the server down = %+v, %v; want incomplete with an error", obs, err)
		}
	}
	m.RemoveSkill("audit")
	m.recover()
	obs := listSkills(t, p, "s1")
	if len(obs.Skills) != 1 || obs.Skills[0].Name != "deploy" {
		t.Fatalf("List after recovery = %+v", obs)
	}
}

func TestReconnectAfterBrokenConnection(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	p := newMemProvider(t, m, Options{})
	listSkills(t, p, "s1")
	// The server drops the connection between calls; the next call
	// reconnects without failing.
	m.CloseSessions()
	load(t, p, "s1", "deploy")
	if got := m.connects.Load(); got != 2 {
		t.Errorf("%d connections, want 2", got)
	}
}

func TestListChangedInvalidatesAndRereadsIndex(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	m.SetSkill("audit", "Audit.", "# Audit\n")
	p := newMemProvider(t, m, Options{IndexMaxAge: time.Hour})
	invalidated := make(chan struct{}, 16)
	p.SetInvalidate(func() { invalidated <- struct{}{} })
	listSkills(t, p, "s1")
	listSkills(t, p, "s1")
	wantReads(t, m.Server, IndexURI, 1)

	m.RemoveSkill("audit")
	awaitInvalidation(t, invalidated, m.ListChanged)
	obs := listSkills(t, p, "s1")
	if len(obs.Skills) != 1 || obs.Skills[0].Name != "deploy" {
		t.Fatalf("List after list_changed = %+v", obs)
	}
	wantReads(t, m.Server, IndexURI, 2)
	// The removed skill is gone from this session's view too.
	if _, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: "audit"}); found || err != nil {
		t.Errorf("Load(audit) = %v, %v; want not found", found, err)
	}
}

// awaitInvalidation waits until the provider invalidates. A notification
// the server sends before the client's subscription is in place is lost (the
// SDK opens it in the background), so nudge makes the server notify again
// until one arrives.
func awaitInvalidation(t *testing.T, invalidated <-chan struct{}, nudge func()) {
	t.Helper()
	for {
		select {
		case <-invalidated:
			return
		case <-t.Context().Done():
			t.Fatal("the provider never invalidated")
		case <-time.After(20 * time.Millisecond):
			nudge()
		}
	}
}

func TestIndexUpdatedNotification(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	p := newMemProvider(t, m, Options{IndexMaxAge: time.Hour})
	invalidated := make(chan struct{}, 16)
	p.SetInvalidate(func() { invalidated <- struct{}{} })
	listSkills(t, p, "s1")
	// Only notifications/resources/updated for the index, no list_changed.
	m.SetIndex(`{"skills": []}`)
	awaitInvalidation(t, invalidated, m.IndexUpdated)
	if obs := listSkills(t, p, "s1"); len(obs.Skills) != 0 {
		t.Fatalf("List after the index was updated = %+v", obs)
	}
	wantReads(t, m.Server, IndexURI, 2)
}

func TestIndexMaxAge(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	p := newMemProvider(t, m, Options{IndexMaxAge: time.Millisecond})
	invalidated := make(chan struct{}, 16)
	p.SetInvalidate(func() { invalidated <- struct{}{} })
	listSkills(t, p, "s1")
	load(t, p, "s1", "deploy")
	// The timer fires once the copy is IndexMaxAge old; the next List then
	// reads the index again, but bodies stay cached.
	<-invalidated
	m.SetSkill("audit", "Audit.", "# Audit\n")
	obs := listSkills(t, p, "s1")
	if len(obs.Skills) != 2 {
		t.Fatalf("List after IndexMaxAge = %+v", obs)
	}
	wantReads(t, m.Server, IndexURI, 2)
	load(t, p, "s1", "deploy")
	wantReads(t, m.Server, mcpfake.SkillURI("deploy"), 1)
}

func TestReadResource(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\nSee references/guide.md\n")
	m.SetResource("skill://deploy/references/guide.md", "guide")
	m.SetResource("skill://other/secret.md", "secret")
	p := newMemProvider(t, m, Options{})

	for range 2 {
		c, err := p.ReadResource(t.Context(), "s1", "deploy", "skill://deploy/references/guide.md")
		if err != nil || c.Text != "guide" {
			t.Fatalf("ReadResource = %+v, %v", c, err)
		}
	}
	wantReads(t, m.Server, "skill://deploy/references/guide.md", 1)

	for _, uri := range []string{"skill://other/secret.md", "skill://deploy/../other/secret.md", "skill://deploy/%2e%2e/other/secret.md"} {
		if _, err := p.ReadResource(t.Context(), "s1", "deploy", uri); err == nil {
			t.Errorf("ReadResource(%s) succeeded", uri)
		}
	}
	if _, err := p.ReadResource(t.Context(), "s1", "other", "skill://other/secret.md"); !errors.Is(err, ErrUnknownSkill) {
		t.Errorf("ReadResource of an unlisted skill = %v, want ErrUnknownSkill", err)
	}
	wantReads(t, m.Server, "skill://other/secret.md", 0)
}

func TestClose(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	p := newMemProvider(t, m, Options{IndexMaxAge: time.Hour})
	invalidated := atomic.Int32{}
	p.SetInvalidate(func() { invalidated.Add(1) })
	listSkills(t, p, "s1")
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	timer := p.timer
	p.mu.Unlock()
	if timer != nil {
		t.Error("timer still set after Close")
	}
	if _, err := p.List(t.Context(), skills.ListRequest{SessionID: "s1"}); !errors.Is(err, ErrClosed) {
		t.Errorf("List after Close = %v, want ErrClosed", err)
	}
	if _, _, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s1", Name: "deploy"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Load after Close = %v, want ErrClosed", err)
	}
	if n := invalidated.Load(); n != 0 {
		t.Errorf("invalidated %d times", n)
	}
}

func TestCloseLeavesNoGoroutines(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())

	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\n")
	_, h := newHTTPServer(t)
	hp := newHTTPProvider(t, Options{URL: h.URL(), Headers: map[string]string{"Authorization": testToken}, IndexMaxAge: time.Hour})
	mp := newMemProvider(t, m, Options{IndexMaxAge: time.Hour})
	sp, _ := newStdioProvider(t, stdioSpec{}, Options{IndexMaxAge: time.Hour})
	for _, p := range []*Provider{hp, mp, sp} {
		listSkills(t, p, "s1")
		load(t, p, "s1", "deploy")
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
}

func TestConnectionBroken(t *testing.T) {
	live := t.Context()
	done, cancel := context.WithCancel(t.Context())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"server answered not found", live, fmt.Errorf("calling: %w", mcp.ResourceNotFoundError("skill://x/SKILL.md")), false},
		{"server answered internal error", live, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "boom"}, false},
		{"rejected by transport", live, fmt.Errorf("sending: %w", &jsonrpc.Error{Code: -32005, Message: "rejected by transport"}), true},
		{"client closing", live, &jsonrpc.Error{Code: -32003}, true},
		{"server closing", live, &jsonrpc.Error{Code: -32004}, true},
		{"connection closed", live, fmt.Errorf("%w: calling", mcp.ErrConnectionClosed), true},
		{"request timeout", live, context.DeadlineExceeded, true},
		{"other", live, errors.New("EOF"), true},
		{"caller cancelled", done, context.Canceled, false},
		{"caller cancelled, transport error", done, errors.New("EOF"), false},
	} {
		if got := connectionBroken(tc.ctx, tc.err); got != tc.want {
			t.Errorf("%s: connectionBroken = %v, want %v", tc.name, got, tc.want)
		}
	}
}
