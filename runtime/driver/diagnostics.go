package driver

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/stacks"
)

// What the tests did about a static diagnostic (DiagnosticResult.Status).
const (
	// DiagConfirmed: a violation of a pair the diagnostic concerns was
	// found, and its reproducer failed (or could not be run).
	DiagConfirmed = "confirmed"
	// DiagNotReproduced: the pairs it concerns were tested, without a
	// violation.
	DiagNotReproduced = "not reproduced"
	// DiagNotReached: the pairs it concerns were tested, but no test got
	// to the statements of their evidence.
	DiagNotReached = "not reached"
	// DiagNotTested: its type, or the pairs it concerns, were not tested
	// (Why says why).
	DiagNotTested = "not tested"
	// DiagNoPair: no dependent pair of its type concerns it (or it is not
	// in a method): no generated test can confirm it.
	DiagNoPair = "no pair"
)

// A DiagnosticResult is what the tests of a run did about one static
// diagnostic of the packages tested (load.Diagnostic).
type DiagnosticResult struct {
	Analyzer string `json:"analyzer"`
	Pos      string `json:"pos"` // file:line:col
	Message  string `json:"message"`
	Package  string `json:"package"`
	Type     string `json:"type,omitempty"`
	Status   string `json:"status"` // DiagConfirmed, ...
	// Pairs are the dependent pairs whose tests may confirm it ("A ∥ B").
	Pairs []string `json:"pairs,omitempty"`
	// Tests counts the tests of those pairs.
	Tests int `json:"tests,omitempty"`
	// By names the violation that confirms it: "race, Get ∥ Inc, seed 1",
	// "self-deadlock, Add called alone, seed 1".
	By  string `json:"by,omitempty"`
	Why string `json:"why,omitempty"`
}

// String renders the result's status as a suffix of the diagnostic:
// "confirmed by a generated test: race, Get ∥ Inc, seed 1".
func (d *DiagnosticResult) String() string {
	switch d.Status {
	case DiagConfirmed:
		return "confirmed by a generated test: " + d.By
	case DiagNotReproduced:
		return fmt.Sprintf("tested %d %s (%s), not reproduced", d.Tests, plural(d.Tests, "time", "times"), strings.Join(d.Pairs, ", "))
	case DiagNotReached:
		return fmt.Sprintf("not reached: %d %s of %s never got to its statements", d.Tests, plural(d.Tests, "test", "tests"),
			strings.Join(d.Pairs, ", "))
	}
	return d.Status + ": " + d.Why
}

// Confirms reports whether the violation confirms the static diagnostic
// d, a diagnostic of the violation's type whose dependent pairs (in the
// view tested) are pairs: the violation is not one whose reproducer
// passed; it is a race, a deadlock, a panic or a fatal error (a
// non-linearizable outcome is another claim than any diagnostic makes)
// whose report or stacks pass through the line of the diagnostic's
// position (the racing access, the blocked Lock); and
// it is a violation of a pair whose tests can confirm d
// (load.Diagnostic.Concerns), or was also seen as one.
func (v *Violation) Confirms(d *load.Diagnostic, pairs []deps.Pair) bool {
	if v.Reproduced == ReproNo || d == nil || v.Kind == KindNotLinearizable || !passesThrough(v.Stacks, d) {
		return false
	}
	if d.Concerns(v.Pair[0], v.Pair[1], v.Evidence) {
		return true
	}
	seen := append([][2]string{v.Pair}, v.AlsoSeenAs...)
	for _, p := range pairs {
		for _, s := range seen {
			if (s == [2]string{p.M1, p.M2} || s == [2]string{p.M2, p.M1}) && d.Concerns(p.M1, p.M2, p.Evidence) {
				return true
			}
		}
	}
	return false
}

// passesThrough reports whether a violation's stacks (the race's
// accesses, the goroutines' stacks) pass through the line of d's
// position: the unguarded access, the lock taken again, the second lock
// of an inversion (a related position, such as an example of a guarded
// access elsewhere, is no evidence that this defect was the one seen).
// Files are compared by base name, since the child may run a copy of
// the package.
func passesThrough(ss []stacks.Stack, d *load.Diagnostic) bool {
	p := d.Pos
	if p.Line <= 0 {
		return false
	}
	base := filepath.Base(p.Filename)
	for _, s := range ss {
		for _, f := range s.Frames {
			if f.Line == p.Line && filepath.Base(f.File) == base {
				return true
			}
		}
	}
	return false
}

// A pairStat is how a dependent pair was tested: Tests tests; Reached
// is set when a test got to the hooks of one of its targeted orders,
// Known when it has such orders (without, whether its tests got to its
// evidence is not known). Forbidden, for a pair not tested, is what in
// the type's documentation keeps its methods from running concurrently.
type pairStat struct {
	Tests          int
	Reached, Known bool
	Forbidden      string
}

// pairStats returns how each dependent pair of the type was tested.
func (r *typeRun) pairStats() map[[2]string]*pairStat {
	out := map[[2]string]*pairStat{}
	for _, p := range r.s.Plan.Pairs {
		if phrase := r.g.Forbidden(p.M1, p.M2); phrase != "" {
			out[[2]string{p.M1, p.M2}] = &pairStat{Forbidden: phrase}
		}
	}
	for _, t := range r.g.Targets() {
		if t.Pair == nil {
			continue
		}
		k := [2]string{t.Pair.M1, t.Pair.M2}
		st := out[k]
		if st == nil {
			st = &pairStat{}
			out[k] = st
		}
		st.Tests += r.g.Tests(t)
		ps, ok := r.scheds[t]
		if !ok {
			continue
		}
		for _, c := range ps.cov {
			st.Known = true
			st.Reached = st.Reached || c.reached > 0 || c.Forced > 0
		}
	}
	return out
}

// judgeDiagnostics returns what the run did about each diagnostic of
// the packages tested: types holds the reports of the types tested or
// skipped, plans the packages' plans.
func judgeDiagnostics(diags []*load.Diagnostic, plans map[string]*deps.Plan, types []*TypeReport) []*DiagnosticResult {
	out := []*DiagnosticResult{}
	for _, d := range diags {
		out = append(out, judgeDiagnostic(d, plans[d.Package], types))
	}
	return out
}

func judgeDiagnostic(d *load.Diagnostic, plan *deps.Plan, types []*TypeReport) *DiagnosticResult {
	res := &DiagnosticResult{Analyzer: d.Analyzer, Pos: d.Pos.String(), Message: d.Message, Package: d.Package,
		Type: d.Type}
	if d.Type == "" {
		res.Status, res.Why = DiagNoPair, "it is not in a method"
		return res
	}
	var full []deps.Pair
	if plan != nil {
		for _, tp := range plan.All {
			if tp.Name == d.Type {
				full = concerning(d, tp.Pairs)
			}
		}
	}
	if len(full) == 0 {
		res.Status, res.Why = DiagNoPair, fmt.Sprintf("no dependent pair of %s concerns it", d.Type)
		if len(d.Elsewhere) > 0 {
			res.Why = fmt.Sprintf("it involves %s besides %s's methods, and generated tests pair the methods of one type",
				strings.Join(d.Elsewhere, ", "), d.Type)
		}
		return res
	}
	i := slices.IndexFunc(types, func(t *TypeReport) bool { return t.Package == d.Package && t.Type == d.Type })
	if i < 0 {
		res.Status = DiagNotTested
		res.Why = fmt.Sprintf("%s was not selected for testing (-type '^%s$' selects it)", d.Type, d.Type)
		return res
	}
	t := types[i]
	if t.Skipped != "" {
		res.Status, res.Why = DiagNotTested, t.Skipped
		return res
	}
	for _, v := range t.Violations {
		if v.Confirms(d, t.pairs) {
			res.Status = DiagConfirmed
			pair := pairString(v.Pair)
			if v.Kind == KindSelfDeadlock {
				pair = v.Pair[0] + " called alone"
			}
			res.By = fmt.Sprintf("%s, %s, seed %d", v.Kind, pair, v.Seed)
			if v.Question != "" {
				res.By += ", a contract question: " + v.Question
			}
			return res
		}
	}
	pairs := concerning(d, t.pairs)
	if len(pairs) == 0 {
		res.Status = DiagNotTested
		res.Why = fmt.Sprintf("its pairs (%s) involve unexported methods (-unexported tests them)", pairNames(full))
		return res
	}
	res.Pairs = strings.Split(pairNames(pairs), ", ")
	reached, known := false, true
	forbidden := ""
	for _, p := range pairs {
		if st := t.stats[[2]string{p.M1, p.M2}]; st != nil {
			res.Tests += st.Tests
			reached = reached || st.Reached
			known = known && st.Known
			if forbidden == "" {
				forbidden = st.Forbidden
			}
		}
	}
	switch {
	case res.Tests == 0 && forbidden != "":
		res.Status, res.Why = DiagNotTested, fmt.Sprintf("the documentation rules its pairs out (%q)", forbidden)
	case res.Tests == 0:
		res.Status, res.Why = DiagNotTested, "its pairs were not tested"
		if t.Ended == EndedBudget || t.Ended == EndedInterrupted {
			res.Why += " before the type's testing ended (" + t.Ended + ")"
		}
	case known && !reached:
		res.Status = DiagNotReached
	default:
		res.Status = DiagNotReproduced
	}
	return res
}

// concerning returns the pairs whose tests can confirm d.
func concerning(d *load.Diagnostic, pairs []deps.Pair) []deps.Pair {
	var out []deps.Pair
	for _, p := range pairs {
		if d.Concerns(p.M1, p.M2, p.Evidence) {
			out = append(out, p)
		}
	}
	return out
}

func pairNames(pairs []deps.Pair) string {
	names := make([]string, len(pairs))
	for i, p := range pairs {
		names[i] = p.M1 + " ∥ " + p.M2
	}
	return strings.Join(names, ", ")
}

// diagRank orders the statuses from the least to the most informed:
// merging the reports of shards keeps, for each diagnostic, the result
// of the shard that tested it.
func diagRank(status string) int {
	return slices.Index([]string{DiagNoPair, DiagNotTested, DiagNotReached, DiagNotReproduced, DiagConfirmed}, status)
}

// mergeDiagnostics merges the diagnostic results of shards.
func mergeDiagnostics(lists ...[]*DiagnosticResult) []*DiagnosticResult {
	best := map[string]*DiagnosticResult{}
	var keys []string
	for _, l := range lists {
		for _, d := range l {
			k := d.Pos + "|" + d.Analyzer + "|" + d.Message
			if old, ok := best[k]; !ok {
				keys = append(keys, k)
				best[k] = d
			} else if diagRank(d.Status) > diagRank(old.Status) {
				best[k] = d
			}
		}
	}
	out := make([]*DiagnosticResult, 0, len(keys))
	for _, k := range keys {
		out = append(out, best[k])
	}
	slices.SortStableFunc(out, func(a, b *DiagnosticResult) int {
		p, _ := load.ParsePosition(a.Pos)
		q, _ := load.ParsePosition(b.Pos)
		return cmp.Or(cmp.Compare(p.Filename, q.Filename), cmp.Compare(p.Line, q.Line), cmp.Compare(p.Column, q.Column))
	})
	return out
}

// writeDiagnostics writes the static diagnostics of the packages tested,
// each with what the tests did about it.
func writeDiagnostics(w io.Writer, diags []*DiagnosticResult) {
	if len(diags) == 0 {
		return
	}
	confirmed := 0
	for _, d := range diags {
		if d.Status == DiagConfirmed {
			confirmed++
		}
	}
	fmt.Fprintf(w, "static diagnostics: %d, %d confirmed by a generated test\n", len(diags), confirmed)
	for _, d := range diags {
		fmt.Fprintf(w, "  %s: %s [%s: %s]\n", d.Pos, d.Message, d.Analyzer, d)
	}
}
