package bench

import (
	"context"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/driver"
)

// A Run is the outcome of testing one subject in one mode with one seed.
type Run struct {
	// Found is set when depcon test reported a violation of a kind the
	// subject allows on the subject's type.
	Found bool
	// FDT is the time in seconds from the start of the type's testing to
	// the first such violation; 0 when not found.
	FDT float64
	// Tests is the number of generated tests up to and including the one
	// that exposed the violation, or of all the tests run when none did.
	Tests int
	// FalseAlarms lists the violations of kinds the subject does not
	// allow (every violation, for a control), as "kind M1∥M2".
	FalseAlarms []string
	// Notes says why the type was not tested or some of its methods
	// were not: the driver's notes.
	Notes []string
}

// runOf returns the run of subject s described by tr, the driver's report
// of its type (nil when the driver did not report it).
func runOf(s *Subject, tr *driver.TypeReport) Run {
	if tr == nil {
		return Run{Notes: []string{"the driver did not report the type"}}
	}
	r := Run{Tests: tr.TestsGenerated, Notes: tr.Notes}
	if tr.Skipped != "" {
		r.Notes = append(r.Notes, "not tested: "+tr.Skipped)
	}
	for _, v := range tr.Violations {
		if v.Reproduced == driver.ReproNo {
			r.Notes = append(r.Notes, fmt.Sprintf("unconfirmed %s %s∥%s: its reproducer passed", v.Kind, v.Pair[0], v.Pair[1]))
			continue
		}
		if !s.Allowed(v.Kind) {
			r.FalseAlarms = append(r.FalseAlarms, fmt.Sprintf("%s %s∥%s", v.Kind, v.Pair[0], v.Pair[1]))
			continue
		}
		if !r.Found {
			r.Found, r.FDT, r.Tests = true, v.Elapsed, v.TestsBefore+1
		}
	}
	return r
}

// runMode tests every subject once in one mode (a driver pairs setting)
// with one seed, through the driver's API, and returns the runs by
// subject name.
func runMode(ctx context.Context, dir string, subjects []*Subject, mode string, seed uint64, budget time.Duration) (map[string]Run, error) {
	var names []string
	for _, s := range subjects {
		names = append(names, regexp.QuoteMeta(s.Type))
	}
	cfg := driver.Config{
		Dir:      dir,
		Patterns: patterns(subjects),
		Budget:   budget,
		Pairs:    mode,
		Seed:     seed,
		First:    true, // the time to the first violation is measured
		TypeRE:   regexp.MustCompile("^(?:" + strings.Join(names, "|") + ")$"),
	}
	rep, err := driver.Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	reports := make(map[string]*driver.TypeReport)
	for _, tr := range rep.Types {
		reports[path.Base(tr.Package)+"."+tr.Type] = tr
	}
	runs := make(map[string]Run)
	for _, s := range subjects {
		runs[s.Name] = runOf(s, reports[s.Name+"."+s.Type])
	}
	return runs, nil
}

// runAll runs every mode over seeds 1..seeds (seed by seed, so that an
// interrupted bench has all modes of the first seeds) and returns the
// runs by subject name, mode and seed. It logs a line per mode and seed.
func runAll(ctx context.Context, dir string, subjects []*Subject, modes []string, seeds int, budget time.Duration, log io.Writer) (map[string]map[string][]Run, error) {
	all := make(map[string]map[string][]Run)
	for _, s := range subjects {
		all[s.Name] = make(map[string][]Run)
	}
	for seed := 1; seed <= seeds; seed++ {
		for _, mode := range modes {
			t0 := time.Now()
			runs, err := runMode(ctx, dir, subjects, mode, uint64(seed), budget)
			if err != nil {
				return nil, fmt.Errorf("mode %s, seed %d: %w", mode, seed, err)
			}
			found, buggy := 0, 0
			for _, s := range subjects {
				r := runs[s.Name]
				all[s.Name][mode] = append(all[s.Name][mode], r)
				if !s.Control() {
					buggy++
				}
				if r.Found {
					found++
				}
			}
			fmt.Fprintf(log, "depcon bench: seed %d/%d, mode %s: %d of %d bugs found in %v\n",
				seed, seeds, mode, found, buggy, time.Since(t0).Round(time.Second))
		}
	}
	return all, nil
}
