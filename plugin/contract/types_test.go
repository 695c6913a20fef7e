package contract

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecisionApply(t *testing.T) {
	t.Parallel()
	a, b, c := Message{ID: "a"}, Message{ID: "b"}, Message{ID: "c"}
	x, y := Message{ID: "x"}, Message{ID: "y"}
	tests := []struct {
		name    string
		d       Decision
		edits   []Edit
		want    []string
		wantErr bool
	}{
		{name: "no edits", d: enter(a, b), want: []string{"a", "b"}},
		{name: "append after everything, in order", d: enter(a), edits: []Edit{{Op: EditAppend, Message: x}, {Op: EditAppend, Message: y}}, want: []string{"a", "x", "y"}},
		{name: "remove", d: enter(a, b, c), edits: []Edit{{Op: EditRemove, Index: 1}}, want: []string{"a", "c"}},
		{name: "replace in place", d: enter(a, b), edits: []Edit{{Op: EditReplace, Index: 0, Message: x}}, want: []string{"x", "b"}},
		{name: "indexes refer to the proposal", d: enter(a, b, c), edits: []Edit{{Op: EditRemove, Index: 0}, {Op: EditReplace, Index: 2, Message: x}}, want: []string{"b", "x"}},
		{name: "removal wins over replacement", d: enter(a, b), edits: []Edit{{Op: EditReplace, Index: 1, Message: x}, {Op: EditRemove, Index: 1}}, want: []string{"a"}},
		{name: "empty proposal, append", d: enter(), edits: []Edit{{Op: EditAppend, Message: x}}, want: []string{"x"}},
		{name: "index past the end", d: enter(a), edits: []Edit{{Op: EditRemove, Index: 1}}, wantErr: true},
		{name: "negative index", d: enter(a), edits: []Edit{{Op: EditReplace, Index: -1, Message: x}}, wantErr: true},
		{name: "unknown operation", d: enter(a), edits: []Edit{{Op: 9}}, wantErr: true},
		{name: "edit of a reject", d: Decision{Reject: &Reject{Reason: "no"}}, edits: []Edit{{Op: EditAppend, Message: x}}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before := append([]Message(nil), tt.d.Messages...)
			got, err := tt.d.Apply(tt.edits)
			if diff := cmp.Diff(before, tt.d.Messages); diff != "" {
				t.Errorf("Apply changed the proposal (-before +after):\n%s", diff)
			}
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Apply = %+v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range got.Messages {
				ids = append(ids, m.ID)
			}
			if diff := cmp.Diff(tt.want, ids); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
	reject := Decision{Reject: &Reject{Reason: "no"}}
	if got, err := reject.Apply(nil); err != nil || got.Reject != reject.Reject {
		t.Errorf("a reject without edits = %+v, %v; want it unchanged", got, err)
	}
}

func TestMessageText(t *testing.T) {
	t.Parallel()
	m := Message{Content: []ContentBlock{{Type: "text", Text: "a"}, {Type: "image", Text: "ignored"}, {Type: "text", Text: "b"}}}
	if got := m.Text(); got != "ab" {
		t.Errorf("Text() = %q, want %q", got, "ab")
	}
}

func enter(msgs ...Message) Decision { return Decision{Messages: msgs} }
