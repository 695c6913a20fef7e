package skill

// MaxNameLength is the Agent Skills bound on a skill name, in bytes. The
// grammar alone (ValidName) decides whether a name can be listed and loaded;
// providers that read untrusted sources also enforce this bound, and the
// filesystem provider reports longer names as a warning.
const MaxNameLength = 64

// NamePattern is the skill-name grammar as a regular expression, for
// messages and documentation; ValidName checks it without one.
const NamePattern = `^[a-z0-9]+(-[a-z0-9]+)*$`

// ValidName reports whether name follows the skill-name grammar
// ^[a-z0-9]+(-[a-z0-9]+)*$: lowercase ASCII letters and digits in groups
// joined by single hyphens. It imposes no length limit; see MaxNameLength.
func ValidName(name string) bool {
	if name == "" {
		return false
	}
	afterHyphen := true // a leading hyphen is invalid
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			afterHyphen = false
		case c == '-':
			if afterHyphen {
				return false
			}
			afterHyphen = true
		default:
			return false
		}
	}
	return !afterHyphen
}

// ValidBoundedName reports whether name follows the grammar and is at most
// MaxNameLength bytes long: the check for names that come from untrusted
// sources.
func ValidBoundedName(name string) bool {
	return len(name) <= MaxNameLength && ValidName(name)
}
