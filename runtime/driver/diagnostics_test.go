package driver

import (
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/stacks"
)

// TestJudgeDiagnostic checks the status each diagnostic gets from the
// reports of its type: confirmed by a violation of a pair it concerns
// whose report passes through the diagnostic's line (not one whose
// reproducer passed, not a non-linearizable outcome), not reproduced, not
// reached, not tested (with the reason), and no pair.
func TestJudgeDiagnostic(t *testing.T) {
	pair := deps.Pair{M1: "Add", M2: "Get", Deps: []string{deps.DepPC},
		Evidence: []deps.Evidence{{Kind: deps.DepPC, Pos1: "/p/c.go:10:2", Pos2: "/p/c.go:20:2"}}}
	other := deps.Pair{M1: "Get", M2: "Reset", Deps: []string{deps.DepPC},
		Evidence: []deps.Evidence{{Kind: deps.DepPC, Pos1: "/p/c.go:20:2", Pos2: "/p/c.go:30:2"}}}
	plan := &deps.Plan{Package: "p", All: []*deps.TypePlan{{Name: "C", Pairs: []deps.Pair{pair, other}}}}
	diag := &load.Diagnostic{Analyzer: "unguarded", Package: "p", Type: "C", Methods: []string{"Add"},
		Pos: token.Position{Filename: "/p/c.go", Line: 10, Column: 4}, Message: "recv.n is written in Add without recv.mu"}
	report := func(f func(*TypeReport)) []*TypeReport {
		tr := &TypeReport{Package: "p", Type: "C", Violations: []*Violation{}, pairs: []deps.Pair{pair, other},
			stats: map[[2]string]*pairStat{{"Add", "Get"}: {Tests: 12, Reached: true, Known: true}}}
		if f != nil {
			f(tr)
		}
		return []*TypeReport{tr}
	}
	race := func(p [2]string, repro string) *Violation {
		return &Violation{Kind: KindRace, Pair: p, Seed: 3, Reproduced: repro,
			Stacks: stacks.ParseRace("Write at 0x00c000 by goroutine 7:\n  p.(*C).Add()\n      /tmp/copy/p/c.go:10 +0x3a\n")}
	}
	for _, tc := range []struct {
		name   string
		d      *load.Diagnostic
		types  []*TypeReport
		status string
		text   string
	}{
		{"confirmed", diag, report(func(tr *TypeReport) { tr.Violations = append(tr.Violations, race([2]string{"Add", "Get"}, ReproYes)) }),
			DiagConfirmed, "confirmed by a generated test: race, Add ∥ Get, seed 3"},
		{"also seen as", diag, report(func(tr *TypeReport) {
			v := race([2]string{"Get", "Reset"}, ReproNotRun)
			v.AlsoSeenAs = [][2]string{{"Add", "Get"}}
			tr.Violations = append(tr.Violations, v)
		}), DiagConfirmed, "race, Get ∥ Reset, seed 3"},
		{"a race elsewhere", diag, report(func(tr *TypeReport) {
			v := race([2]string{"Add", "Get"}, ReproYes)
			v.Stacks = stacks.ParseRace("Write at 0x00c000 by goroutine 7:\n  p.(*C).Add()\n      /p/c.go:104 +0x3a\n" +
				"  p.(*C).add()\n      /p/xc.go:10\n")
			tr.Violations = append(tr.Violations, v)
		}), DiagNotReproduced, "not reproduced"},
		{"not linearizable", diag, report(func(tr *TypeReport) {
			v := race([2]string{"Add", "Get"}, ReproYes)
			v.Kind = KindNotLinearizable
			tr.Violations = append(tr.Violations, v)
		}), DiagNotReproduced, "not reproduced"},
		{"reproducer passed", diag, report(func(tr *TypeReport) { tr.Violations = append(tr.Violations, race([2]string{"Add", "Get"}, ReproNo)) }),
			DiagNotReproduced, "tested 12 times (Add ∥ Get), not reproduced"},
		{"another pair's violation", diag, report(func(tr *TypeReport) {
			tr.Violations = append(tr.Violations, race([2]string{"Get", "Reset"}, ReproYes))
		}), DiagNotReproduced, "not reproduced"},
		{"not reached", diag, report(func(tr *TypeReport) { tr.stats[[2]string{"Add", "Get"}].Reached = false }),
			DiagNotReached, "12 tests of Add ∥ Get never got"},
		{"no orders", diag, report(func(tr *TypeReport) { *tr.stats[[2]string{"Add", "Get"}] = pairStat{Tests: 4} }),
			DiagNotReproduced, "tested 4 times"},
		{"pairs not tested", diag, report(func(tr *TypeReport) { tr.stats = nil; tr.Ended = EndedBudget }),
			DiagNotTested, "not tested: its pairs were not tested before the type's testing ended (budget)"},
		{"ruled out by the documentation", diag, report(func(tr *TypeReport) {
			tr.stats = map[[2]string]*pairStat{{"Add", "Get"}: {Forbidden: "Other methods should not be called after"}}
		}), DiagNotTested, `the documentation rules its pairs out ("Other methods should not be called after")`},
		{"unexported pair", diag, report(func(tr *TypeReport) { tr.pairs = []deps.Pair{other} }),
			DiagNotTested, "involve unexported methods"},
		{"type skipped", diag, report(func(tr *TypeReport) { tr.Skipped = "no constructor" }),
			DiagNotTested, "not tested: no constructor"},
		{"type not selected", diag, nil, DiagNotTested, "-type '^C$' selects it"},
		{"no pair", &load.Diagnostic{Analyzer: "lockleak", Package: "p", Type: "C", Methods: []string{"Close"},
			Pos: token.Position{Filename: "/p/c.go", Line: 50}}, report(nil), DiagNoPair, "no dependent pair of C concerns it"},
		{"in a function", &load.Diagnostic{Analyzer: "lockleak", Package: "p", Pos: token.Position{Filename: "/p/c.go", Line: 60}},
			report(nil), DiagNoPair, "not in a method"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := judgeDiagnostic(tc.d, plan, tc.types)
			if got.Status != tc.status || !strings.Contains(got.String(), tc.text) {
				t.Errorf("%s: %q, want %s: …%s…", got.Status, got, tc.status, tc.text)
			}
		})
	}
}

// TestMergeDiagnostics checks that merging shards keeps, for each
// diagnostic, the result of the shard that tested its type, in the
// order of positions.
func TestMergeDiagnostics(t *testing.T) {
	a := []*DiagnosticResult{
		{Analyzer: "x", Pos: "/p/c.go:10:2", Status: DiagNotTested},
		{Analyzer: "x", Pos: "/p/c.go:9:2", Status: DiagConfirmed},
	}
	b := []*DiagnosticResult{
		{Analyzer: "x", Pos: "/p/c.go:10:2", Status: DiagNotReached},
		{Analyzer: "x", Pos: "/p/c.go:9:2", Status: DiagNotTested},
	}
	got := mergeDiagnostics(a, b)
	if len(got) != 2 || got[0].Pos != "/p/c.go:9:2" || got[0].Status != DiagConfirmed || got[1].Status != DiagNotReached {
		t.Errorf("merged %+v %+v", got[0], got[1])
	}
}

// TestPassesThrough checks how a violation's stacks are matched with
// the line of a diagnostic's position: by base name and line, not by
// another file of the same line, not by a related position.
func TestPassesThrough(t *testing.T) {
	d := &load.Diagnostic{Pos: token.Position{Filename: "/m/p/file.go", Line: 12},
		Related: []load.Related{{Pos: token.Position{Filename: "/m/p/other.go", Line: 7}}}}
	frames := func(pos ...string) []stacks.Stack {
		var s stacks.Stack
		for _, p := range pos {
			file, line, _ := strings.Cut(p, ":")
			n, _ := strconv.Atoi(line)
			s.Frames = append(s.Frames, stacks.Frame{Func: "p.f", File: file, Line: n})
		}
		return []stacks.Stack{{}, s}
	}
	for _, tc := range []struct {
		stacks []stacks.Stack
		want   bool
	}{
		{frames("/tmp/copy/p/file.go:12"), true},
		{frames("/m/p/file.go:12"), true},
		{frames("/m/p/other.go:7"), false}, // a related position only
		{frames("/m/p/myfile.go:12"), false},
		{frames("/m/p/file.go:123"), false},
		{frames("/m/p/file.go:1"), false},
		{frames("/m/p/myfile.go:12", "/m/p/file.go:120", "/x/file.go:12"), true},
		{nil, false},
	} {
		if got := passesThrough(tc.stacks, d); got != tc.want {
			t.Errorf("passesThrough(%+v) = %v, want %v", tc.stacks, got, tc.want)
		}
	}
}
