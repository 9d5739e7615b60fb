package driver

import (
	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/testgen"
)

// The driver's records of a type's testing: each wraps the entry of the
// report (package report) it fills in with what the driver needs besides,
// which the report does not show.

// A typeResult is a type's report with how its pairs were tested, which
// judging the static diagnostics needs (see judgeDiagnostic).
type typeResult struct {
	*report.TypeReport
	// pairs are the dependent pairs of the view tested; stats how they
	// were tested.
	pairs []deps.Pair
	stats map[[2]string]*pairStat
}

func newTypeReport(pkg string, tp *deps.TypePlan) *typeResult {
	return &typeResult{TypeReport: &report.TypeReport{Package: pkg, Type: tp.Name, PairsTotal: tp.PairsTotal,
		PairsDependent: tp.Dependent(), Violations: []*report.Violation{}}, pairs: tp.Pairs}
}

// typeReports returns the reports of types.
func typeReports(types []*typeResult) []*report.TypeReport {
	out := make([]*report.TypeReport, len(types))
	for i, t := range types {
		out[i] = t.TypeReport
	}
	return out
}

// A finding is a violation of the type under test and how it was found,
// which its reproducer and its replays need.
type finding struct {
	*report.Violation
	test   harness.Test      // the failing test
	sched  *harness.Schedule // the failing test's schedule
	target *testgen.Target   // the failing test's target
	lin    *harness.Lin      // how a non-linearizable outcome was taken
	key    string            // what makes it distinct
	defect string            // what identifies its defect across pairs (see defectKey)
	window string            // the window a targeted order kept open (see windowKey)
	// ownGoroutine is set when the failure happened in a goroutine the
	// code under test started (a race one of whose accesses is there).
	ownGoroutine bool
}
