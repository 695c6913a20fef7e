package skills

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/zeebo/xxh3"

	"github.com/skillcatalog/skillcatalog/skill"
)

// TestSortedViewMatchesTheMerge: over random registrations, replacements
// and removals, the view of a scope with runtime skills only, built from
// the entries the registry keeps in name order, is the one the general
// merge computes from the same entries in any order, token included.
func TestSortedViewMatchesTheMerge(t *testing.T) {
	r := newRegistry(t)
	if err := r.Register("g", RuntimeSkill{Name: "first", Description: "First.", Content: "Body."}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var held, heldCopy []skill.Summary // a plan's snapshot, and what it was
	for step := range 3000 {
		name := fmt.Sprintf("skill-%03d", rng.IntN(200))
		if rng.IntN(4) == 0 {
			r.Unregister("g", name)
		} else if err := r.Register("g", RuntimeSkill{Name: name, Description: fmt.Sprintf("Version %d.", step), Content: "Body.", Rank: rng.IntN(3)}); err != nil {
			t.Fatal(err)
		}
		if rng.IntN(3) == 0 {
			continue // changes between snapshots: a replacement updates the scope's snapshot in place
		}
		r.mu.Lock()
		p := r.planLocked(Query{Chain: []string{"g", "g", "empty"}})
		src := r.scopes["g"]
		var general plan
		for _, e := range src.runtime { // map order
			general.runtime = append(general.runtime, candidate{sum: e.def.Summary, rank: e.rank, order: e.order, src: source{runtime: e}})
		}
		sorted := src.sorted
		r.mu.Unlock()
		if !slices.Equal(held, heldCopy) {
			t.Fatalf("step %d: a change rewrote the snapshot an earlier plan holds", step)
		}
		held, heldCopy = p.listed, slices.Clone(p.listed)
		if len(sorted) != len(src.runtime) || !slices.IsSortedFunc(sorted, func(a, b *runtimeEntry) int { return strings.Compare(a.def.Name, b.def.Name) }) {
			t.Fatalf("step %d: %d sorted entries for %d registrations, or out of order", step, len(sorted), len(src.runtime))
		}
		if p.listed == nil && len(sorted) > 0 {
			t.Fatalf("step %d: the plan of a runtime-only scope did not take its sorted entries", step)
		}
		fast, slow := merge(p, nil), merge(general, nil)
		if len(sorted) == 0 {
			continue
		}
		if !reflect.DeepEqual(fast.skills, slow.skills) || !reflect.DeepEqual(fast.sources, slow.sources) ||
			fast.token != slow.token || fast.complete != slow.complete || len(fast.diagnostics) != len(slow.diagnostics) {
			t.Fatalf("step %d: the sorted view differs from the merge", step)
		}
	}
}

// TestSnapshotTokenOfManySkills: the token of a long list, hashed in
// chunks, is the xxh3-128 of the whole encoding.
func TestSnapshotTokenOfManySkills(t *testing.T) {
	var sums []skill.Summary
	var enc []byte
	for i := range 3000 {
		s := skill.Summary{Name: fmt.Sprintf("skill-%04d", i), Description: strings.Repeat("d", i%300), Invocation: skill.DefaultPolicy(), Provider: RuntimeProvider}
		if i%7 == 0 {
			s.Origin, s.QualifiedName = "srv", "srv:"+s.Name
		}
		sums = append(sums, s)
	}
	enc = appendTokenString(enc, tokenDomain)
	enc = binary.AppendUvarint(enc, uint64(len(sums)))
	for _, s := range sums {
		enc = appendTokenString(appendTokenString(enc, s.Name), s.Description)
		bits := byte(3) // model and user invocable
		if s.Origin != "" {
			bits |= 4
		}
		enc = appendTokenString(append(enc, bits), s.Provider)
		if s.Origin != "" {
			enc = appendTokenString(appendTokenString(enc, s.Origin), s.QualifiedName)
		}
	}
	sum := xxh3.Hash128(enc).Bytes()
	if got, want := snapshotToken(sums), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("token %s, want %s", got, want)
	}
}
