// Package skill is the vocabulary that every part of the skill catalog
// shares: what a skill may be called, who may invoke it, where the files its
// instructions refer to live, how such a location is shown on one line
// ([QuoteUnsafe]), the value the `skill` tool returns, and the page the
// resource-read tool returns ([ResourcePage], [IsText], [MaxResourceBytes]).
//
// The plugin's rules, the texts in package render, the host's registry and
// every provider use these definitions, so the name grammar, the resource
// base kinds and the tool values exist once. The package depends only on the
// standard library and holds no state.
package skill
