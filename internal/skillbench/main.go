// Command skillbench measures how well the plugin finds the skill a
// request is for, on a skillbench checkout: a corpus of real SKILL.md
// files (corpus/, manifest.jsonl) and requests taken from those skills'
// own trigger tests (dev.jsonl, or any file of the same lines). It builds
// libraries of several sizes, each holding every requested skill and
// others drawn at random with a fixed seed (names unique), and runs the
// skillcatalog command on them, as a user would:
//
//   - skillcatalog search -queries: Hit@1, Hit@5, Hit@10 and MRR of the
//     requested skill, and for requests that should not trigger it, how
//     often it still ranks first;
//   - skillcatalog explain (the default catalog budget): the requests
//     whose skill the catalog shows with its full description, shortened
//     or names only, or not at all; and explain -requests: those whose
//     skill the model sees with its full description at the user's step,
//     in the catalog or the relevant-skills message.
//
// Usage:
//
//	go build -o bin/ ./cmd/skillcatalog
//	go run ./internal/skillbench -bench PATH/TO/skillbench -bin bin/skillcatalog
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

type manifestLine struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Name   string `json:"name"`
}

type request struct {
	ID       string `json:"id"`
	Query    string `json:"query"`
	Kind     string `json:"kind"`
	Target   string `json:"target"`
	TargetID string `json:"target_id"`
	Source   string `json:"source"`
}

func main() {
	bench := flag.String("bench", "", "the skillbench `DIR` (corpus/, manifest.jsonl, dev.jsonl)")
	bin := flag.String("bin", "bin/skillcatalog", "the skillcatalog `BINARY` to measure")
	requests := flag.String("requests", "dev.jsonl", "the requests `FILE`, relative to -bench")
	sizes := flag.String("sizes", "100,300,1000,all", "library `SIZES`, comma-separated; all is every distinct name")
	seeds := flag.Int("seeds", 3, "libraries drawn per size below all (`N` seeds, averaged)")
	flag.Parse()
	if *bench == "" {
		fmt.Fprintln(os.Stderr, "skillbench: -bench is required")
		os.Exit(2)
	}
	if err := run(*bench, *bin, *requests, *sizes, *seeds); err != nil {
		fmt.Fprintln(os.Stderr, "skillbench:", err)
		os.Exit(1)
	}
}

func run(bench, bin, requestsFile, sizes string, seeds int) error {
	manifest, err := readLines[manifestLine](filepath.Join(bench, "manifest.jsonl"))
	if err != nil {
		return err
	}
	reqs, err := readLines[request](filepath.Join(bench, requestsFile))
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "skillbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	queries := filepath.Join(work, "queries.jsonl")
	if err := writeQueries(queries, reqs); err != nil {
		return err
	}
	fmt.Println("| library | Hit@1 | Hit@5 | Hit@10 | MRR | negatives first | catalog: full | catalog: shortened | catalog: not listed | full at the user's step |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, size := range strings.Split(sizes, ",") {
		n := 1 << 30
		if size != "all" {
			if _, err := fmt.Sscan(size, &n); err != nil {
				return fmt.Errorf("size %q: %v", size, err)
			}
		}
		var total metrics
		rounds := seeds
		if size == "all" {
			rounds = 1
		}
		for seed := 1; seed <= rounds; seed++ {
			lib := filepath.Join(work, fmt.Sprintf("lib-%s-%d", size, seed))
			names, err := buildLibrary(bench, lib, manifest, reqs, n, int64(seed))
			if err != nil {
				return err
			}
			m, err := measure(bin, lib, queries, reqs, names)
			if err != nil {
				return err
			}
			total.add(m)
		}
		fmt.Println(total.row(size))
	}
	return nil
}

func readLines[T any](path string) ([]T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []T
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		out = append(out, v)
	}
	return out, nil
}

func writeQueries(path string, reqs []request) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, r := range reqs {
		if err := enc.Encode(map[string]string{"id": r.ID, "query": r.Query}); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// buildLibrary writes a library of n skills into dir: every requested
// skill, then others in a random order of seed, one skill per name, each
// in a folder of its name. It returns, by manifest id, the name each
// skill of the library is listed under.
func buildLibrary(bench, dir string, manifest []manifestLine, reqs []request, n int, seed int64) (map[string]string, error) {
	targets := map[string]bool{}
	for _, r := range reqs {
		if r.TargetID != "" {
			targets[r.TargetID] = true
		}
	}
	taken := map[string]bool{}
	names := map[string]string{}
	add := func(m manifestLine) error {
		taken[m.Name] = true
		names[m.ID] = m.Name
		_, rest, _ := strings.Cut(m.ID, "/")
		data, err := os.ReadFile(filepath.Join(bench, "corpus", m.Source, rest, "SKILL.md"))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, m.Name), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, m.Name, "SKILL.md"), data, 0o644)
	}
	for _, m := range manifest {
		if targets[m.ID] {
			if err := add(m); err != nil {
				return nil, err
			}
		}
	}
	for _, i := range rand.New(rand.NewSource(seed)).Perm(len(manifest)) {
		if len(names) >= n {
			break
		}
		if m := manifest[i]; !taken[m.Name] {
			if err := add(m); err != nil {
				return nil, err
			}
		}
	}
	return names, nil
}

// metrics are counts over the requests of one or more libraries.
type metrics struct {
	libraries                            int
	positives, negatives                 int
	hit1, hit5, hit10, negFirst          int
	rr                                   float64
	full, shortened, unlisted, atTheStep int
}

func (m *metrics) add(o metrics) {
	m.libraries += o.libraries
	m.positives += o.positives
	m.negatives += o.negatives
	m.hit1 += o.hit1
	m.hit5 += o.hit5
	m.hit10 += o.hit10
	m.negFirst += o.negFirst
	m.rr += o.rr
	m.full += o.full
	m.shortened += o.shortened
	m.unlisted += o.unlisted
	m.atTheStep += o.atTheStep
}

func (m metrics) row(size string) string {
	p := float64(m.positives)
	return fmt.Sprintf("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f%% | %.0f%% | %.0f%% | %.0f%% |", size,
		float64(m.hit1)/p, float64(m.hit5)/p, float64(m.hit10)/p, m.rr/p, float64(m.negFirst)/max(float64(m.negatives), 1),
		100*float64(m.full)/p, 100*float64(m.shortened)/p, 100*float64(m.unlisted)/p, 100*float64(m.atTheStep)/p)
}

// measure runs the command on one library.
func measure(bin, lib, queries string, reqs []request, names map[string]string) (metrics, error) {
	m := metrics{libraries: 1}
	ranked, err := jsonLines(bin, "search", "-skills", lib, "-home", lib, "-queries", queries, "-k", "10")
	if err != nil {
		return m, err
	}
	relevant, err := jsonLines(bin, "explain", "-skills", lib, "-home", lib, "-requests", queries)
	if err != nil {
		return m, err
	}
	catalog, err := catalogState(bin, lib)
	if err != nil {
		return m, err
	}
	for _, r := range reqs {
		target := names[r.TargetID]
		var results []struct{ Name string }
		_ = json.Unmarshal(ranked[r.ID]["results"], &results)
		rank := slices.IndexFunc(results, func(x struct{ Name string }) bool { return x.Name == target })
		if r.Kind != "positive" {
			m.negatives++
			if rank == 0 {
				m.negFirst++
			}
			continue
		}
		m.positives++
		if rank == 0 {
			m.hit1++
		}
		if rank >= 0 && rank < 5 {
			m.hit5++
		}
		if rank >= 0 {
			m.hit10++
			m.rr += 1 / float64(rank+1)
		}
		state := catalog[target]
		switch state {
		case "full":
			m.full++
		case "shortened":
			m.shortened++
		default:
			m.unlisted++
		}
		var shown []string
		_ = json.Unmarshal(relevant[r.ID]["relevant"], &shown)
		if state == "full" || slices.Contains(shown, target) {
			m.atTheStep++
		}
	}
	return m, nil
}

// jsonLines runs the command and reads its output lines by "id".
func jsonLines(bin string, args ...string) (map[string]map[string]json.RawMessage, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", bin, args[0], err)
	}
	lines := map[string]map[string]json.RawMessage{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var v map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s %s: %v", bin, args[0], err)
		}
		var id string
		_ = json.Unmarshal(v["id"], &id)
		lines[id] = v
	}
	return lines, sc.Err()
}

// catalogState runs explain on the library and returns, by name, whether
// the catalog shows each skill's description in full ("full"), shortened
// or without it ("shortened"), or does not list it ("").
func catalogState(bin, lib string) (map[string]string, error) {
	cmd := exec.Command(bin, "explain", "-skills", lib, "-home", lib, "-json")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s explain: %v", bin, err)
	}
	var ex struct {
		Skills []struct {
			Name    string
			Listed  bool
			Reasons []struct{ Kind string }
		}
	}
	if err := json.Unmarshal(out, &ex); err != nil {
		return nil, err
	}
	state := map[string]string{}
	for _, s := range ex.Skills {
		if !s.Listed {
			continue
		}
		state[s.Name] = "full"
		for _, r := range s.Reasons {
			if r.Kind == "shortened" {
				state[s.Name] = "shortened"
			}
		}
	}
	return state, nil
}
