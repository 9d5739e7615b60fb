package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
)

// TestReportFormats checks the JSON field names the benchmark reads, and
// what the text report shows.
func TestReportFormats(t *testing.T) {
	v := &Violation{Kind: KindDeadlock, Pair: [2]string{"Equal", "Equal"}, Objects: 2, Seed: 7, TestsBefore: 3,
		Elapsed: 1.5, Reproducer: "/out/depcon_map_equal_equal_test.go", Message: "a.Equal ∥ b.Equal never return",
		Evidence: []deps.Evidence{{Kind: deps.DepD, Text: "Equal locks recv.mu then o.mu"}},
		Details:  "goroutine 1 (a.Equal):\n...", Rerun: "depcon test -seed 7 -type '^Map$' example.com/m"}
	rep := &Report{Types: []*TypeReport{{Package: "example.com/m", Type: "Map", PairsTotal: 10, PairsDependent: 1,
		PairsTested: 1, TestsGenerated: 4, Elapsed: 1.6, Violations: []*Violation{v}}}}
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Types []map[string]json.RawMessage `json:"types"`
	}
	if err := json.Unmarshal(b.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"package", "type", "pairs_total", "pairs_dependent", "pairs_tested", "tests_generated",
		"elapsed_s", "violations"} {
		if _, ok := raw.Types[0][k]; !ok {
			t.Errorf("type report lacks %q: %s", k, b.Bytes())
		}
	}
	var vs []map[string]json.RawMessage
	if err := json.Unmarshal(raw.Types[0]["violations"], &vs); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"kind", "pair", "objects", "seed", "tests_before", "elapsed_s", "reproducer", "message"} {
		if _, ok := vs[0][k]; !ok {
			t.Errorf("violation lacks %q: %s", k, b.Bytes())
		}
	}
	var pair []string
	if err := json.Unmarshal(vs[0]["pair"], &pair); err != nil || len(pair) != 2 || pair[0] != "Equal" {
		t.Errorf("pair %s, want [\"Equal\", \"Equal\"]", vs[0]["pair"])
	}
	b.Reset()
	rep.WriteText(&b)
	for _, want := range []string{"example.com/m.Map: 1 violation; 1 pair tested (1 dependent, 10 in all), 4 tests",
		"DEADLOCK: Equal ∥ Equal (2 objects), in test 4", "[d] Equal locks recv.mu then o.mu",
		"    | goroutine 1 (a.Equal):", "rerun: depcon test -seed 7", "reproducer: /out/depcon_map_equal_equal_test.go"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, b.String())
		}
	}
	if n := rep.Violations(); n != 1 {
		t.Errorf("Violations() = %d, want 1", n)
	}
	// A reproducer that could not run says why on the violation's line.
	v.Reproduced, v.ReproOutput = ReproNotRun, "not confirmed: the 1m0s ended\nmore"
	b.Reset()
	rep.WriteText(&b)
	if want := "in test 4, 1.5s, NOT CONFIRMED: the 1m0s ended\n"; !strings.Contains(b.String(), want) {
		t.Errorf("text report lacks %q:\n%s", want, b.String())
	}
}

// TestSelfArgApart checks that a violation needing an object passed to
// its own method (a.Merge(a)) is listed apart and not counted.
func TestSelfArgApart(t *testing.T) {
	v := &Violation{Kind: KindDeadlock, Pair: [2]string{"Merge", "Merge"}, Objects: 1, Reproduced: ReproYes, SelfArg: true}
	bug := &Violation{Kind: KindRace, Pair: [2]string{"Add", "Get"}, Objects: 1, Reproduced: ReproYes}
	rep := &Report{Types: []*TypeReport{{Package: "m", Type: "Set", Violations: []*Violation{v, bug}}}}
	if n := rep.Violations(); n != 1 {
		t.Errorf("%d violations count, want 1 (the one with its own object passed is apart)", n)
	}
	text := reportText(rep)
	if !strings.Contains(text, "m.Set: 1 violation, 1 only with an object passed to its own method (not counted)") {
		t.Errorf("report:\n%s", text)
	}
	if i, j := strings.Index(text, "RACE: Add"), strings.Index(text, "DEADLOCK: Merge"); i < 0 || j < i {
		t.Errorf("the self-argument violation is not listed after the bug:\n%s", text)
	}
}

// reportText returns the report as text.
func reportText(rep *Report) string {
	var b strings.Builder
	rep.WriteText(&b)
	return b.String()
}
