package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"
)

// Options are the settings of a bench (the flags of depcon bench).
type Options struct {
	Dir      string        // the corpus directory
	Budget   time.Duration // of depcon test per type and run
	Seeds    int           // each selection runs with the seeds 1..Seeds
	Pairs    []string      // pair selections: testgen.PairsDependent, testgen.PairsAll, testgen.PairsRandom
	Scheds   []string      // schedulers: SchedStress, SchedPCT, SchedTargeted, SchedAll
	Subjects []string      // names of the subjects run, nil for the whole corpus
	Parallel int           // types tested at once in a driver run
}

// Measure runs the bench opt describes on subjects, those of the corpus in
// opt.Dir that opt.Subjects selects (see LoadTruth and SelectSubjects):
// the static phase, then every scheduler and pair selection with each seed. It logs
// to log what the runs will take at most, then a line per seed, scheduler
// and pair selection, and returns the aggregated report. The whole corpus
// (opt.Subjects nil) must have MinControls controls with dependent pairs.
func Measure(ctx context.Context, opt Options, subjects []*Subject, log io.Writer) (*Report, error) {
	static, err := staticPhase(ctx, opt.Dir, subjects, opt.Subjects == nil)
	if err != nil {
		return nil, fmt.Errorf("static phase: %w", err)
	}
	n := len(subjects) * len(opt.Scheds) * len(opt.Pairs) * opt.Seeds
	fmt.Fprintf(log, "depcon bench: %d subjects, %d schedulers, %d pair selections, %d seeds, budget %v: at most %v of testing, plus loading and building\n",
		len(subjects), len(opt.Scheds), len(opt.Pairs), opt.Seeds, opt.Budget, time.Duration(n)*opt.Budget)
	runs, err := runAll(ctx, opt.Dir, subjects, opt.Scheds, opt.Pairs, opt.Seeds, opt.Budget, opt.Parallel, log)
	if err != nil {
		return nil, err
	}
	return aggregate(subjects, static, runs, opt.Scheds, opt.Pairs, opt.Seeds, opt.Budget), nil
}

// SelectSubjects returns the subjects named in names, all when names is
// nil; it fails when a name is not a subject's.
func SelectSubjects(subjects []*Subject, names []string) ([]*Subject, error) {
	if names == nil {
		return subjects, nil
	}
	var out []*Subject
	for _, s := range subjects {
		if slices.Contains(names, s.Name) {
			out = append(out, s)
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(out, func(s *Subject) bool { return s.Name == n }) {
			return nil, fmt.Errorf("-subjects: no subject %q in the corpus", n)
		}
	}
	return out, nil
}
