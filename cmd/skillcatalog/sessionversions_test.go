package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/digest"
	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// TestExplainSessionNamesVersions: explain -session reads a session's log
// and names the version of each skill every catalog showed and every load
// carried, the hidden ones marked, a record without digests as such.
func TestExplainSessionNamesVersions(t *testing.T) {
	ctx := context.Background()
	d1, d2 := "sha256:"+strings.Repeat("1", 64), "sha256:"+strings.Repeat("2", 64)
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	log, _, err := sessionlog.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"role":"user"}`)
	for _, r := range []sessionlog.Record{
		{Type: "message", Body: body, Source: events.EncodeCatalog([]digest.Entry{{Name: "alpha", Description: "A.", ContentDigest: d1},
			{Name: "docs", Description: "D.", Origin: "site", OriginKind: digest.OriginWebsite}}, false)},
		{Type: "message", Body: body, Source: events.EncodeLoadVersion("alpha", events.ContentDigest("Alpha."), d1)},
		{Type: "compaction", Body: []byte(`{}`), Hide: &sessionlog.Range{From: 2, To: 2}},
		{Type: "message", Body: body, Source: events.EncodeCatalog([]digest.Entry{{Name: "alpha", Description: "A.", ContentDigest: d2}}, true)},
	} {
		if _, err := log.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	log.Close()

	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"explain", "-session", path}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{
		"seq 1: catalog shown\n  alpha  " + d1 + "\n  docs  website site  version not recorded\n",
		"seq 2: skill-load (hidden by a compaction)\n  alpha  " + d1 + "\n",
		"seq 4: catalog shown (replacement)\n  alpha  " + d2 + "\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	if code := run(ctx, []string{"explain", "-json", "-session", path}, &stdout, &stderr); code != 0 {
		t.Fatalf("-json: exit %d: %s", code, stderr.String())
	}
	var sv sessionVersions
	if err := json.Unmarshal(stdout.Bytes(), &sv); err != nil {
		t.Fatal(err)
	}
	if len(sv.Records) != 3 || sv.Records[1].Skills[0].Instructions != events.ContentDigest("Alpha.") || sv.Records[1].Visible {
		t.Errorf("-json: %+v", sv.Records)
	}
}
