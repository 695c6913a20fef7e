package skill

import (
	"errors"
	"testing"
	"unicode/utf8"
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
		"argument name":      func(d *Definition) { d.ArgumentNames = []string{"ok", "n\xff"} },
		"disallowed tool":    func(d *Definition) { d.Directives = &Directives{DisallowedTools: []string{"W\xe9"}} },
		"directive hooks":    func(d *Definition) { d.Directives = &Directives{Hooks: "{\"\xff\":[]}"} },
	} {
		d := good
		bad(&d)
		var e *InvalidUTF8Error
		if err := d.CheckUTF8(); !errors.As(err, &e) || e.Field != field {
			t.Errorf("bad %s: %v, want an *InvalidUTF8Error naming it", field, err)
		}
	}
}

// FuzzCheckUTF8: untrusted text is refused exactly when it is not valid
// UTF-8, at the first byte that starts no sequence: the text before it is
// valid, and the text from it is not.
func FuzzCheckUTF8(f *testing.F) {
	for _, s := range []string{"", "plain", "caf\xe9", "ok \xe2\x98", "\xed\xa0\x80", "日本\xf4\x90\x80\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CheckUTF8("text", s)
		if (err == nil) != utf8.ValidString(s) {
			t.Fatalf("CheckUTF8(%q) = %v, valid %v", s, err, utf8.ValidString(s))
		}
		var bad *InvalidUTF8Error
		if err == nil {
			return
		}
		if !errors.As(err, &bad) || bad.Offset < 0 || bad.Offset >= len(s) {
			t.Fatalf("CheckUTF8(%q) = %#v", s, err)
		}
		if !utf8.ValidString(s[:bad.Offset]) || utf8.ValidString(s[bad.Offset:]) {
			t.Fatalf("CheckUTF8(%q): offset %d is not the first invalid byte", s, bad.Offset)
		}
		if r, size := utf8.DecodeRuneInString(s[bad.Offset:]); r != utf8.RuneError || size != 1 {
			t.Fatalf("CheckUTF8(%q): byte %d starts a valid sequence", s, bad.Offset)
		}
	})
}
