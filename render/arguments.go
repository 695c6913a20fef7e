package render

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ArgumentsNote opens the line that carries a user's arguments after the
// instructions of a skill that has no placeholder for them.
const ArgumentsNote = "ARGUMENTS: "

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
// Substituted text is not scanned again.
func SubstituteArguments(instructions, args string) string {
	var split []string
	splitDone := false
	positional := func(n int) (string, bool) {
		if !splitDone {
			split, splitDone = SplitArguments(args), true
		}
		if n < len(split) {
			return split[n], true
		}
		return "", false
	}
	var b strings.Builder
	found := false
	last := 0
	for i := 0; i < len(instructions); i++ {
		if instructions[i] != '$' {
			continue
		}
		rest := instructions[i+1:]
		var value string
		var width int // bytes of the placeholder after '$'
		switch {
		case strings.HasPrefix(rest, "ARGUMENTS["):
			digits := leadingDigits(rest[len("ARGUMENTS["):])
			if digits == "" || !strings.HasPrefix(rest[len("ARGUMENTS[")+len(digits):], "]") {
				continue
			}
			width = len("ARGUMENTS[") + len(digits) + 1
			found = true
			n, err := strconv.Atoi(digits)
			v, ok := positional(n)
			if err != nil || !ok {
				continue // left as written
			}
			value = v
		case strings.HasPrefix(rest, "ARGUMENTS") && !wordByteAt(rest, len("ARGUMENTS")):
			width = len("ARGUMENTS")
			found = true
			value = args
		default:
			digits := leadingDigits(rest)
			if digits == "" || wordByteAt(rest, len(digits)) {
				continue
			}
			width = len(digits)
			found = true
			n, err := strconv.Atoi(digits)
			v, ok := positional(n)
			if err != nil || !ok {
				continue
			}
			value = v
		}
		b.WriteString(instructions[last:i])
		b.WriteString(value)
		last = i + 1 + width
		i = last - 1
	}
	if last == 0 {
		if found || args == "" {
			return instructions
		}
		return instructions + "\n\n" + ArgumentsNote + args
	}
	b.WriteString(instructions[last:])
	return b.String()
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
