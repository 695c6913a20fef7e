package hostsdk

import (
	"errors"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
)

// TestCheckMessagesUTF8: the first message whose text is not UTF-8 is the
// host's error, naming it; valid messages pass.
func TestCheckMessagesUTF8(t *testing.T) {
	good := Message{ID: "u1", Role: RoleUser, Content: []ContentBlock{{Type: "text", Text: "naïve ✓"}}}
	if err := checkMessagesUTF8([]Message{good, good}); err != nil {
		t.Fatalf("valid messages: %v", err)
	}
	for _, tc := range []struct {
		msg  Message
		want string
	}{
		{Message{ID: "id\xff", Role: RoleUser}, `message "id\xff": id is not valid UTF-8 (byte 2 starts no UTF-8 sequence)`},
		{Message{ID: "r", Role: Role("us\xe9r")}, `message "r": role is not valid UTF-8 (byte 2 starts no UTF-8 sequence)`},
		{Message{ID: "t", Role: RoleTool, Content: []ContentBlock{{Type: "text", Text: "ok"}, {Type: "te\x80t"}}}, `message "t": content block 1's type is not valid UTF-8 (byte 2 starts no UTF-8 sequence)`},
		{Message{ID: "x", Role: RoleUser, Content: []ContentBlock{{Type: "text", Text: "\xe2\x82"}}}, `message "x": content block 0's text is not valid UTF-8 (byte 0 starts no UTF-8 sequence)`},
	} {
		err := checkMessagesUTF8([]Message{good, tc.msg})
		var hostErr *HostError
		if !errors.As(err, &hostErr) || !errors.Is(err, skill.ErrInvalidUTF8) || hostErr.Err.Error() != tc.want {
			t.Errorf("checkMessagesUTF8(%q): %v, want a *HostError %q", tc.msg.ID, err, tc.want)
		}
	}
}
