package driver

import (
	"go/token"
	"strings"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/report"
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
	tested := func(f func(*typeResult)) []*typeResult {
		tr := &typeResult{TypeReport: &report.TypeReport{Package: "p", Type: "C", Violations: []*report.Violation{}},
			pairs: []deps.Pair{pair, other}, stats: map[[2]string]*pairStat{{"Add", "Get"}: {Tests: 12, Reached: true, Known: true}}}
		if f != nil {
			f(tr)
		}
		return []*typeResult{tr}
	}
	race := func(p [2]string, repro string) *report.Violation {
		return &report.Violation{Kind: report.KindRace, Pair: p, Seed: 3, Reproduced: repro,
			Stacks: stacks.ParseRace("Write at 0x00c000 by goroutine 7:\n  p.(*C).Add()\n      /tmp/copy/p/c.go:10 +0x3a\n")}
	}
	for _, tc := range []struct {
		name   string
		d      *load.Diagnostic
		types  []*typeResult
		status string
		text   string
	}{
		{"confirmed", diag, tested(func(tr *typeResult) {
			tr.Violations = append(tr.Violations, race([2]string{"Add", "Get"}, report.ReproYes))
		}),
			report.DiagConfirmed, "confirmed by a generated test: race, Add ∥ Get, seed 3"},
		{"also seen as", diag, tested(func(tr *typeResult) {
			v := race([2]string{"Get", "Reset"}, report.ReproNotRun)
			v.AlsoSeenAs = [][2]string{{"Add", "Get"}}
			tr.Violations = append(tr.Violations, v)
		}), report.DiagConfirmed, "race, Get ∥ Reset, seed 3"},
		{"a race elsewhere", diag, tested(func(tr *typeResult) {
			v := race([2]string{"Add", "Get"}, report.ReproYes)
			v.Stacks = stacks.ParseRace("Write at 0x00c000 by goroutine 7:\n  p.(*C).Add()\n      /p/c.go:104 +0x3a\n" +
				"  p.(*C).add()\n      /p/xc.go:10\n")
			tr.Violations = append(tr.Violations, v)
		}), report.DiagNotReproduced, "not reproduced"},
		{"not linearizable", diag, tested(func(tr *typeResult) {
			v := race([2]string{"Add", "Get"}, report.ReproYes)
			v.Kind = report.KindNotLinearizable
			tr.Violations = append(tr.Violations, v)
		}), report.DiagNotReproduced, "not reproduced"},
		{"reproducer passed", diag, tested(func(tr *typeResult) {
			tr.Violations = append(tr.Violations, race([2]string{"Add", "Get"}, report.ReproNo))
		}),
			report.DiagNotReproduced, "tested 12 times (Add ∥ Get), not reproduced"},
		{"another pair's violation", diag, tested(func(tr *typeResult) {
			tr.Violations = append(tr.Violations, race([2]string{"Get", "Reset"}, report.ReproYes))
		}), report.DiagNotReproduced, "not reproduced"},
		{"not reached", diag, tested(func(tr *typeResult) { tr.stats[[2]string{"Add", "Get"}].Reached = false }),
			report.DiagNotReached, "12 tests of Add ∥ Get never got"},
		{"no orders", diag, tested(func(tr *typeResult) { *tr.stats[[2]string{"Add", "Get"}] = pairStat{Tests: 4} }),
			report.DiagNotReproduced, "tested 4 times"},
		{"pairs not tested", diag, tested(func(tr *typeResult) { tr.stats = nil; tr.Ended = report.EndedBudget }),
			report.DiagNotTested, "not tested: its pairs were not tested before the type's testing ended (budget)"},
		{"ruled out by the documentation", diag, tested(func(tr *typeResult) {
			tr.stats = map[[2]string]*pairStat{{"Add", "Get"}: {Forbidden: "Other methods should not be called after"}}
		}), report.DiagNotTested, `the documentation rules its pairs out ("Other methods should not be called after")`},
		{"unexported pair", diag, tested(func(tr *typeResult) { tr.pairs = []deps.Pair{other} }),
			report.DiagNotTested, "involve unexported methods"},
		{"type skipped", diag, tested(func(tr *typeResult) { tr.Skipped = "no constructor" }),
			report.DiagNotTested, "not tested: no constructor"},
		{"type not selected", diag, nil, report.DiagNotTested, "-type '^C$' selects it"},
		{"no pair", &load.Diagnostic{Analyzer: "lockleak", Package: "p", Type: "C", Methods: []string{"Close"},
			Pos: token.Position{Filename: "/p/c.go", Line: 50}}, tested(nil), report.DiagNoPair, "no dependent pair of C concerns it"},
		{"in a function", &load.Diagnostic{Analyzer: "lockleak", Package: "p", Pos: token.Position{Filename: "/p/c.go", Line: 60}},
			tested(nil), report.DiagNoPair, "not in a method"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := judgeDiagnostic(tc.d, plan, tc.types)
			if got.Status != tc.status || !strings.Contains(got.String(), tc.text) {
				t.Errorf("%s: %q, want %s: …%s…", got.Status, got, tc.status, tc.text)
			}
		})
	}
}
