package render

// ValidSkillName reports whether name follows the kebab-case grammar
// ^[a-z0-9]+(-[a-z0-9]+)*$: lowercase letters and digits in groups joined
// by single hyphens. It imposes no length limit.
func ValidSkillName(name string) bool {
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
