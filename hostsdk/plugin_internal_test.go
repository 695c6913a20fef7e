package hostsdk

import (
	"errors"
	"strings"
	"testing"
)

// TestGuardTurnsAPanicIntoAnError: an in-process plugin that panics fails
// the call, it does not take the host down.
func TestGuardTurnsAPanicIntoAnError(t *testing.T) {
	err := guard("pre-step", func() error { panic("index out of range") })
	if !errors.Is(err, errPluginPanic) || !strings.Contains(err.Error(), "pre-step") || !strings.Contains(err.Error(), "index out of range") {
		t.Fatalf("guard of a panicking call = %v, want an error wrapping errPluginPanic that names the call and the panic", err)
	}
	want := errors.New("plain failure")
	if err := guard("pre-step", func() error { return want }); err != want {
		t.Fatalf("guard of a failing call = %v, want the call's own error", err)
	}
}
