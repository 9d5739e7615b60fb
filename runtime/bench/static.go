package bench

import (
	"fmt"
	"path"
	"time"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
)

// Static is the static phase of one subject: its plan and what it cost.
type Static struct {
	Plan *deps.TypePlan
	// Load is the time go/packages took to load and type-check the
	// subject's package and its dependencies; Analysis the time of
	// load.Plans on them (summaries of the package and its dependencies,
	// then the dependent pairs).
	Load, Analysis time.Duration
}

// staticPhase computes the plan of every subject of the corpus in dir,
// loading and analysing each package on its own so that the times are
// per subject, and checks the subjects against the plans. The packages
// are loaded once together first, so that no subject pays for warming
// the go command's caches.
func staticPhase(dir string, subjects []*Subject) (map[string]*Static, error) {
	if _, err := load.Packages(dir, patterns(subjects)); err != nil {
		return nil, err
	}
	out := make(map[string]*Static)
	plans := make(map[string]*deps.Plan)
	for _, s := range subjects {
		t0 := time.Now()
		pkgs, err := load.Packages(dir, patterns([]*Subject{s}))
		if err != nil {
			return nil, err
		}
		t1 := time.Now()
		byPath, _, err := load.Plans(pkgs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		st := &Static{Load: t1.Sub(t0), Analysis: time.Since(t1)}
		for p, plan := range byPath {
			if path.Base(p) == s.Name {
				plans[s.Name] = plan
				st.Plan = plan.Type(s.Type)
			}
		}
		out[s.Name] = st
	}
	if err := CheckPlans(subjects, plans); err != nil {
		return nil, err
	}
	return out, nil
}

// patterns returns the package patterns of subjects, relative to the
// corpus directory.
func patterns(subjects []*Subject) []string {
	var ps []string
	for _, s := range subjects {
		ps = append(ps, "./"+s.Name)
	}
	return ps
}
