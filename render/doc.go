// Package render produces every text the skill catalog shows a model: the
// initial and replacement catalogs, the tombstone that retires every earlier
// skill name, the `skill` tool's definition and its result text, and the
// tool's error texts. It also owns the description normalization that
// decides what a catalog entry says, and the fitting of a catalog to a
// budget of characters (FitCatalog).
//
// The texts are part of the product's contract with models and with
// sessions recorded by other runtimes, so they are pinned byte for byte by
// golden files. The package is pure: no I/O, no shared state, and every
// function is safe for concurrent use.
//
// Escaping follows one rule: data placed in prose (names, descriptions,
// resource bases) is escaped with Escape so it cannot close or open the
// surrounding tags; the skill name in the name="..." attribute uses
// EscapeAttr; a loaded skill's instructions are inserted verbatim because
// they are the payload the model asked for.
//
// Control and invisible characters never reach a model through the data
// this package places around the instructions. NormalizeDescription removes
// them from descriptions (ANSI escape sequences, C0 and C1 controls,
// bidirectional controls, zero-width and other format characters). A
// resource base that holds any of them, a line separator or a byte that is
// not UTF-8 is shown as a Go string literal (skill.QuoteUnsafe), so its line
// stays one line and strconv.Unquote gives back the exact value.
package render
