package skilllock

import (
	"strings"
	"testing"
)

// cliLock is a skills-lock.json as the skills CLI 1.7.4 writes it.
const cliLock = `{
  "version": 1,
  "skills": {
    "alpha": {
      "source": "127.0.0.1",
      "sourceUrl": "http://127.0.0.1:1234",
      "sourceType": "well-known",
      "computedHash": "` + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + `",
      "wellKnownDigest": "sha256:` + "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" + `"
    },
    "beta": {
      "source": "owner/repo",
      "ref": "main",
      "sourceType": "github",
      "skillPath": "skills/beta/SKILL.md",
      "computedHash": "not-a-hash",
      "extra": {
        "nested": [
          1,
          2
        ],
        "empty": {}
      }
    }
  }
}
`

func TestSkillsCLIRoundTrip(t *testing.T) {
	l, err := ParseSkillsCLI([]byte(cliLock))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(l.Encode()); got != cliLock {
		t.Fatalf("Encode:\n%s\nwant the file as read:\n%s", got, cliLock)
	}
	lock, skipped, err := l.ToLock()
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Kind: KindLocal, Name: "alpha", Digest: "sha256:" + strings.Repeat("a", 64), Order: OrderSkillsCLI}}
	if len(lock.Entries) != 1 || lock.Entries[0] != want[0] {
		t.Fatalf("ToLock = %+v, want %+v", lock.Entries, want)
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0], `"beta": computedHash "not-a-hash"`) {
		t.Fatalf("skipped = %q", skipped)
	}
}

func TestSkillsCLIMerge(t *testing.T) {
	l, err := ParseSkillsCLI([]byte(cliLock))
	if err != nil {
		t.Fatal(err)
	}
	lock, err := New([]Entry{
		{Kind: KindLocal, Name: "alpha", Digest: "sha256:" + strings.Repeat("c", 64)},
		{Kind: KindLocal, Name: "aardvark", Digest: "sha256:" + strings.Repeat("d", 64)},
		{Kind: KindMCP, Origin: "srv", Name: "gamma", Digest: "sha256:" + strings.Repeat("e", 64)},
	})
	if err != nil {
		t.Fatal(err)
	}
	l.Merge(lock, func(name string) string { return "./skills/" + name })
	got := string(l.Encode())
	wantStart := `{
  "version": 1,
  "skills": {
    "aardvark": {
      "source": "./skills/aardvark",
      "sourceType": "local",
      "computedHash": "` + strings.Repeat("d", 64) + `"
    },
    "alpha": {
      "source": "127.0.0.1",
      "sourceUrl": "http://127.0.0.1:1234",
      "sourceType": "well-known",
      "computedHash": "` + strings.Repeat("c", 64) + `",
`
	if !strings.HasPrefix(got, wantStart) || strings.Contains(got, "gamma") {
		t.Fatalf("merged:\n%s", got)
	}
	if _, err := ParseSkillsCLI([]byte(got)); err != nil {
		t.Fatalf("the merged file does not parse: %v", err)
	}
}

func TestParseSkillsCLIRefuses(t *testing.T) {
	for _, src := range []string{`[]`, `{"version":"1","skills":{}}`, `{"version":1}`, `{"version":1,"skills":{"a":[]}}`, `{"version":1,"skills":{}} x`} {
		if _, err := ParseSkillsCLI([]byte(src)); err == nil {
			t.Errorf("ParseSkillsCLI(%s) succeeded", src)
		}
	}
}
