package digest

import "testing"

func TestWithActivated(t *testing.T) {
	base := Of([]Entry{{Name: "a", Description: "A."}})
	if WithActivated(base, nil) != base {
		t.Error("no activated skills changed the digest")
	}
	one := WithActivated(base, []string{"go"})
	if one == base {
		t.Error("an activated skill left the digest unchanged")
	}
	for _, other := range [][]string{{"g", "o"}, {"go", ""}, {"og"}} {
		if WithActivated(base, other) == one {
			t.Errorf("activated %q collides with [go]", other)
		}
	}
	if WithActivated(Of(nil), []string{"go"}) == one {
		t.Error("the entries do not count")
	}
}
