package search

import (
	"fmt"
	"github.com/skillcatalog/skillcatalog/skill"
	"runtime"
	"testing"
)

// BenchmarkBuild is the full build of an index of n skills.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		skills := syntheticSkills(1, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Build(skills)
			}
		})
	}
}

// BenchmarkUpdateOne is a change of one skill in an index of n skills:
// compare with BenchmarkBuild.
func BenchmarkUpdateOne(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		skills := syntheticSkills(1, n)
		ix := Build(skills)
		changed := skills[n/2]
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				changed.Description = fmt.Sprintf("changed %d %s", i, skills[n/2].Description)
				Update(ix, []skill.Summary{changed}, nil)
			}
		})
	}
}

// BenchmarkSearch is one search of a typical request in an index of n
// skills.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		skills := syntheticSkills(1, n)
		ix := Build(skills)
		w := newSyntheticWords(7, 20000)
		queries := make([]Query, 64)
		for i := range queries {
			queries[i] = ParseQuery(w.text(12))
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				ix.Search(queries[i%len(queries)], 5)
				i++
			}
		})
	}
}

// BenchmarkIndexBytes reports the heap an index of n skills holds per
// skill, measured, beside what Bytes accounts.
func BenchmarkIndexBytes(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		skills := syntheticSkills(1, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var ix *Index
			var before, after runtime.MemStats
			for b.Loop() {
				runtime.GC()
				runtime.ReadMemStats(&before)
				ix = Build(skills)
				runtime.GC()
				runtime.ReadMemStats(&after)
			}
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(n), "heapB/skill")
			b.ReportMetric(float64(ix.Bytes())/float64(n), "accountedB/skill")
			runtime.KeepAlive(ix)
		})
	}
}
