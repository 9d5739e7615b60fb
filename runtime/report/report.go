// Package report is the report of a depcon test run and its text and
// JSON renderings.
//
// The driver (runtime/driver) produces a [Report]: a [TypeReport] per
// type tested, with the violations found ([Violation]), the interleaving
// coverage of its pairs ([PairCoverage]), and what the tests did about
// the static diagnostics of the packages ([DiagnosticResult]). [Report.WriteText]
// and [Report.WriteTextVerbose] render it for a person,
// [Report.WriteJSON] as JSON, which [ReadJSON] reads back: depcon test
// -merge merges the JSON reports of a run's shards ([CheckShards],
// [Merge]). A [Baseline] lists the violations a project has accepted.
// The SARIF rendering is in package runtime/sarif (FromTestReport),
// next to that of depcon vet's diagnostics.
package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/stacks"
)

// Kinds of violations.
const (
	KindRace         = "race"          // a data race reported by the race detector
	KindPanic        = "panic"         // a panic no sequential order reproduces
	KindDeadlock     = "deadlock"      // calls blocked forever, not sequentially
	KindFatal        = "fatal"         // a fatal runtime error (concurrent map writes)
	KindSelfDeadlock = "self-deadlock" // a call that never returns when made alone
	// KindNotLinearizable: two concurrent calls whose outcome (their
	// results, then what the type's read-only methods return) is that of
	// neither sequential order.
	KindNotLinearizable = "not-linearizable"
)

// A Report is the result of a run of depcon test (driver.Run).
type Report struct {
	// Shard is "K/N" when the report is the K-th of N shards.
	Shard string `json:"shard,omitempty"`
	// Isolation says what confined the processes that ran the packages'
	// code (see package isolate).
	Isolation string `json:"isolation,omitempty"`
	// Stopped says why the run ended before its end (a signal, -timeout):
	// the report has what was found until then.
	Stopped string        `json:"stopped,omitempty"`
	Types   []*TypeReport `json:"types"`
	// Diagnostics are the static diagnostics of the packages tested,
	// each with what the tests did about it.
	Diagnostics []*DiagnosticResult `json:"diagnostics,omitempty"`
	// Notes are about the run as a whole: an analyzer that failed on a
	// package (its diagnostics are missing).
	Notes []string `json:"notes,omitempty"`
	// Reach says how many of the types were tested with a working
	// object, and why the others were not.
	Reach *Reach `json:"reach,omitempty"`
	// NotLoaded lists the packages that did not load, each with its
	// first error: their types were not tested.
	NotLoaded []load.Failed `json:"not_loaded,omitempty"`
}

// Violations returns the number of violations found whose reproducer
// failed (or could not be run): those that decide the exit status.
func (r *Report) Violations() int {
	n := 0
	for _, t := range r.Types {
		n += t.Confirmed()
	}
	return n
}

// Confirmed returns the number of the type's violations that count: all
// but those whose reproducer ran and passed, those a baseline lists
// (Known), contract questions (Question), and those that need an object
// passed to its own method (SelfArg), which are listed apart.
func (t *TypeReport) Confirmed() int {
	n := 0
	for _, v := range t.Violations {
		if v.Reproduced != ReproNo && !v.Known && v.Question == "" && !v.SelfArg {
			n++
		}
	}
	return n
}

// ZeroValue stands in BuiltBy for objects that are zero values.
const ZeroValue = "the zero value"

// Whether a violation's reproducer failed when depcon ran it.
const (
	ReproYes    = "yes"     // it ran and failed: the violation is real
	ReproNo     = "no"      // it ran and passed, every time: unconfirmed
	ReproNotRun = "not run" // it could not be written or run
)

// A TypeReport is the result of testing one type.
type TypeReport struct {
	Package        string  `json:"package"`
	Type           string  `json:"type"`
	PairsTotal     int     `json:"pairs_total"`     // |M|
	PairsDependent int     `json:"pairs_dependent"` // |M_pc ∪ M_d|
	PairsTested    int     `json:"pairs_tested"`    // pairs whose calls ran concurrently
	TestsGenerated int     `json:"tests_generated"` // tests run
	Elapsed        float64 `json:"elapsed_s"`
	// Ended says what ended the type's testing: EndedSaturated,
	// EndedBudget, EndedPairs, EndedFirst or EndedInterrupted ("" when
	// it was not tested).
	Ended      string       `json:"ended,omitempty"`
	Violations []*Violation `json:"violations"`
	// BuiltBy names the functions that built its objects (those whose
	// probe succeeded), or holds ZeroValue.
	BuiltBy []string `json:"built_by,omitempty"`
	// Skipped says why the type could not be tested.
	Skipped string   `json:"skipped,omitempty"`
	Notes   []string `json:"notes,omitempty"`
	// Interleavings says, per dependent pair tested, which targeted
	// orders of its evidence were forced.
	Interleavings []PairCoverage `json:"interleavings,omitempty"`
	// PrefixCalls counts the prefix calls generated for the concurrent
	// tests that were traced; PrefixPruned those dropped because they
	// did not change which hooks the pair's calls reach.
	PrefixCalls  int `json:"prefix_calls,omitempty"`
	PrefixPruned int `json:"prefix_pruned,omitempty"`
	// Schedules counts the concurrent tests by how they were scheduled:
	// "targeted", "pct", "stress".
	Schedules map[string]int `json:"schedules,omitempty"`
}

// What ended a type's testing (TypeReport.Ended).
const (
	// EndedSaturated: every pair left saturated its interleavings (see
	// Policy.Saturated in runtime/driver/internal/sched) before the
	// budget ended.
	EndedSaturated = "saturated"
	// EndedBudget: the budget ended first.
	EndedBudget = "budget"
	// EndedPairs: no pair was left to test (each exposed a violation,
	// or involves a method that cannot be called).
	EndedPairs = "pairs"
	// EndedFirst: -first, at the first violation.
	EndedFirst = "first"
	// EndedInterrupted: the run was interrupted or timed out.
	EndedInterrupted = "interrupted"
)

// PairCoverage is the interleaving coverage of one pair.
type PairCoverage struct {
	Pair   [2]string       `json:"pair"`
	Orders []OrderCoverage `json:"orders"`
	// DelaySchedules counts the delay-bounded schedules run, PCTRuns the
	// PCT runs (iterations of PCT tests), of PCTNeeded for the pair to be
	// saturated (pctRunsFor, in runtime/driver/internal/sched, of its
	// Steps, the most hook calls an iteration made).
	DelaySchedules int `json:"delay_schedules,omitempty"`
	PCTRuns        int `json:"pct_runs,omitempty"`
	PCTNeeded      int `json:"pct_needed,omitempty"`
	Steps          int `json:"steps,omitempty"`
}

// OrderCoverage says how often a targeted order of a pair was tried and
// forced: Iters iterations in Tests tests, Forced of them with every
// hold met; Why counts, for the others, why the order could not be
// forced (harness.Why...).
type OrderCoverage struct {
	Order  string         `json:"order"`
	About  string         `json:"about"`
	Tests  int            `json:"tests"`
	Iters  int            `json:"iters"`
	Forced int            `json:"forced"`
	Why    map[string]int `json:"why,omitempty"`
	// Failed counts the tests of the order that failed (a violation,
	// or a failure judged not to be one); Skipped the tests of the pair
	// not run under it because their calls, traced, do not reach its
	// sites.
	Failed  int `json:"failed"`
	Skipped int `json:"skipped,omitempty"`
}

// String renders the coverage as "b·a forced 10/10".
func (c OrderCoverage) String() string {
	s := fmt.Sprintf("%s forced %d/%d", c.Order, c.Forced, c.Iters)
	switch {
	case c.Tests == 0:
		return c.Order + " not tried"
	case c.Failed > 0:
		s = fmt.Sprintf("%s failed in %d of %d %s", c.Order, c.Failed, c.Tests, plural(c.Tests, "test", "tests"))
		if c.Iters > 0 {
			s += fmt.Sprintf(", forced %d/%d", c.Forced, c.Iters)
		}
	}
	if c.Forced < c.Iters {
		var whys []string
		for _, w := range slices.Sorted(maps.Keys(c.Why)) {
			whys = append(whys, fmt.Sprintf("%s %d", w, c.Why[w]))
		}
		s += " (" + strings.Join(whys, ", ") + ")"
	}
	return s
}

// ScheduleStress is the Schedule of a violation whose test the Go
// scheduler interleaved, without hooks (the driver's -sched stress):
// the text report does not show it.
const ScheduleStress = "stress"

// A Violation is a thread-safety violation (or a self-deadlock) and the
// test that exposed it.
type Violation struct {
	Kind    string    `json:"kind"`
	Pair    [2]string `json:"pair"`
	Objects int       `json:"objects"`
	Seed    uint64    `json:"seed"`
	// TestsBefore is the number of tests of the type run before the one
	// that exposed the violation; Elapsed the time from the start of the
	// type to the violation's confirmation.
	TestsBefore int     `json:"tests_before"`
	Elapsed     float64 `json:"elapsed_s"`
	// Reproducer is the path of the reproducer when -o is given, its
	// source otherwise.
	Reproducer string `json:"reproducer"`
	// Reproduced says whether the reproducer failed when run in the
	// package (ReproYes, ReproNo, ReproNotRun); ReproOutput is the end of
	// its output, or why it could not run.
	Reproduced  string `json:"reproduced"`
	ReproOutput string `json:"repro_output,omitempty"`
	// Count is how many times the violation was seen.
	Count int `json:"count"`
	// Known is set when the -baseline file lists the violation: it is
	// reported but does not decide the exit status.
	Known bool `json:"known,omitempty"`
	// Question is set when the violation is a contract question rather
	// than a bug (deps.Pair.Question: neither method orders the accesses
	// that race, in a type not documented as safe for concurrent use):
	// it is reported after the bugs and does not decide the exit status
	// unless -strict.
	Question string `json:"question,omitempty"`
	// Within is set when both accesses of a race are in calls of that
	// method (its goroutine, or goroutines it started, in one call or in
	// two sequential ones): the defect is that method's alone, whatever
	// the pair it ran in.
	Within string `json:"within,omitempty"`
	// Sequential is set ("P1, then P2") when the accesses of a race are
	// in two sequential calls of the test (a goroutine the first left
	// running, and the second): the set-up's defect, not the pair's.
	Sequential string `json:"sequential,omitempty"`
	// Alone is set when the violation was exposed by one call made
	// alone (a probe, or the sequential test of a self pair) rather than
	// by concurrent calls: the text names that call. It is not written
	// to JSON: a report read back shows the pair.
	Alone bool `json:"-"`
	// SelfArg is set when a call passes its own receiver (a.M(a)): the
	// violation is listed apart and does not count (see Confirmed).
	SelfArg  bool            `json:"self_arg,omitempty"`
	Message  string          `json:"message"`
	Evidence []deps.Evidence `json:"evidence,omitempty"`
	// Stacks are the violation's goroutines (a race's two accesses, the
	// goroutines of a panic, a deadlock or a fatal error), cut to the
	// user's frames; Details shows them, or a non-linearizable outcome's
	// table, for a person.
	Stacks  []stacks.Stack `json:"stacks,omitempty"`
	Details string         `json:"details,omitempty"`
	Rerun   string         `json:"rerun,omitempty"`
	// Schedule says how the failing test was scheduled ("stress", "pct
	// (seed S, depth d)", "targeted a·b (…)"); Replayed how many replays
	// of the test under the same schedule failed the same way ("7/10").
	Schedule string `json:"schedule,omitempty"`
	Replayed string `json:"replayed,omitempty"`
	// AlsoSeenAs lists the other pairs that showed the same
	// defect (the same two racing lines, the same panicking line).
	AlsoSeenAs [][2]string `json:"also_seen_as,omitempty"`
}

// IsReproducerPath reports whether a violation's Reproducer is the path
// of a file (depcon test -o) rather than its source.
func IsReproducerPath(s string) bool {
	return strings.HasSuffix(s, ".go") && !strings.Contains(s, "\n")
}

// PairString writes a pair as "A ∥ B", "A" for a single call.
func PairString(p [2]string) string {
	if p[1] == "" {
		return p[0]
	}
	return p[0] + " ∥ " + p[1]
}

// plural returns one when n is 1, many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
