package hostsdk

import (
	"encoding/json"
	"path/filepath"
	"slices"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// touchedArgumentNames are the tool-call argument names whose string
// values (or arrays of strings) name files the call works with: those of
// the common file tools (Claude Code's Read, Write and Edit take
// file_path, NotebookEdit notebook_path; other runtimes' tools take path,
// filePath, filename, file, or lists as paths and files).
var touchedArgumentNames = [...]string{"path", "file_path", "filePath", "filename", "file", "notebook_path", "paths", "files"}

// maxTouchedArguments bounds the argument values one call contributes.
const maxTouchedArguments = 64

// TouchedPathsOf returns the files a tool call's JSON arguments name,
// for Step.TouchedPaths: the string values, and the strings of array
// values, of its top-level arguments named path, file_path, filePath,
// filename, file, notebook_path, paths or files, in that order, with
// filepath.ToSlash applied. Arguments that are not a JSON object, and
// values of other types, name nothing. A runtime whose file tools name
// their files otherwise reports them with Session.Touch.
func TouchedPathsOf(arguments json.RawMessage) []string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(arguments, &obj) != nil {
		return nil
	}
	var out []string
	for _, name := range touchedArgumentNames {
		raw, ok := obj[name]
		if !ok {
			continue
		}
		var one string
		if json.Unmarshal(raw, &one) == nil {
			if one != "" {
				out = append(out, filepath.ToSlash(one))
			}
			continue
		}
		var many []string
		if json.Unmarshal(raw, &many) == nil {
			for _, p := range many {
				if p != "" && len(out) < maxTouchedArguments {
					out = append(out, filepath.ToSlash(p))
				}
			}
		}
		if len(out) >= maxTouchedArguments {
			break
		}
	}
	return out
}

// TouchedPathsOfMessages returns the files the tool calls (tool_use
// blocks) of msgs name, as TouchedPathsOf reads each call's input: what
// every step (Session.Step, Session.Sync) sends as touched paths beside
// those Session.Touch reported, for the tool calls of the messages it
// proposes.
func TouchedPathsOfMessages(msgs []Message) []string {
	var out []string
	for _, m := range msgs {
		for _, b := range m.Content {
			if call, ok := b.ToolUse(); ok {
				out = append(out, TouchedPathsOf(call.Input)...)
			}
		}
	}
	return lastTouched(out)
}

// Touch reports files the session worked with outside the tool calls the
// session's messages carry (or named by arguments TouchedPathsOf does not
// read): the next Step or Sync sends them to the plugin (Step.TouchedPaths),
// and a skill scoped by `paths` that one of them matches enters the
// catalog there.
func (s *Session) Touch(paths ...string) {
	st := s.h.sessions.get(s.id)
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, p := range paths {
		if p != "" {
			st.touched = append(st.touched, filepath.ToSlash(p))
		}
	}
	st.touched = lastTouched(st.touched)
}

// takeTouched returns and forgets the paths Touch reported.
func (st *session) takeTouched() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	t := st.touched
	st.touched = nil
	return t
}

// touchedOf is what a step sends as its touched paths: the step's own,
// then those the tool calls of its downstream messages name, the last
// contract.MaxTouchedPaths of them.
func touchedOf(step Step, downstream Decision) []string {
	derived := TouchedPathsOfMessages(downstream.Messages)
	if len(derived) == 0 {
		return lastTouched(step.TouchedPaths)
	}
	return lastTouched(append(slices.Clone(step.TouchedPaths), derived...))
}

// lastTouched returns the last contract.MaxTouchedPaths of paths.
func lastTouched(paths []string) []string {
	if len(paths) > contract.MaxTouchedPaths {
		return paths[len(paths)-contract.MaxTouchedPaths:]
	}
	return paths
}
