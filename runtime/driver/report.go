package driver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/stacks"
	"github.com/depcon/depcon/runtime/testgen"
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

// A Report is the result of Run.
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

// Merge returns the report of the union of reports (of the shards of one
// run): their types, sorted by package and name.
func Merge(reports ...*Report) *Report {
	out := &Report{Types: []*TypeReport{}}
	var diags [][]*DiagnosticResult
	for _, r := range reports {
		out.Types = append(out.Types, r.Types...)
		diags = append(diags, r.Diagnostics)
		for _, n := range r.Notes {
			if !slices.Contains(out.Notes, n) {
				out.Notes = append(out.Notes, n)
			}
		}
		if out.Isolation == "" {
			out.Isolation = r.Isolation
		} else if r.Isolation != "" && r.Isolation != out.Isolation {
			out.Isolation += "; " + r.Isolation
		}
	}
	slices.SortStableFunc(out.Types, func(a, b *TypeReport) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Type, b.Type))
	})
	out.Diagnostics = mergeDiagnostics(diags...)
	if len(out.Diagnostics) == 0 {
		out.Diagnostics = nil
	}
	out.Reach = reachOf(out.Types)
	for _, r := range reports {
		for _, f := range r.NotLoaded {
			if !slices.Contains(out.NotLoaded, f) {
				out.NotLoaded = append(out.NotLoaded, f)
			}
		}
	}
	return out
}

// ReadJSON reads a report written by WriteJSON.
func ReadJSON(r io.Reader) (*Report, error) {
	var rep Report
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return nil, fmt.Errorf("reading a report: %w", err)
	}
	for _, t := range rep.Types {
		if t.Violations == nil {
			t.Violations = []*Violation{}
		}
	}
	return &rep, nil
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
	// pairs are the dependent pairs of the view tested; stats how they
	// were tested (for DiagnosticResult).
	pairs []deps.Pair
	stats map[[2]string]*pairStat
}

// PairCoverage is the interleaving coverage of one pair.
type PairCoverage struct {
	Pair   [2]string       `json:"pair"`
	Orders []OrderCoverage `json:"orders"`
	// DelaySchedules counts the delay-bounded schedules run, PCTRuns the
	// PCT runs (iterations of PCT tests), of PCTNeeded for the pair to be
	// saturated (pctRunsFor its Steps, the most hook calls an iteration
	// made).
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
	reached int // tests in which some iteration reached the holds
	// tests0 and seen0 are Tests and Tests+Skipped when the order was
	// last reopened (see reopen).
	tests0, seen0 int
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

func newTypeReport(pkg string, tp *deps.TypePlan) *TypeReport {
	return &TypeReport{Package: pkg, Type: tp.Name, PairsTotal: tp.PairsTotal, PairsDependent: tp.Dependent(),
		Violations: []*Violation{}, pairs: tp.Pairs}
}

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
	// Within is set when both accesses of a race are in one call of that
	// method (its goroutine, and one it started): the defect is that
	// method's alone, whatever the pair it ran in.
	Within string `json:"within,omitempty"`
	// Sequential is set ("P1, then P2") when the accesses of a race are
	// in two sequential calls of the test (a goroutine the first left
	// running, and the second): the set-up's defect, not the pair's.
	Sequential string `json:"sequential,omitempty"`
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
	Schedule string            `json:"schedule,omitempty"`
	Replayed string            `json:"replayed,omitempty"`
	sched    *harness.Schedule // the failing test's schedule
	target   *testgen.Target   // the failing test's target
	lin      *harness.Lin      // how a non-linearizable outcome was taken
	// AlsoSeenAs lists the other pairs that showed the same
	// defect (the same two racing lines, the same panicking line).
	AlsoSeenAs [][2]string  `json:"also_seen_as,omitempty"`
	test       harness.Test // the failing test
	seq        bool         // a single sequential call
	key        string       // what makes it distinct
	defect     string       // what identifies its defect across pairs (see defectKey)
	window     string       // the window a targeted order kept open (see windowKey)
}

// WriteJSON writes the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// What ended a type's testing (TypeReport.Ended).
const (
	// EndedSaturated: every pair left saturated its interleavings (see
	// typeRun.saturated) before the budget ended.
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

// WriteText writes the report for a human: the findings first, then a
// line per type tested (with its notes), then the types not tested and
// why. Reproducers are shown only when they were written to files.
func (r *Report) WriteText(w io.Writer) { r.writeText(w, false) }

// WriteTextVerbose is WriteText with, for each type, its tests by
// schedule, the prefix calls pruned and the interleaving coverage of
// every pair.
func (r *Report) WriteTextVerbose(w io.Writer) { r.writeText(w, true) }

func (r *Report) writeText(w io.Writer, verbose bool) {
	if r.Isolation != "" {
		fmt.Fprintf(w, "isolation: %s\n", r.Isolation)
	}
	if r.Stopped != "" {
		fmt.Fprintf(w, "stopped early (%s): what follows is what was found until then\n", r.Stopped)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, f := range r.NotLoaded {
		fmt.Fprintf(w, "not loaded, not tested: %s\n", f)
	}
	if len(r.Types) == 0 {
		fmt.Fprintln(w, "no types under test (types with a mutex, atomic, channel... that a user can obtain are tested; "+
			"-unexported adds unexported ones, -type selects others)")
		writeDiagnostics(w, r.Diagnostics)
		return
	}
	// The bugs, then the contract questions.
	for _, question := range []bool{false, true} {
		for _, t := range r.Types {
			var vs []*Violation
			for _, v := range t.Violations {
				if (v.Question != "" || v.SelfArg) == question {
					vs = append(vs, v)
				}
			}
			if len(vs) == 0 {
				continue
			}
			fmt.Fprintf(w, "%s.%s:\n", t.Package, t.Type)
			for _, v := range vs {
				v.writeText(w)
			}
		}
	}
	var skipped []*TypeReport
	for _, t := range r.Types {
		if t.Skipped != "" {
			skipped = append(skipped, t)
			continue
		}
		questions, selfArgs := 0, 0
		for _, v := range t.Violations {
			switch {
			case v.Question != "":
				questions++
			case v.SelfArg:
				selfArgs++
			}
		}
		found := "no violation found"
		if n := len(t.Violations) - questions - selfArgs; n > 0 {
			found = fmt.Sprintf("%d violations", n)
			if n == 1 {
				found = "1 violation"
			}
		}
		switch {
		case questions == 1:
			found += ", 1 contract question"
		case questions > 1:
			found += fmt.Sprintf(", %d contract questions", questions)
		}
		if selfArgs > 0 {
			found += fmt.Sprintf(", %d only with an object passed to its own method (not counted)", selfArgs)
		}
		by := ""
		if len(t.BuiltBy) > 0 {
			by = ", built by " + strings.Join(t.BuiltBy, ", ")
		}
		ended := ""
		switch t.Ended {
		case EndedSaturated:
			ended = " (interleavings saturated)"
		case EndedBudget:
			ended = " (budget spent)"
		}
		fmt.Fprintf(w, "%s.%s: %s; %d %s tested (%d dependent, %d in all), %d %s, %.1fs%s%s\n",
			t.Package, t.Type, found, t.PairsTested, plural(t.PairsTested, "pair", "pairs"), t.PairsDependent, t.PairsTotal,
			t.TestsGenerated, plural(t.TestsGenerated, "test", "tests"), t.Elapsed, ended, by)
		if verbose {
			t.writeCoverage(w)
		}
		for _, n := range t.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	for _, t := range skipped {
		fmt.Fprintf(w, "%s.%s: not tested: %s\n", t.Package, t.Type, t.Skipped)
		for _, n := range t.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	r.Reach.writeText(w)
	writeDiagnostics(w, r.Diagnostics)
}

// writeCoverage writes the type's tests by schedule, the prefix calls
// pruned and the interleaving coverage of its pairs.
func (t *TypeReport) writeCoverage(w io.Writer) {
	if len(t.Schedules) > 0 {
		var ss []string
		for _, k := range slices.Sorted(maps.Keys(t.Schedules)) {
			ss = append(ss, fmt.Sprintf("%s %d", k, t.Schedules[k]))
		}
		fmt.Fprintf(w, "  concurrent tests by schedule: %s\n", strings.Join(ss, ", "))
	}
	if t.PrefixCalls > 0 {
		fmt.Fprintf(w, "  prefix calls pruned: %d of %d (they changed no branch the pair's calls take)\n",
			t.PrefixPruned, t.PrefixCalls)
	}
	for _, pc := range t.Interleavings {
		var os []string
		for _, o := range pc.Orders {
			os = append(os, o.String())
		}
		if pc.DelaySchedules > 0 {
			os = append(os, fmt.Sprintf("%d delay-bounded schedules", pc.DelaySchedules))
		}
		if pc.PCTRuns > 0 {
			os = append(os, fmt.Sprintf("%d of %d PCT runs (%d hook calls)", pc.PCTRuns, pc.PCTNeeded, pc.Steps))
		}
		fmt.Fprintf(w, "  interleavings of %s ∥ %s: %s\n", pc.Pair[0], pc.Pair[1], strings.Join(os, "; "))
	}
}

func (v *Violation) writeText(w io.Writer) {
	objs := "1 object"
	if v.Objects == 2 {
		objs = "2 objects"
	}
	what := fmt.Sprintf("%s ∥ %s (%s)", v.Pair[0], v.Pair[1], objs)
	if v.seq || v.Kind == KindSelfDeadlock {
		what = v.Pair[0] + " (called alone)"
	}
	switch {
	case v.Within != "":
		what = fmt.Sprintf("within one call of %s (both accesses in it and a goroutine it started; found testing %s ∥ %s)",
			v.Within, v.Pair[0], v.Pair[1])
	case v.Sequential != "":
		what = fmt.Sprintf("between the sequential calls %s (a goroutine the first left running; found testing %s ∥ %s)",
			v.Sequential, v.Pair[0], v.Pair[1])
	}
	if v.SelfArg {
		what += ", an object passed to its own method"
	}
	status := ""
	switch v.Reproduced {
	case ReproYes:
		status = ", reproduced"
	case ReproNo:
		status = ", UNCONFIRMED: its reproducer passed"
	case ReproNotRun:
		if why, _, _ := strings.Cut(v.ReproOutput, "\n"); why != "" {
			status = ", NOT CONFIRMED: " + strings.TrimPrefix(why, "not confirmed: ")
		}
	}
	if v.Known {
		status += ", known (in the baseline)"
	}
	count := ""
	if v.Count > 1 {
		count = fmt.Sprintf(" (seen %d times)", v.Count) // Count > 1
	}
	kind := strings.ToUpper(v.Kind)
	if v.Question != "" {
		kind = "CONTRACT QUESTION (" + v.Kind + ")"
	}
	fmt.Fprintf(w, "  %s: %s, in test %d, %.1fs%s%s\n", kind, what, v.TestsBefore+1, v.Elapsed,
		count, status)
	if v.Question != "" {
		fmt.Fprintf(w, "    %s Neither method orders the accesses that race; if they may, this is a bug "+
			"(-strict counts it as one; a //depcon:ignore pair=%s,%s on the type says they may not)\n", v.Question,
			v.Pair[0], v.Pair[1])
	}
	fmt.Fprintf(w, "    %s\n", v.Message)
	if len(v.AlsoSeenAs) > 0 {
		var pairs []string
		for _, p := range v.AlsoSeenAs {
			pairs = append(pairs, pairString(p))
		}
		fmt.Fprintf(w, "    also seen as: %s (the same defect)\n", strings.Join(pairs, ", "))
	}
	if len(v.Evidence) > 0 {
		fmt.Fprintln(w, "    static evidence:")
		for _, e := range v.Evidence {
			fmt.Fprintf(w, "      [%s] %s\n", e.Kind, e.Text)
		}
	}
	if v.Details != "" {
		fmt.Fprintf(w, "%s\n", indent(v.Details, "    | "))
	}
	if v.Schedule != "" && v.Schedule != SchedStress {
		fmt.Fprintf(w, "    schedule: %s\n", v.Schedule)
	}
	if v.Replayed != "" {
		fmt.Fprintf(w, "    replayed under its schedule: %s failed\n", v.Replayed)
	}
	if v.Rerun != "" {
		fmt.Fprintf(w, "    rerun: %s\n", v.Rerun)
	}
	switch {
	case v.Reproducer == "":
	case strings.HasSuffix(v.Reproducer, ".go") && !strings.Contains(v.Reproducer, "\n"):
		fmt.Fprintf(w, "    reproducer: %s\n", v.Reproducer)
	default:
		fmt.Fprintf(w, "    reproducer (-o DIR writes it to a file):\n%s\n", indent(strings.TrimRight(v.Reproducer, "\n"), "    | "))
	}
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
