package skillgenkit_test

import (
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skillgenkit "github.com/skillcatalog/skillcatalog/hostsdk/genkit"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// A Generate whose host was closed (a constructor that deferred Close)
// fails with ErrClosed, rather than running without its skills.
func TestClosedHost(t *testing.T) {
	f := newFixture(t, copySkills(t), t.TempDir())
	if err := f.host.Close(); err != nil {
		t.Fatal(err)
	}
	f.model.queue(answer("Hello."))
	f.conv.history = append(f.conv.history, ai.NewUserTextMessage("Hi."))
	_, err := f.conv.generate(t.Context())
	if !errors.Is(err, hostsdk.ErrClosed) {
		t.Fatalf("a Generate on a closed host ended with %v, want ErrClosed", err)
	}
	if got := len(f.model.allRequests()); got != 0 {
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
	s, err := skillgenkit.New(t.Context(), host, &skillgenkit.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Unmount(t.Context()); err != nil {
		t.Fatal(err)
	}
	g := genkit.Init(t.Context())
	model := newScriptedModel(g, "test/scripted")
	model.queue(answer("Hello."))
	conv := &conversation{g: g, model: model, skills: s, id: "s1"}
	conv.turn(t, "Hi.")
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "no-mount") {
		t.Errorf("a step with nothing mounted was not logged as a warning:\n%s", logs.String())
	}
}
