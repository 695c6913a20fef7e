// Package tools is the host's scope tree and tool definition registry.
//
// Scopes form a tree rooted at [GlobalScope]: an agent composition is a child
// of the global scope, and deeper layers hang below it. A tool definition is
// registered into one scope and receives an opaque identity. Resolving a
// tool name from a scope walks the chain nearest first, so a same-name
// definition in a child scope shadows its parent's. A scope may restrict a
// name away (a deny list); the name then resolves to nothing for that scope
// and all of its descendants, whatever they register.
//
// Identities let a caller ask "is the definition this name resolves to the
// one I registered?" rather than "does this name resolve?", which is what
// distinguishes a tool from a same-name shadow.
package tools
