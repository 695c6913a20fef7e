package skilleino_test

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skilleino "github.com/skillcatalog/skillcatalog/hostsdk/eino"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// A Run on an agent whose host was closed (a constructor that deferred
// Close) fails with ErrClosed, rather than running without its skills.
// Eino passes the error on as text (its node errors keep no chain), so the
// Run's error is checked for ErrClosed's message.
func TestClosedHost(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	if err := f.host.Close(); err != nil {
		t.Fatal(err)
	}
	f.model.queue(answer("Hello."))
	f.conv.history = append(f.conv.history, schema.UserMessage("Hi."))
	_, runErr := runTurn(t.Context(), f.conv.runner, f.conv.history, f.conv.opts...)
	if runErr == nil || !strings.Contains(runErr.Error(), hostsdk.ErrClosed.Error()) {
		t.Fatalf("a Run on a closed host ended with %v, want ErrClosed", runErr)
	}
	if got := len(f.model.requests()); got != 0 {
		t.Errorf("the model was called %d times on a closed host, want 0", got)
	}
}

// A step that publishes nothing because no mount is in effect for the
// agent is logged as a warning: the model runs without a catalog.
func TestNoMountWarns(t *testing.T) {
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: registry, Sessions: sessionlog.NewMemoryStore(), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	p, err := host.Load(t.Context(), &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.Mount(t.Context(), tools.GlobalScope, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := skilleino.New(t.Context(), host, &skilleino.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Unmount(t.Context()); err != nil {
		t.Fatal(err)
	}
	model := newScriptedModel()
	model.queue(answer("Hello."))
	conv := &conversation{runner: newAgentRunner(t, model, s.Middleware()), opts: []adk.AgentRunOption{skilleino.WithSession("s1")}}
	conv.turn(t, "Hi.")
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "no-mount") {
		t.Errorf("a step with nothing mounted was not logged as a warning:\n%s", logs.String())
	}
}
