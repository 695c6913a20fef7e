package skill

import (
	"errors"
	"testing"
)

func TestCheckUTF8(t *testing.T) {
	tests := []struct {
		text       string
		wantOffset int // -1: valid
	}{
		{"", -1},
		{"plain", -1},
		{"café ☕ 𝄞", -1},
		{"caf\xe9", 3},
		{"\xff", 0},
		{"ok \xe2\x98", 3},        // a sequence cut short
		{"ok \xed\xa0\x80 x", 3},  // a surrogate half
		{"é\xc0\xafz", 2},         // an overlong encoding
		{"日本\xf4\x90\x80\x80", 6}, // above U+10FFFF
	}
	for _, tt := range tests {
		err := CheckUTF8("description", tt.text)
		if tt.wantOffset < 0 {
			if err != nil {
				t.Errorf("CheckUTF8(%q) = %v, want nil", tt.text, err)
			}
			continue
		}
		var bad *InvalidUTF8Error
		if !errors.As(err, &bad) || !errors.Is(err, ErrInvalidUTF8) || bad.Offset != tt.wantOffset || bad.Field != "description" {
			t.Errorf("CheckUTF8(%q) = %#v, want an *InvalidUTF8Error at offset %d", tt.text, err, tt.wantOffset)
		}
	}
	if got := CheckUTF8("description", "ab\xe9").Error(); got != "description is not valid UTF-8 (byte 2 starts no UTF-8 sequence)" {
		t.Errorf("error text %q", got)
	}
}

func TestDefinitionCheckUTF8NamesTheField(t *testing.T) {
	good := Definition{
		Summary:      Summary{Name: "x", Description: "Does x.", Provider: "runtime", ArgumentHint: "[n]"},
		ResourceBase: &ResourceBase{Kind: ResourceDirectory, Path: "/skills/x"},
		Content:      "Body ✓.",
	}
	if err := good.CheckUTF8(); err != nil {
		t.Fatalf("a valid definition: %v", err)
	}
	for field, bad := range map[string]func(*Definition){
		"description":        func(d *Definition) { d.Description = "\xff" },
		"provider":           func(d *Definition) { d.Provider = "p\xfe" },
		"argument hint":      func(d *Definition) { d.ArgumentHint = "[\xc3]" },
		"origin":             func(d *Definition) { d.Origin = "o\x80" },
		"content":            func(d *Definition) { d.Content = "caf\xe9" },
		"resource base path": func(d *Definition) { d.ResourceBase = &ResourceBase{Kind: ResourceDirectory, Path: "/jos\xe9"} },
	} {
		d := good
		bad(&d)
		var e *InvalidUTF8Error
		if err := d.CheckUTF8(); !errors.As(err, &e) || e.Field != field {
			t.Errorf("bad %s: %v, want an *InvalidUTF8Error naming it", field, err)
		}
	}
}
