package events

import (
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
)

// TestCatalogRecordsContentDigests: a catalog record names the content
// digest each entry was published with, reads back with it, and a record
// without digests (an older writer's) reads as before; the published
// digest ignores content digests, so a change of content alone never
// makes a catalog differ.
func TestCatalogRecordsContentDigests(t *testing.T) {
	d1, d2 := "sha256:"+strings.Repeat("a", 64), "sha256:"+strings.Repeat("b", 64)
	entries := []digest.Entry{
		{Name: "pdf", Description: "Forms.", ContentDigest: d1},
		{Name: "docs-skill", Description: "Docs.", Origin: "site", OriginKind: digest.OriginWebsite, ContentDigest: d2},
		{Name: "plain", Description: "No digest known."},
	}
	src := EncodeCatalog(entries, false)
	want := `{"kind":"skill-catalog","form":"catalog","entries":[` +
		`{"name":"pdf","description":"Forms.","content_digest":"` + d1 + `"},` +
		`{"name":"docs-skill","description":"Docs.","origin":"site","origin_kind":"website","content_digest":"` + d2 + `"},` +
		`{"name":"plain","description":"No digest known."}]}`
	if string(src) != want {
		t.Fatalf("EncodeCatalog:\n%s\nwant\n%s", src, want)
	}
	c, ok := ParseCatalog(src)
	if !ok {
		t.Fatal("the record is unreadable")
	}
	for i, e := range c.Entries {
		if e != entries[i] {
			t.Errorf("entry %d read back as %+v, want %+v", i, e, entries[i])
		}
	}
	without := make([]digest.Entry, len(entries))
	for i, e := range entries {
		e.ContentDigest = ""
		without[i] = e
	}
	if c.Digest != digest.Of(without) {
		t.Error("the published digest depends on the content digests")
	}
	old, ok := ParseCatalog(EncodeCatalog(without, false))
	if !ok || old.Digest != c.Digest || old.Entries[0].ContentDigest != "" {
		t.Errorf("a record without digests: ok %v, %+v", ok, old)
	}
}

// TestCatalogContentDigestMalformed: a digest member that is not a string
// of the form reads as absent, and never makes the record unreadable.
func TestCatalogContentDigestMalformed(t *testing.T) {
	for _, member := range []string{`"content_digest":1`, `"content_digest":"md5:00"`, `"content_digest":"sha256:` + strings.Repeat("A", 64) + `"`, `"content_digest":null`,
		`"content_digest":"sha256:` + strings.Repeat("a", 64) + `","content_digest":"x"`} {
		src := `{"kind":"skill-catalog","form":"catalog","entries":[{"name":"pdf","description":"d",` + member + `}]}`
		c, ok := ParseCatalog([]byte(src))
		if !ok || len(c.Entries) != 1 || c.Entries[0].ContentDigest != "" || c.Entries[0].Name != "pdf" {
			t.Errorf("%s: ok %v, %+v", member, ok, c.Entries)
		}
	}
}

// TestLoadRecordsContentDigests: a load and an invocation record name the
// content digest of the version loaded beside the instructions' digest,
// preload and reattach records per skill; one of another form is left out
// when written and read as unknown, never making the record unreadable.
func TestLoadRecordsContentDigests(t *testing.T) {
	d := "sha256:" + strings.Repeat("c", 64)
	for _, tc := range []struct {
		src  []byte
		want []Loaded
	}{
		{EncodeLoadVersion("pdf", "0f3a", d), []Loaded{{Name: "pdf", Digest: "0f3a", ContentDigest: d}}},
		{EncodeInvocationVersion("pdf", "0f3a", d), []Loaded{{Name: "pdf", Digest: "0f3a", ContentDigest: d}}},
		{EncodeLoadVersion("pdf", "0f3a", "md5:1"), []Loaded{{Name: "pdf", Digest: "0f3a"}}},
		{EncodeSkills(PreloadKind, []Loaded{{Name: "a", Digest: "1", ContentDigest: d}, {Name: "b", Digest: "2"}}), []Loaded{{Name: "a", Digest: "1", ContentDigest: d}, {Name: "b", Digest: "2"}}},
		{[]byte(`{"kind":"skill-reattach","skills":[{"name":"a","content_digest":7},{"name":"b","content_digest":"sha256:zz"}]}`), []Loaded{{Name: "a"}, {Name: "b"}}},
	} {
		_, got, ok := ParseLoads(tc.src)
		if !ok || len(got) != len(tc.want) {
			t.Errorf("%s: %+v, %v", tc.src, got, ok)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: skill %d read as %+v, want %+v", tc.src, i, got[i], tc.want[i])
			}
		}
	}
	if src := string(EncodeLoadVersion("pdf", "0f3a", "")); src != string(EncodeLoad("pdf", "0f3a")) {
		t.Errorf("without a content digest the record is %s, want EncodeLoad's", src)
	}
}
