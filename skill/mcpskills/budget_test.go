package mcpskills

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/mcpfake"
)

// cachedBytes sums the content every session view holds, entry by entry,
// and checks that the provider's own accounting agrees.
func cachedBytes(t *testing.T, p *Provider) int64 {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	var sum, counted int64
	for _, v := range p.sessions {
		for _, e := range v.entries {
			sum += e.content.size()
		}
		counted += v.bytes
	}
	if counted != sum || p.budget.bytes != sum {
		t.Fatalf("accounting: entries hold %d bytes, views count %d, the budget %d", sum, counted, p.budget.bytes)
	}
	return sum
}

// Many sessions each holding a large body stay within CacheTotalBytes: the
// least recently used bodies of other sessions are dropped while index
// copies stay, and a dropped body is read from the server again at the
// session's next load, while a cached one is not.
func TestCacheTotalBytesAcrossSessions(t *testing.T) {
	const total = 1 << 20 // CacheTotalBytes
	const bodySize = 200 << 10
	const sessions = 16 // 3.2 MiB of bodies; 5 fit with the index copies
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", strings.Repeat("d", bodySize))
	p := newMemProvider(t, m, Options{CacheTotalBytes: total, IndexMaxAge: time.Hour})
	body := mcpfake.SkillURI("deploy")

	for i := range sessions {
		load(t, p, fmt.Sprintf("s%02d", i), "deploy")
		if got := cachedBytes(t, p); got > total {
			t.Fatalf("after %d sessions loaded, %d bytes cached: more than CacheTotalBytes (%d)", i+1, got, total)
		}
	}
	wantReads(t, m.Server, body, sessions)
	wantReads(t, m.Server, IndexURI, sessions)

	// The most recent sessions still hold the body.
	for i := sessions - 5; i < sessions; i++ {
		load(t, p, fmt.Sprintf("s%02d", i), "deploy")
	}
	wantReads(t, m.Server, body, sessions)
	// The first session's body was dropped: it is read again, and its
	// index copy, kept, is not.
	load(t, p, "s00", "deploy")
	wantReads(t, m.Server, body, sessions+1)
	listSkills(t, p, "s00")
	wantReads(t, m.Server, IndexURI, sessions)
	if got := cachedBytes(t, p); got > total {
		t.Fatalf("%d bytes cached: more than CacheTotalBytes (%d)", got, total)
	}

	for i := range sessions {
		p.EndSession(fmt.Sprintf("s%02d", i))
	}
	if got := cachedBytes(t, p); got != 0 || p.budget.bytes != 0 {
		t.Errorf("after every session ended, %d bytes cached, budget at %d", got, p.budget.bytes)
	}
}

// Index copies are dropped only when no other entry is left to drop; a
// session whose copy was dropped reads the index again at its next List.
func TestCacheTotalBytesIndexCopies(t *testing.T) {
	const total = 1 << 20 // CacheTotalBytes
	m := newMemServer()
	// A 300 KiB index: three copies fit, four do not.
	m.SetSkill("deploy", strings.Repeat("Deploy. ", 300<<10/8), "body")
	p := newMemProvider(t, m, Options{CacheTotalBytes: total, IndexMaxAge: time.Hour})
	for _, s := range []string{"s0", "s1", "s2", "s3"} {
		listSkills(t, p, s)
		if got := cachedBytes(t, p); got > total {
			t.Fatalf("%d bytes cached: more than CacheTotalBytes (%d)", got, total)
		}
	}
	wantReads(t, m.Server, IndexURI, 4)
	listSkills(t, p, "s3")
	listSkills(t, p, "s2")
	wantReads(t, m.Server, IndexURI, 4)
	listSkills(t, p, "s0")
	wantReads(t, m.Server, IndexURI, 5)
}
