package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// sessionID names the conversation's session in every row.
const sessionID = "report-session"

// way is a way of giving the model its skills, for a runtime that keeps
// the conversation's history itself and calls a model API.
type way interface {
	// request returns the conversation and the tools to send for the
	// runtime's history.
	request(ctx context.Context, history []hostsdk.Message) ([]hostsdk.Message, []tools.Definition, error)
	// call runs the model's call of a tool.
	call(ctx context.Context, c hostsdk.ToolCall) (hostsdk.ToolResult, error)
	// changed says the skills on disk changed.
	changed()
	close() error
}

// conversed runs the scenario's conversation over the skills in
// dir/skills with way, sending every request with send, and returns
// nothing but errors: the recorder keeps the requests.
func conversed(ctx context.Context, sc *scenario, dir string, w way, send sendFunc) error {
	var history []hostsdk.Message
	for i, t := range sc.turns {
		if t.change != nil {
			if err := t.change(filepath.Join(dir, "skills")); err != nil {
				return err
			}
			w.changed()
		}
		history = append(history, hostsdk.Message{ID: fmt.Sprintf("user-%d", i+1), Role: hostsdk.RoleUser,
			Content: []hostsdk.ContentBlock{hostsdk.TextBlock(t.user)}})
		for {
			conv, defs, err := w.request(ctx, history)
			if err != nil {
				return fmt.Errorf("turn %d: %w", i+1, err)
			}
			reply, err := send(ctx, sessionID, conv, defs)
			if err != nil {
				return fmt.Errorf("turn %d: %w", i+1, err)
			}
			history = append(history, reply)
			calls := modelapi.Calls(reply)
			if len(calls) == 0 {
				break
			}
			var results []modelapi.Result
			for _, c := range calls {
				res, err := w.call(ctx, c)
				if err != nil {
					return fmt.Errorf("turn %d: %s: %w", i+1, c.Name, err)
				}
				results = append(results, modelapi.Result{CallID: c.CallID, Result: res})
			}
			msg, err := modelapi.ResultMessage(reply.ID+"-results", results...)
			if err != nil {
				return err
			}
			history = append(history, msg)
		}
	}
	return nil
}

func systemMessage(text string) hostsdk.Message {
	return hostsdk.Message{ID: "system", Role: hostsdk.RoleSystem, Content: []hostsdk.ContentBlock{hostsdk.TextBlock(text)}}
}

// pluginHost is a host with the plugin in process over the skills in
// dir/skills, mounted in the global scope with the row's options, the
// directory watched as hostsdk.Open watches it, so that the provider scans
// it again only after a change. The host is also told of each change
// (changed) as soon as it is on disk, where the watcher would notice it a
// moment later, so that every row sees each change at the same turn.
type pluginHost struct {
	host *hostsdk.Host
	disk *agentskills.Provider
}

func openPluginHost(ctx context.Context, dir string, mount hostsdk.MountOptions) (*pluginHost, error) {
	quiet := slog.New(slog.DiscardHandler)
	disk, err := agentskills.New(&agentskills.Options{HomeDir: filepath.Join(dir, "home"), ExtraRoots: []string{filepath.Join(dir, "skills")},
		Watch: true, Logger: quiet})
	if err != nil {
		return nil, err
	}
	reg, err := skills.NewRegistry(nil)
	if err != nil {
		disk.Close()
		return nil, err
	}
	reg.AddProvider(tools.GlobalScope, disk, nil)
	host, err := hostsdk.New(&hostsdk.Options{Tools: tools.NewTree(), Skills: reg, Sessions: sessionlog.NewMemoryStore(), Logger: quiet})
	if err != nil {
		disk.Close()
		return nil, err
	}
	p, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err == nil {
		_, err = p.Mount(ctx, tools.GlobalScope, &mount)
	}
	if err != nil {
		host.Close()
		disk.Close()
		return nil, err
	}
	return &pluginHost{host: host, disk: disk}, nil
}

// changed tells the host that the skills on disk changed: the provider
// drops its scans, and the registry its snapshots.
func (h *pluginHost) changed() { h.disk.Invalidate() }

func (h *pluginHost) close() error { return errors.Join(h.host.Close(), h.disk.Close()) }

// ours is the plugin through hostsdk.Session.Sync: the runtime's history
// in, the conversation with the plugin's messages at their places out.
type ours struct {
	*pluginHost
	session *hostsdk.Session
}

func newOurs(mount hostsdk.MountOptions) func(context.Context, string) (way, error) {
	return func(ctx context.Context, dir string) (way, error) {
		h, err := openPluginHost(ctx, dir, mount)
		if err != nil {
			return nil, err
		}
		return &ours{pluginHost: h, session: h.host.Session(sessionID, nil)}, nil
	}
}

func (o *ours) request(ctx context.Context, history []hostsdk.Message) ([]hostsdk.Message, []tools.Definition, error) {
	res, err := o.session.Sync(ctx, history)
	if err != nil {
		return nil, nil, err
	}
	conv := []hostsdk.Message{systemMessage(systemPrompt)}
	for _, v := range res.View {
		conv = append(conv, v.Message)
	}
	return conv, o.session.Tools(), nil
}

func (o *ours) call(ctx context.Context, c hostsdk.ToolCall) (hostsdk.ToolResult, error) {
	return o.session.CallTool(ctx, c)
}

// Where an alternative puts the catalog.
const (
	inToolDescription = "the skill tool's description"
	inSystemPrompt    = "the system prompt"
)

// alternative gives the model its skills as frameworks commonly do, with
// no plugin: before every call it reads the skills' names and
// descriptions from disk and writes the catalog into where (the skill
// tool's description, or the system prompt); its skill tool returns the
// skill's directory and body.
type alternative struct {
	dir, where string
}

func (a *alternative) request(_ context.Context, history []hostsdk.Message) ([]hostsdk.Message, []tools.Definition, error) {
	catalog, err := a.catalog()
	if err != nil {
		return nil, nil, err
	}
	system, desc := systemPrompt+"\n\n"+skillsSystemText, skillToolText
	if a.where == inSystemPrompt {
		system += "\n\n" + catalog
	} else {
		desc += "\n\n" + catalog
	}
	defs := []tools.Definition{{Name: "skill", Description: desc,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"The skill's name, as the list gives it"}},"required":["name"]}`)}}
	return append([]hostsdk.Message{systemMessage(system)}, history...), defs, nil
}

// The alternatives' fixed texts.
const (
	skillsSystemText = "# Skills\nSkills are folders of instructions for particular tasks. When a task matches a skill's " +
		"description, load the skill with the skill tool and follow its instructions; load a skill only when the task needs it."
	skillToolText = "Load a skill's full instructions by its name. Call it when the user's task matches a skill's description, " +
		"before you act on the task."
)

// catalog lists the skills on disk, by name: each one's name and
// description.
func (a *alternative) catalog() (string, error) {
	entries, err := os.ReadDir(filepath.Join(a.dir, "skills"))
	if err != nil {
		return "", err
	}
	var lines []string
	for _, e := range entries {
		name, desc, _, err := readSkill(filepath.Join(a.dir, "skills", e.Name(), "SKILL.md"))
		if err != nil {
			return "", err
		}
		lines = append(lines, fmt.Sprintf("<skill>\n<name>%s</name>\n<description>%s</description>\n</skill>", name, desc))
	}
	sort.Strings(lines)
	return "<available_skills>\n" + strings.Join(lines, "\n") + "\n</available_skills>", nil
}

func (a *alternative) call(_ context.Context, c hostsdk.ToolCall) (hostsdk.ToolResult, error) {
	var args struct{ Name string }
	if err := json.Unmarshal(c.Arguments, &args); err != nil {
		return hostsdk.ToolResult{Text: "Error: the arguments are not a JSON object with a name", IsError: true}, nil
	}
	dir := filepath.Join(a.dir, "skills", filepath.Base(args.Name))
	_, _, body, err := readSkill(filepath.Join(dir, "SKILL.md"))
	if err != nil {
		return hostsdk.ToolResult{Text: "Error: no skill " + args.Name, IsError: true}, nil
	}
	return hostsdk.ToolResult{Text: fmt.Sprintf("Launching skill: %s\nThe skill's directory is %s; its files are there.\n\n%s", args.Name, dir, body)}, nil
}

func (a *alternative) changed() {}

func (a *alternative) close() error { return nil }

// readSkill reads a SKILL.md as the conversation writes them: a name and a
// description line in the frontmatter, then the body.
func readSkill(path string) (name, desc, body string, err error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", "", "", err
	}
	front, body, ok := strings.Cut(strings.TrimPrefix(string(raw), "---\n"), "\n---\n")
	if !ok {
		return "", "", "", fmt.Errorf("%s: no frontmatter", path)
	}
	for _, line := range strings.Split(front, "\n") {
		if v, ok := strings.CutPrefix(line, "name: "); ok {
			name = v
		} else if v, ok := strings.CutPrefix(line, "description: "); ok {
			desc = v
		}
	}
	return name, desc, body, nil
}
