package tools

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// GlobalScope is the root of every Tree, the protocol's global scope.
const GlobalScope = contract.GlobalScope

// Definition describes a tool as the model sees it.
type Definition struct {
	Name        string
	Description string
	// InputSchema and OutputSchema are JSON Schema documents, kept opaque
	// and byte for byte.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
}

// ResolvedTool is one tool a scope sees.
type ResolvedTool struct {
	// Identity is the registration's opaque identity.
	Identity string
	// Scope is the scope the definition was registered into.
	Scope      string
	Definition Definition
}

// Errors returned (wrapped) by Tree methods, for errors.Is.
var (
	ErrUnknownScope   = errors.New("tools: unknown scope")
	ErrDuplicateScope = errors.New("tools: scope already exists")
	ErrDuplicateTool  = errors.New("tools: tool name already registered in this scope")
)

// Tree is a scope tree with the tool definitions registered into it. It is
// safe for concurrent use. The zero value is not usable; call NewTree.
type Tree struct {
	mu     sync.RWMutex
	scopes map[string]*scope
	byID   map[string]*entry
	minted uint64 // registrations so far; part of every identity
}

type scope struct {
	id     string
	parent *scope // nil for GlobalScope
	tools  map[string]*entry
	denied map[string]bool
}

type entry struct {
	identity string
	scope    *scope
	def      Definition
}

// NewTree returns a tree holding only GlobalScope.
func NewTree() *Tree {
	t := &Tree{scopes: make(map[string]*scope), byID: make(map[string]*entry)}
	t.scopes[GlobalScope] = newScope(GlobalScope, nil)
	return t
}

func newScope(id string, parent *scope) *scope {
	return &scope{id: id, parent: parent, tools: make(map[string]*entry), denied: make(map[string]bool)}
}

// AddScope adds scope id as a child of parent.
func (t *Tree) AddScope(id, parent string) error {
	if id == "" {
		return errors.New("tools: add scope: id is empty")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.scopes[id]; ok {
		return fmt.Errorf("tools: add scope %q: %w", id, ErrDuplicateScope)
	}
	p, ok := t.scopes[parent]
	if !ok {
		return fmt.Errorf("tools: add scope %q under %q: parent: %w", id, parent, ErrUnknownScope)
	}
	t.scopes[id] = newScope(id, p)
	return nil
}

// Chain returns id's ancestry, nearest first, ending with GlobalScope.
func (t *Tree) Chain(id string) ([]string, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	s, ok := t.scopes[id]
	if !ok {
		return nil, fmt.Errorf("tools: chain of %q: %w", id, ErrUnknownScope)
	}
	var chain []string
	for ; s != nil; s = s.parent {
		chain = append(chain, s.id)
	}
	return chain, nil
}

// Register files def into scope and returns the registration's identity,
// new for every registration (registering the same definition again after
// Unregister yields a different identity). A second definition with the
// same name in the same scope is an error; in a child scope it shadows.
func (t *Tree) Register(scopeID string, def Definition) (identity string, err error) {
	if strings.TrimSpace(def.Name) == "" {
		return "", fmt.Errorf("tools: register in scope %q: name is empty", scopeID)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.scopes[scopeID]
	if !ok {
		return "", fmt.Errorf("tools: register %q in scope %q: %w", def.Name, scopeID, ErrUnknownScope)
	}
	if old, ok := s.tools[def.Name]; ok {
		return "", fmt.Errorf("tools: register %q in scope %q (held by %s): %w", def.Name, scopeID, old.identity, ErrDuplicateTool)
	}
	t.minted++
	e := &entry{identity: mintIdentity(t.minted), scope: s, def: def}
	s.tools[def.Name] = e
	t.byID[e.identity] = e
	return e.identity, nil
}

// mintIdentity combines a per-tree counter (unique within the tree) with a
// random suffix (unique across trees and process restarts), so a stale
// identity held from an earlier registration never matches a new one.
func mintIdentity(n uint64) string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails; see crypto/rand.Read
	return "tooldef-" + strconv.FormatUint(n, 10) + "-" + hex.EncodeToString(b[:])
}

// Unregister removes the registration with identity and reports whether it
// existed.
func (t *Tree) Unregister(identity string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.byID[identity]
	if !ok {
		return false
	}
	delete(t.byID, identity)
	delete(e.scope.tools, e.def.Name)
	return true
}

// Restrict denies name in scope: it resolves to nothing there and in every
// descendant, including definitions those scopes register themselves.
// Restricting an already restricted name is a no-op.
func (t *Tree) Restrict(scopeID, name string) error {
	return t.setDenied(scopeID, name, true)
}

// Unrestrict lifts scope's own restriction of name. Restrictions made by
// other scopes in the chain still apply. Lifting an absent restriction is a
// no-op.
func (t *Tree) Unrestrict(scopeID, name string) error {
	return t.setDenied(scopeID, name, false)
}

func (t *Tree) setDenied(scopeID, name string, deny bool) error {
	verb := "restrict"
	if !deny {
		verb = "unrestrict"
	}
	if name == "" {
		return fmt.Errorf("tools: %s in scope %q: name is empty", verb, scopeID)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.scopes[scopeID]
	if !ok {
		return fmt.Errorf("tools: %s %q in scope %q: %w", verb, name, scopeID, ErrUnknownScope)
	}
	if deny {
		s.denied[name] = true
	} else {
		delete(s.denied, name)
	}
	return nil
}

// Resolve returns the definition name resolves to from scope: the nearest
// registration in the chain, unless some scope in the chain restricts the
// name. An unknown scope resolves nothing.
func (t *Tree) Resolve(scopeID, name string) (identity string, def Definition, ok bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	s, known := t.scopes[scopeID]
	if !known {
		return "", Definition{}, false
	}
	var found *entry
	for ; s != nil; s = s.parent {
		if s.denied[name] {
			return "", Definition{}, false
		}
		if found == nil {
			found = s.tools[name]
		}
	}
	if found == nil {
		return "", Definition{}, false
	}
	return found.identity, found.def, true
}

// Visible returns every tool scope sees, one per name, sorted by name, each
// with the identity and scope of the definition that wins. An unknown scope
// sees nothing.
func (t *Tree) Visible(scopeID string) []ResolvedTool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	s, ok := t.scopes[scopeID]
	if !ok {
		return nil
	}
	denied := make(map[string]bool)
	winners := make(map[string]*entry)
	for ; s != nil; s = s.parent {
		for name := range s.denied {
			denied[name] = true
		}
		for name, e := range s.tools {
			if _, ok := winners[name]; !ok {
				winners[name] = e
			}
		}
	}
	out := make([]ResolvedTool, 0, len(winners))
	for name, e := range winners {
		if denied[name] {
			continue
		}
		out = append(out, ResolvedTool{Identity: e.identity, Scope: e.scope.id, Definition: e.def})
	}
	slices.SortFunc(out, func(a, b ResolvedTool) int { return strings.Compare(a.Definition.Name, b.Definition.Name) })
	return out
}
