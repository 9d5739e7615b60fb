package driver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/report"
)

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
		if known, reached := r.policy.OrdersReached(t); known {
			st.Known = true
			st.Reached = st.Reached || reached
		}
	}
	return out
}

// judgeDiagnostics returns what the run did about each diagnostic of
// the packages tested: types holds the types tested or skipped, plans
// the packages' plans.
func judgeDiagnostics(diags []*load.Diagnostic, plans map[string]*deps.Plan, types []*typeResult) []*report.DiagnosticResult {
	out := []*report.DiagnosticResult{}
	for _, d := range diags {
		out = append(out, judgeDiagnostic(d, plans[d.Package], types))
	}
	return out
}

func judgeDiagnostic(d *load.Diagnostic, plan *deps.Plan, types []*typeResult) *report.DiagnosticResult {
	res := &report.DiagnosticResult{Analyzer: d.Analyzer, Pos: d.Pos.String(), Message: d.Message, Package: d.Package,
		Type: d.Type}
	if d.Type == "" {
		res.Status, res.Why = report.DiagNoPair, "it is not in a method"
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
		res.Status, res.Why = report.DiagNoPair, fmt.Sprintf("no dependent pair of %s concerns it", d.Type)
		if len(d.Elsewhere) > 0 {
			res.Why = fmt.Sprintf("it involves %s besides %s's methods, and generated tests pair the methods of one type",
				strings.Join(d.Elsewhere, ", "), d.Type)
		}
		return res
	}
	i := slices.IndexFunc(types, func(t *typeResult) bool { return t.Package == d.Package && t.Type == d.Type })
	if i < 0 {
		res.Status = report.DiagNotTested
		res.Why = fmt.Sprintf("%s was not selected for testing (-type '^%s$' selects it)", d.Type, d.Type)
		return res
	}
	t := types[i]
	if t.Skipped != "" {
		res.Status, res.Why = report.DiagNotTested, t.Skipped
		return res
	}
	for _, v := range t.Violations {
		if v.Confirms(d, t.pairs) {
			res.Status = report.DiagConfirmed
			pair := report.PairString(v.Pair)
			if v.Kind == report.KindSelfDeadlock {
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
		res.Status = report.DiagNotTested
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
		res.Status, res.Why = report.DiagNotTested, fmt.Sprintf("the documentation rules its pairs out (%q)", forbidden)
	case res.Tests == 0:
		res.Status, res.Why = report.DiagNotTested, "its pairs were not tested"
		if t.Ended == report.EndedBudget || t.Ended == report.EndedInterrupted {
			res.Why += " before the type's testing ended (" + t.Ended + ")"
		}
	case known && !reached:
		res.Status = report.DiagNotReached
	default:
		res.Status = report.DiagNotReproduced
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
