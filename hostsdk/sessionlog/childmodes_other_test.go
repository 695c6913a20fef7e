//go:build !unix

package sessionlog_test

// childModes are the roles the test binary plays when TestMain finds their
// variable set.
func childModes() map[string]func(string) error {
	return map[string]func(string) error{childEnv: runChild, holderEnv: runHolder}
}
