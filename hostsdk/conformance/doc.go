// Package conformance runs declarative scenarios against the skill-catalog
// plugin through the host SDK, and reports how the plugin's behaviour
// differs from what each scenario expects. It is how hosts and plugin
// releases prove they keep the behaviour contract (the rules in the plugin
// package's documentation, and the exact model-facing texts the render
// package writes): the repository's scenarios live in testdata/conformance, and
// `skillcatalog conform -plugin PATH [FILE|DIR ...]` (or -in-process) runs
// them.
//
// Every scenario runs in a fresh world: a new scope tree, skill registry,
// scripted providers, websites (static trees served on loopback and read by
// real skill/webskills providers), a file-backed session store in a
// temporary directory, a Host and its own plugin instance, all closed
// afterwards. Steps run in
// order; the first step whose expectations fail is reported with a go-cmp
// diff (-want +got) labelled with its number, its action and the changes
// made since the previous checked step, for example
//
//	step 3 (preStep by agent:main in session s1; after: add skill beta to global): added messages (-want +got): ...
//
// and the steps after it are not run. Expected texts are written out in the
// scenario files, never computed with the plugin's own rendering code, so a
// plugin that renders wrongly fails.
//
// # Scenario format
//
// One scenario per YAML file, decoded strictly: an unknown or repeated
// field, or a value of the wrong type, is a *ParseError that names the
// file, line and column. Every field, its default and what it checks is
// described once, in the field reference of testdata/conformance/README.md;
// the unexported types of scenario.go mirror it, field for field (their yaml
// tags are the field names), and load.go holds the rules a file must keep
// beyond its shape and fills in the defaults.
package conformance
