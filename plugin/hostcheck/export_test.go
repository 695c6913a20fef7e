package hostcheck

// The checker's bounds, for the tests that hold it to them.
const (
	MaxViolations    = maxViolations
	MaxTokens        = maxTokens
	MaxCheckedSkills = maxCheckedSkills
	MaxCheckedEvents = maxCheckedEvents
	SmallPage        = smallPage
)
