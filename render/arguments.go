package render

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/skill"
)

// ArgumentsNote opens the line that carries a user's arguments after the
// instructions of a skill that has no placeholder for them.
const ArgumentsNote = "ARGUMENTS: "

// MaxSubstitutedBytes bounds a skill's instructions after the user's
// arguments are substituted into them, each argument counted at the size
// it takes escaped (Escape: & < > become entities of 4 or 5 bytes), as a
// remote skill's block shows it: 16 MiB, twice the largest body a
// provider loads (skill.MaxSkillFileBytes), so any body within its bound
// takes arguments as large as a body besides, while the message that
// carries the result stays inside the plugin protocol's 64 MiB limit even
// for a remote skill whose body escapes to five times its size. A body
// that repeats $ARGUMENTS would otherwise multiply the arguments' size by
// the number of placeholders, and escaping would multiply it by five.
const MaxSubstitutedBytes = 2 * skill.MaxSkillFileBytes

// ErrArgumentsTooLarge is matched by every *ArgumentsTooLargeError.
var ErrArgumentsTooLarge = errors.New("render: substituted instructions exceed MaxSubstitutedBytes")

// ArgumentsTooLargeError is a substitution refused because its result
// would be larger than MaxSubstitutedBytes. It is found before any of the
// result is built.
type ArgumentsTooLargeError struct {
	// Size is the result's size in bytes, each substituted argument
	// counted at its escaped size.
	Size int64
	// Placeholders is how many placeholders the instructions substitute.
	Placeholders int
	// ArgumentBytes is the size of the arguments.
	ArgumentBytes int
}

func (e *ArgumentsTooLargeError) Error() string {
	return fmt.Sprintf("substituting %d bytes of arguments into %d placeholders would make the instructions %d bytes, the arguments counted escaped (& < > as entities, as a remote skill shows them), over the limit of %d bytes (MaxSubstitutedBytes, 16 MiB)",
		e.ArgumentBytes, e.Placeholders, e.Size, MaxSubstitutedBytes)
}

// Is makes the error match ErrArgumentsTooLarge.
func (e *ArgumentsTooLargeError) Is(target error) bool { return target == ErrArgumentsTooLarge }

// SubstituteArguments returns a skill's instructions with the arguments a
// user passed after `/name` in them, by the rules Claude Code defines:
//
//   - $ARGUMENTS is the whole argument text, as the user wrote it;
//   - $ARGUMENTS[N] and $N are its N-th argument, counting from 0, the text
//     split at whitespace as a shell splits it (single and double quotes
//     group words and are removed; a backslash escapes the next character
//     outside single quotes); a placeholder past the last argument is left
//     as it is written;
//   - a placeholder is a whole word: "$ARGUMENTSX" and "$1st" are text;
//   - instructions with no placeholder get the arguments appended, on a
//     line of their own after an empty one: "ARGUMENTS: <args>". Without
//     arguments nothing is appended.
//
// Substituted text is not scanned again. The result's size is computed
// before it is built, each argument counted at the size it takes escaped
// (the escaped size of each distinct value is measured once): a result
// over MaxSubstitutedBytes so counted is refused with an
// *ArgumentsTooLargeError, having allocated nothing near its size. The
// same arguments are so refused for every skill, escaped or not, and a
// remote skill's escaped block, whose instructions escape to at most five
// times their size, stays inside the plugin protocol's message limit.
func SubstituteArguments(instructions, args string) (string, error) {
	return SubstituteNamedArguments(instructions, args, nil)
}

// SubstituteNamedArguments is SubstituteArguments for a skill that names
// its arguments (the `arguments` frontmatter field): $name, for the i-th
// of names, is its i-th argument, as $i is. A named placeholder is a whole
// word ("$issue" binds in "$issue." but "$issues" is text unless "issues"
// is a name too), and past the last argument it is left as written, as a
// positional is; it counts as a placeholder, so arguments are then not
// appended. A name that skill.ValidArgumentName refuses, and
// "ARGUMENTS", bind nothing; a name listed twice binds its first position.
func SubstituteNamedArguments(instructions, args string, names []string) (string, error) {
	sc := argumentScanner{instructions: instructions, args: args, names: names}
	size, substituted, found := int64(len(instructions)), 0, false
	for p := sc.next(0); p.start >= 0; p = sc.next(p.end) {
		found = true
		if p.substituted {
			size += int64(sc.escapedLen(p)) - int64(p.end-p.start)
			substituted++
		}
	}
	appended := !found && args != ""
	if appended {
		size += int64(len("\n\n"+ArgumentsNote) + sc.escapedLen(placeholder{arg: -1, value: args}))
	}
	if size > MaxSubstitutedBytes {
		return "", &ArgumentsTooLargeError{Size: size, Placeholders: substituted, ArgumentBytes: len(args)}
	}
	switch {
	case appended:
		return instructions + "\n\n" + ArgumentsNote + args, nil
	case substituted == 0:
		return instructions, nil
	}
	var b strings.Builder
	b.Grow(int(size))
	last := 0
	for p := sc.next(0); p.start >= 0; p = sc.next(p.end) {
		if p.substituted {
			b.WriteString(instructions[last:p.start])
			b.WriteString(p.value)
			last = p.end
		}
	}
	b.WriteString(instructions[last:])
	return b.String(), nil
}

// placeholder is one placeholder of the instructions: the bytes
// [start, end), '$' included, and the value they are replaced by when
// substituted is true (false: a positional past the last argument, left as
// written), which is the argument arg (-1: all of them). start is -1 when
// there is none.
type placeholder struct {
	start, end  int
	value       string
	substituted bool
	arg         int
}

// argumentScanner finds the placeholders of instructions, splitting the
// arguments once, when a positional first needs them, and measuring the
// escaped size of each argument once.
type argumentScanner struct {
	instructions, args string
	// names are the argument names, by position.
	names     []string
	split     []string
	splitDone bool
	// escapedArgs and escapedSplit are the escaped sizes of args and of
	// each word of split, plus one; 0 until measured.
	escapedArgs  int
	escapedSplit []int
}

// escapedLen returns the escaped size of p's value, measured once per
// argument: instructions that repeat a placeholder many times cost one
// pass over its value, not one each.
func (s *argumentScanner) escapedLen(p placeholder) int {
	memo := &s.escapedArgs
	if p.arg >= 0 {
		if s.escapedSplit == nil {
			s.escapedSplit = make([]int, len(s.split))
		}
		memo = &s.escapedSplit[p.arg]
	}
	if *memo == 0 {
		*memo = escapedLen(p.value, textSpecials) + 1
	}
	return *memo - 1
}

// positional returns the argument digits names and its index.
func (s *argumentScanner) positional(digits string) (string, int, bool) {
	n, err := strconv.Atoi(digits)
	if err != nil {
		return "", 0, false
	}
	if !s.splitDone {
		s.split, s.splitDone = SplitArguments(s.args), true
	}
	if n < len(s.split) {
		return s.split[n], n, true
	}
	return "", 0, false
}

// next returns the first placeholder at or after byte i.
func (s *argumentScanner) next(i int) placeholder {
	text := s.instructions
	for ; i < len(text); i++ {
		if text[i] != '$' {
			continue
		}
		rest := text[i+1:]
		switch {
		case strings.HasPrefix(rest, "ARGUMENTS["):
			digits := leadingDigits(rest[len("ARGUMENTS["):])
			if digits == "" || !strings.HasPrefix(rest[len("ARGUMENTS[")+len(digits):], "]") {
				continue
			}
			v, n, ok := s.positional(digits)
			return placeholder{start: i, end: i + 1 + len("ARGUMENTS[") + len(digits) + 1, value: v, substituted: ok, arg: n}
		case strings.HasPrefix(rest, "ARGUMENTS") && !wordByteAt(rest, len("ARGUMENTS")):
			return placeholder{start: i, end: i + 1 + len("ARGUMENTS"), value: s.args, substituted: true, arg: -1}
		default:
			digits := leadingDigits(rest)
			if digits == "" {
				if p, ok := s.named(i, rest); ok {
					return p
				}
				continue
			}
			if wordByteAt(rest, len(digits)) {
				continue
			}
			v, n, ok := s.positional(digits)
			return placeholder{start: i, end: i + 1 + len(digits), value: v, substituted: ok, arg: n}
		}
	}
	return placeholder{start: -1}
}

// named returns the placeholder of the argument name that rest, the text
// after the '$' at byte i, starts with as a whole word, if it is one of
// the names.
func (s *argumentScanner) named(i int, rest string) (placeholder, bool) {
	if len(s.names) == 0 {
		return placeholder{}, false
	}
	n := 0
	for wordByteAt(rest, n) {
		n++
	}
	word := rest[:n]
	if word == "ARGUMENTS" || !skill.ValidArgumentName(word) {
		return placeholder{}, false
	}
	for pos, name := range s.names {
		if name == word {
			v, idx, ok := s.positional(strconv.Itoa(pos))
			return placeholder{start: i, end: i + 1 + n, value: v, substituted: ok, arg: idx}, true
		}
	}
	return placeholder{}, false
}

// SplitArguments splits argument text into words as a POSIX shell does,
// without expansions: whitespace separates words; single quotes keep
// everything up to the next single quote; double quotes keep everything up
// to the next unescaped double quote, where a backslash escapes ", \, $
// and `; elsewhere a backslash escapes the next character. Text with an
// unterminated quote is split at whitespace alone.
func SplitArguments(args string) []string {
	var words []string
	var word strings.Builder
	inWord := false
	for i := 0; i < len(args); {
		r, size := utf8.DecodeRuneInString(args[i:])
		switch {
		case unicode.IsSpace(r):
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
			i += size
		case r == '\'':
			end := strings.IndexByte(args[i+1:], '\'')
			if end < 0 {
				return strings.Fields(args)
			}
			word.WriteString(args[i+1 : i+1+end])
			inWord = true
			i += end + 2
		case r == '"':
			j := i + 1
			closed := false
			for j < len(args) {
				c := args[j]
				if c == '\\' && j+1 < len(args) && strings.IndexByte("\"\\$`", args[j+1]) >= 0 {
					word.WriteByte(args[j+1])
					j += 2
					continue
				}
				if c == '"' {
					closed = true
					j++
					break
				}
				word.WriteByte(c)
				j++
			}
			if !closed {
				return strings.Fields(args)
			}
			inWord = true
			i = j
		case r == '\\' && i+1 < len(args):
			_, next := utf8.DecodeRuneInString(args[i+1:])
			word.WriteString(args[i+1 : i+1+next])
			inWord = true
			i += 1 + next
		default:
			word.WriteString(args[i : i+size])
			inWord = true
			i += size
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}

func leadingDigits(s string) string {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return s[:n]
}

// wordByteAt reports whether s has a letter, digit or underscore at i.
func wordByteAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
