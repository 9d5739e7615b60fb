package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
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
	if v.Alone || v.Kind == KindSelfDeadlock {
		what = v.Pair[0] + " (called alone)"
	}
	switch {
	case v.Within != "":
		// Two goroutines started by two sequential calls of the method
		// look the same as two of one call's.
		what = fmt.Sprintf("within the calls of %s (both accesses in a call of it or goroutines it started; found testing %s ∥ %s)",
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
			pairs = append(pairs, PairString(p))
		}
		fmt.Fprintf(w, "    also seen as: %s (the same defect)\n", strings.Join(pairs, ", "))
	}
	if len(v.Evidence) > 0 {
		var glosses []string
		for _, e := range v.Evidence {
			if g := evidenceGloss[e.Kind]; g != "" && !slices.Contains(glosses, "["+e.Kind+"] "+g) {
				glosses = append(glosses, "["+e.Kind+"] "+g)
			}
		}
		fmt.Fprintf(w, "    static evidence (%s):\n", strings.Join(glosses, "; "))
		for _, e := range v.Evidence {
			fmt.Fprintf(w, "      [%s] %s\n", e.Kind, e.Text)
		}
	}
	if v.Details != "" {
		fmt.Fprintf(w, "%s\n", indent(v.Details, "    | "))
	}
	if v.Schedule != "" && v.Schedule != ScheduleStress {
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
	case IsReproducerPath(v.Reproducer):
		fmt.Fprintf(w, "    reproducer: %s\n", v.Reproducer)
	default:
		fmt.Fprintf(w, "    reproducer (-o DIR writes it to a file):\n%s\n", indent(strings.TrimRight(v.Reproducer, "\n"), "    | "))
	}
}

// evidenceGloss says in words what each kind of static evidence is.
var evidenceGloss = map[string]string{
	"pc":   "the two methods may run at once and touch a common location, one of them writing",
	"d":    "they may take two locks in opposite orders",
	"rwr":  "one read-locks twice while the other may wait to write",
	"self": "a method takes a lock it already holds",
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// writeText writes the reach line of a text report.
func (r *Reach) writeText(w io.Writer) {
	if r == nil || r.Total == 0 {
		return
	}
	fmt.Fprintf(w, "reach: tested with a working object: %d of %d %s with synchronisation", r.Tested, r.Total,
		plural(r.Total, "type", "types"))
	if n := len(r.NotTested); n > 0 {
		fmt.Fprintf(w, " (%d not tested, each with its reason above)", n)
	}
	fmt.Fprintln(w)
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
