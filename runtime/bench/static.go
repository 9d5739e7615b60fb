package bench

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/testgen"
)

// Static is the static phase of one subject (its plan and what it cost)
// and the cost of building its child.
type Static struct {
	Plan *deps.TypePlan
	// Load is the time go/packages took to load and type-check the
	// subject's package and its dependencies; Analysis the time of
	// load.Plans on them (summaries of the package and its dependencies,
	// then the dependent pairs).
	Load, Analysis time.Duration
	// Build is the time of building the subject's child (its package
	// with the harness added, a test binary built with the race
	// detector), as depcon test does before testing the type; 0 when it
	// was not measured.
	Build time.Duration
}

// staticPhase computes the plan of every subject of the corpus in dir,
// loading and analysing each package on its own so that the times are
// per subject, builds and times each subject's child, and checks the
// subjects against the plans (at least MinControls controls with
// dependent pairs are required of the whole corpus only). The packages
// are loaded, and the first child built, once first, so that no subject
// pays for warming the go command's caches.
func staticPhase(ctx context.Context, dir string, subjects []*Subject, whole bool) (map[string]*Static, error) {
	if _, err := load.Packages(dir, patterns(subjects)); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "depcon-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	out := make(map[string]*Static)
	plans := make(map[string]*deps.Plan)
	for i, s := range subjects {
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
		if st.Plan == nil || len(pkgs) != 1 {
			continue // CheckPlans reports it
		}
		if i == 0 { // warm the build cache (the race runtime, the harness)
			if _, err := buildChild(ctx, filepath.Join(work, "warm"), dir, pkgs[0], st.Plan); err != nil {
				return nil, fmt.Errorf("%s: %w", s.Name, err)
			}
		}
		if st.Build, err = buildChild(ctx, filepath.Join(work, s.Name), dir, pkgs[0], st.Plan); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	minControls := 0
	if whole {
		minControls = MinControls
	}
	if err := checkPlans(subjects, plans, minControls); err != nil {
		return nil, err
	}
	return out, nil
}

// buildChild builds the child testing type tp of pkg in work, the way
// depcon test does, and returns the time it took.
func buildChild(ctx context.Context, work, dir string, pkg *packages.Package, tp *deps.TypePlan) (time.Duration, error) {
	if err := os.MkdirAll(work, 0o755); err != nil {
		return 0, err
	}
	t0 := time.Now()
	s, err := testgen.NewSubject(pkg.Types, tp)
	if err != nil {
		return 0, err
	}
	target := child.Target{Dir: filepath.Dir(pkg.GoFiles[0]), Path: pkg.PkgPath, Module: child.ModuleOf(pkg.Module), From: dir}
	if _, err := child.Build(ctx, work, target, []*testgen.Subject{s}); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
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
