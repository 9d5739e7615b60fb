package bench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/driver"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/testgen"
)

// A Run is the outcome of testing one subject with one pair selection, one
// scheduler and one seed.
type Run struct {
	// Found is set when depcon test reported the subject's bug: a
	// violation of a kind the subject allows on its failing pair or on
	// an equivalent one (Subject.Hit).
	Found bool
	// FDT is the time in seconds from the start of the type's testing to
	// the first such violation; 0 when not found.
	FDT float64
	// Tests is the number of generated tests up to and including the one
	// that exposed the violation, or of all the tests run when none did.
	Tests int
	// Others lists the other confirmed violations, in the order reported
	// (every violation, on a control).
	Others []Other
	// Notes says why the type was not tested or some of its methods
	// were not: the driver's notes.
	Notes []string
	// Elapsed is how long the type's testing took, in seconds, and
	// Saturated whether it ended because its interleavings were
	// saturated (rather than by its budget, its pairs or a violation).
	Elapsed   float64
	Saturated bool
}

// An Other is a violation reported on a subject that is not its bug, with
// truth.json's judgement of it if any.
type Other struct {
	Kind string    `json:"kind"`
	Pair [2]string `json:"pair"` // sorted
	// Judged is set when truth.json judges the violation (Subject.Also);
	// Real when it judges it a real thread-safety violation. Any other
	// is a false alarm.
	Judged bool   `json:"judged"`
	Real   bool   `json:"real"`
	Note   string `json:"note,omitempty"`
}

// FalseAlarm reports whether o counts as a false alarm: it is not judged
// real.
func (o Other) FalseAlarm() bool { return !o.Real }

func (o Other) String() string {
	s := fmt.Sprintf("%s %s∥%s", o.Kind, o.Pair[0], o.Pair[1])
	switch {
	case o.Real:
		return s + " (judged real)"
	case o.Judged:
		return s + " (judged not real)"
	}
	return s
}

// FalseAlarms returns the number of r's other violations that are false
// alarms.
func (r Run) FalseAlarms() int {
	n := 0
	for _, o := range r.Others {
		if o.FalseAlarm() {
			n++
		}
	}
	return n
}

// runOf returns the run of subject s described by tr, the driver's report
// of its type (nil when the driver did not report it).
func runOf(s *Subject, tr *report.TypeReport) Run {
	if tr == nil {
		return Run{Notes: []string{"the driver did not report the type"}}
	}
	r := Run{Tests: tr.TestsGenerated, Notes: slices.Clone(tr.Notes), Elapsed: tr.Elapsed,
		Saturated: tr.Ended == report.EndedSaturated}
	if tr.Skipped != "" {
		r.Notes = append(r.Notes, "not tested: "+tr.Skipped)
	}
	for _, v := range tr.Violations {
		if v.Reproduced == report.ReproNo {
			r.Notes = append(r.Notes, fmt.Sprintf("unconfirmed %s %s∥%s: its reproducer passed", v.Kind, v.Pair[0], v.Pair[1]))
			continue
		}
		if s.Hit(v.Kind, v.Pair[0], v.Pair[1]) {
			if !r.Found || v.Elapsed < r.FDT {
				r.Found, r.FDT, r.Tests = true, v.Elapsed, v.TestsBefore+1
			}
			continue
		}
		p := sortedPair(v.Pair[0], v.Pair[1])
		o := Other{Kind: v.Kind, Pair: [2]string{p[0], p[1]}}
		if j := s.Judged(v.Kind, v.Pair[0], v.Pair[1]); j != nil {
			o.Judged, o.Real, o.Note = true, j.Real, j.Note
		}
		r.Others = append(r.Others, o)
	}
	return r
}

// A runKey names a run dimension: a scheduler and a pair selection.
type runKey struct{ sched, sel string }

// Runs holds the runs of a bench by subject name, scheduler, pair selection and
// seed (runs[name][sched][sel][seed-1]).
type Runs map[string]map[string]map[string][]Run

func (rs Runs) add(name string, k runKey, r Run) {
	if rs[name] == nil {
		rs[name] = make(map[string]map[string][]Run)
	}
	if rs[name][k.sched] == nil {
		rs[name][k.sched] = make(map[string][]Run)
	}
	rs[name][k.sched][k.sel] = append(rs[name][k.sched][k.sel], r)
}

// get returns the runs of a subject in one dimension, nil when there are
// none.
func (rs Runs) get(name string, k runKey) []Run { return rs[name][k.sched][k.sel] }

// byFind groups the subjects by the violations depcon test looks for in
// tested in (Subject.Find): exception, deadlock, then the controls.
func byFind(subjects []*Subject) [][]*Subject {
	order := []string{testgen.FindExceptions, testgen.FindDeadlocks, testgen.FindAll}
	var groups [][]*Subject
	for _, m := range order {
		var g []*Subject
		for _, s := range subjects {
			if s.Find() == m {
				g = append(g, s)
			}
		}
		if len(g) > 0 {
			groups = append(groups, g)
		}
	}
	return groups
}

// runSelection tests every subject once with one pair selection, one scheduler
// and one seed, through the driver's API, one driver run per kind of
// violations looked for (byFind), and returns the runs by subject name.
func runSelection(ctx context.Context, dir string, subjects []*Subject, k runKey, seed uint64, budget time.Duration, parallel int) (map[string]Run, error) {
	runs := make(map[string]Run)
	for _, group := range byFind(subjects) {
		var names []string
		for _, s := range group {
			names = append(names, regexp.QuoteMeta(s.Type))
		}
		cfg := driver.Config{
			Dir:      dir,
			Patterns: patterns(group),
			Budget:   budget,
			Find:     group[0].Find(),
			Pairs:    k.sel,
			Sched:    k.sched,
			Seed:     seed,
			Parallel: parallel,
			// The time to the bug is measured: a type's testing goes on
			// after other violations (listed, judged) until its bug.
			StopAt: func(pkg, typ string, v *report.Violation) bool {
				for _, s := range group {
					if s.Name == path.Base(pkg) && s.Type == typ {
						return s.Hit(v.Kind, v.Pair[0], v.Pair[1])
					}
				}
				return false
			},
			TypeRE: regexp.MustCompile("^(?:" + strings.Join(names, "|") + ")$"),
		}
		rep, err := driver.Run(ctx, cfg)
		if err != nil {
			return nil, err
		}
		reports := make(map[string]*report.TypeReport)
		for _, tr := range rep.Types {
			reports[path.Base(tr.Package)+"."+tr.Type] = tr
		}
		for _, s := range group {
			runs[s.Name] = runOf(s, reports[s.Name+"."+s.Type])
		}
	}
	return runs, nil
}

// runAll runs every scheduler and pair selection over seeds 1..seeds (seed by seed,
// so that an interrupted bench has all the dimensions of the first
// seeds) and returns the runs. It logs a line per seed, scheduler and
// pair selection.
func runAll(ctx context.Context, dir string, subjects []*Subject, scheds, sels []string, seeds int, budget time.Duration, parallel int, log io.Writer) (Runs, error) {
	all := make(Runs)
	for seed := 1; seed <= seeds; seed++ {
		for _, sched := range scheds {
			for _, sel := range sels {
				k := runKey{sched, sel}
				t0 := time.Now()
				runs, err := runSelection(ctx, dir, subjects, k, uint64(seed), budget, parallel)
				if err != nil {
					return nil, fmt.Errorf("scheduler %s, pairs %s, seed %d: %w", sched, sel, seed, err)
				}
				found, buggy, fa := 0, 0, 0
				for _, s := range subjects {
					r := runs[s.Name]
					all.add(s.Name, k, r)
					if !s.Control() {
						buggy++
					}
					if r.Found {
						found++
					}
					fa += r.FalseAlarms()
				}
				fmt.Fprintf(log, "depcon bench: seed %d/%d, scheduler %s, pairs %s: %d of %d bugs found, %d false alarms, in %v\n",
					seed, seeds, sched, sel, found, buggy, fa, time.Since(t0).Round(time.Second))
			}
		}
	}
	return all, nil
}

// compareOthers orders violations by pair, kind and judgement.
func compareOthers(a, b Other) int {
	return cmp.Or(cmp.Compare(a.Pair[0], b.Pair[0]), cmp.Compare(a.Pair[1], b.Pair[1]), cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Note, b.Note))
}
