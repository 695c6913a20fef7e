// Package render produces every text the skill catalog shows a model: the
// initial and replacement catalogs, the tombstone that retires every earlier
// skill name, the `skill` tool's definition and its result text, and the
// tool's error texts, and the notice that follows a skill's text when the
// host does not act on what the skill asks of it (DirectivesNotice: a fork,
// a model, tools to pre-approve). It also owns the description normalization that
// decides what a catalog entry says, and the fitting of a catalog to a
// budget of characters ([FitCatalog]).
//
// The texts are part of the product's contract with models and with
// sessions recorded by other runtimes, so they are pinned byte for byte by
// golden files. The package is pure: no I/O, no shared state, and every
// function is safe for concurrent use.
//
// Escaping follows one rule: data placed in prose (names, descriptions,
// resource bases) is escaped with [Escape] so it cannot close or open the
// surrounding tags; the skill name in the name="..." attribute uses
// [EscapeAttr]; the instructions and resource files of the host's own skills
// are inserted verbatim because they are the payload the model asked for.
//
// Text from a remote origin is never inserted verbatim. A skill with an
// Origin (skill.ToolValue.Origin: the host's label of the MCP server or the
// website that serves it, skill.ToolValue.OriginKind saying which) is
// untrusted, and every byte of it that this package shows is escaped like
// prose, & < > becoming &amp; &lt; &gt;: its instructions in the `skill`
// result and in the message a user's /name invocation adds
// (SkillContentFor), the text of its files ([ResourcePageFrom]), its catalog
// description (as every description), and a provider's error text that may
// quote it ([ProviderFailedUntrusted]). No byte of it can then close the block
// that labels it, or open a reminder, a catalog or a skill block of its own:
// the only tags in a text are the package's. The catalog line, the block and
// the page name the source by its kind and label (MCP server `docs`, website
// `docs`); the block and the page say the text is untrusted and shown
// escaped, so a model reads &lt; as <, and unescaping gives back the exact
// bytes. Escaping was chosen over a per-block boundary the origin
// cannot guess: a boundary needs randomness or a secret (the texts are
// pinned byte for byte, recorded in sessions and replayed), and leaves the
// origin's own closing tags in the text for a model to misread, where
// escaping leaves none, which a test can check.
//
// Control and invisible characters never reach a model through the data
// this package places around the instructions. [NormalizeDescription] removes
// them from descriptions (ANSI escape sequences, C0 and C1 controls,
// bidirectional controls, zero-width and other format characters). A
// resource base that holds any of them, a line separator or a byte that is
// not UTF-8 is shown as a Go string literal (skill.QuoteUnsafe), so its line
// stays one line and strconv.Unquote gives back the exact value.
//
// # Why it is public
//
// The plugin is the package's main user, but the texts are a contract with
// sessions that other runtimes record and read: a Go host or adapter that
// shows a skill itself (skilleino, skillserver) uses the same description
// normalization and directives notice, and a tool that checks a transcript
// can compare its messages with these texts. The unbudgeted reference
// renderers (InitialCatalog, ReplacementCatalog, ResourcePage and the
// closing notes) stay exported for the same reason and for the plugin's
// tests, which check the budgeted, incremental path the plugin takes
// (FitCatalog, AssembleCatalogSeq) against them: an independent rendering
// of the literal templates, not the production path compared with itself.
package render
