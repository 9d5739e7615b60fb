package report

import (
	"cmp"
	"fmt"
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
