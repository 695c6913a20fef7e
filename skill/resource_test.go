package skill

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResourceBaseValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		base    ResourceBase
		wantErr string
	}{
		{"directory", ResourceBase{Kind: ResourceDirectory, Path: "/skills/pdf"}, ""},
		{"url", ResourceBase{Kind: ResourceURL, URL: "skill://pdf/"}, ""},
		{"opaque", ResourceBase{Kind: ResourceOpaque, Description: "ask the host"}, ""},
		{"unknown kind", ResourceBase{Kind: "file", Path: "/x"}, `unsupported resource base kind "file"`},
		{"empty kind", ResourceBase{Path: "/x"}, `unsupported resource base kind ""`},
		{"kind is case sensitive", ResourceBase{Kind: "Directory", Path: "/x"}, `unsupported resource base kind "Directory"`},
		{"directory without path", ResourceBase{Kind: ResourceDirectory, URL: "https://x/"}, `resource base kind "directory" has an empty path`},
		{"url without URL", ResourceBase{Kind: ResourceURL, Path: "/x"}, `resource base kind "url" has an empty URL`},
		{"opaque without description", ResourceBase{Kind: ResourceOpaque}, `resource base kind "opaque" has an empty description`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.base.Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr):
				t.Fatalf("Validate() = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestResourceBaseLocation(t *testing.T) {
	t.Parallel()
	all := ResourceBase{Path: "p", URL: "u", Description: "d"}
	for kind, want := range map[ResourceKind]string{ResourceDirectory: "p", ResourceURL: "u", ResourceOpaque: "d", "ftp": ""} {
		rb := all
		rb.Kind = kind
		if got := rb.Location(); got != want {
			t.Errorf("Location() of kind %q = %q, want %q", kind, got, want)
		}
	}
}

func TestCloneSharesNothing(t *testing.T) {
	t.Parallel()
	var nilBase *ResourceBase
	if nilBase.Clone() != nil {
		t.Error("Clone of nil is not nil")
	}
	d := Definition{Summary: Summary{Name: "a"}, ResourceBase: &ResourceBase{Kind: ResourceDirectory, Path: "/a"}}
	c := d.Clone()
	c.ResourceBase.Path = "/changed"
	if d.ResourceBase.Path != "/a" {
		t.Error("Clone shares the resource base")
	}
	v := d.ToolValue()
	v.ResourceBase.Path = "/changed"
	if d.ResourceBase.Path != "/a" {
		t.Error("ToolValue shares the resource base")
	}
}

// TestToolValueJSON pins the JSON form of the tool's value: the field names
// and order of the structured result, and resourceBase left out when the
// provider manages resources.
func TestToolValueJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		value ToolValue
		want  string
	}{
		{"managed", ToolValue{Name: "a", Provider: "runtime", Content: "Do a."},
			`{"name":"a","provider":"runtime","content":"Do a."}`},
		{"directory", ToolValue{Name: "a", Provider: "agentskills", ResourceBase: &ResourceBase{Kind: ResourceDirectory, Path: "/s/a"}, Content: "x"},
			`{"name":"a","provider":"agentskills","resourceBase":{"kind":"directory","path":"/s/a"},"content":"x"}`},
		{"url", ToolValue{Name: "a", Provider: "mcp", ResourceBase: &ResourceBase{Kind: ResourceURL, URL: "skill://a/"}, Content: "x"},
			`{"name":"a","provider":"mcp","resourceBase":{"kind":"url","url":"skill://a/"},"content":"x"}`},
		{"opaque", ToolValue{Name: "a", Provider: "p", ResourceBase: &ResourceBase{Kind: ResourceOpaque, Description: "ask"}, Content: ""},
			`{"name":"a","provider":"p","resourceBase":{"kind":"opaque","description":"ask"},"content":""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := json.Marshal(tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("Marshal = %s\nwant      %s", got, tt.want)
			}
			var back ToolValue
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.value, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}
