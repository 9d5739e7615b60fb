package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/driver/internal/instrument"
	"github.com/depcon/depcon/runtime/isolate"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/testgen"
	"golang.org/x/tools/go/packages"
)

// Run tests the types of the packages cfg names, cfg.Parallel types at
// a time. The packages that do not load are listed in the report
// (Report.NotLoaded) and the others tested; it fails when none loads or
// a child does not build, and a report is returned with the types
// tested so far.
func Run(ctx context.Context, cfg Config) (*report.Report, error) {
	cfg = cfg.withDefaults()
	if cfg.Verbose != nil {
		cfg.Verbose = &lockedWriter{w: cfg.Verbose} // types log concurrently
	}
	jail, err := isolate.New(cfg.Isolation)
	if err != nil {
		return nil, err
	}
	defer jail.Close()
	if cfg.Verbose != nil {
		fmt.Fprintf(cfg.Verbose, "isolation: %s\n", jail.Describe())
	}
	pkgs, failed, err := load.Partial(cfg.Dir, cfg.Patterns)
	var errs []error // the packages that do not load or build: reported, the others tested
	for _, f := range failed {
		errs = append(errs, f)
	}
	if err != nil {
		if len(failed) > 0 {
			return nil, errors.Join(errs...)
		}
		return nil, err
	}
	analysis, err := load.Analyze(pkgs)
	if err != nil {
		return nil, fmt.Errorf("computing the plans: %w", err)
	}
	plans := analysis.Plans
	work, err := newWorkDir()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	rep := &report.Report{Types: []*report.TypeReport{}, Isolation: jail.Describe(), NotLoaded: failed}
	var types []*typeResult // the types of rep, with how they were tested
	for _, err := range analysis.Errors {
		rep.Notes = append(rep.Notes, fmt.Sprintf("an analyzer failed, its diagnostics are missing: %v", err))
	}
	diags := map[string]map[string][]*load.Diagnostic{} // package → type → diagnostics
	for _, d := range analysis.Diagnostics {
		if diags[d.Package] == nil {
			diags[d.Package] = map[string][]*load.Diagnostic{}
		}
		diags[d.Package][d.Type] = append(diags[d.Package][d.Type], d)
	}
	slices.SortFunc(pkgs, func(a, b *packages.Package) int { return strings.Compare(a.PkgPath, b.PkgPath) })
	var selected []pkgSubjects
	for _, pkg := range pkgs {
		plan := plans[pkg.PkgPath]
		if plan == nil || len(pkg.GoFiles) == 0 {
			continue
		}
		var only map[string][]*load.Diagnostic
		if cfg.Confirm {
			only = diags[pkg.PkgPath]
			if only == nil {
				only = map[string][]*load.Diagnostic{}
			}
		}
		subjects, skipped, hidden := selectTypes(pkg, plan, cfg, only)
		types = append(types, skipped...)
		if len(hidden) > 0 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %s not tested: unexported, with synchronisation, and "+
				"returned by no exported function; -unexported tests %s", pkg.PkgPath, strings.Join(hidden, ", "),
				plural(len(hidden), "it", "them")))
		}
		selected = append(selected, pkgSubjects{pkg, subjects})
	}
	if cfg.Shards > 1 {
		selected = shard(selected, cfg.Shard, cfg.Shards)
		if cfg.Shard != 1 {
			types = types[:0] // the first shard reports the types that cannot be tested
		}
		rep.Shard = fmt.Sprintf("%d/%d", cfg.Shard, cfg.Shards)
	}
	// The report lists the types in the packages' order; they are built
	// and tested heaviest first (most dependent pairs), so that the last
	// ones to end are short.
	slots := make([][]*typeResult, len(selected))
	for i, ps := range selected {
		for range ps.subjects {
			slot := &typeResult{TypeReport: &report.TypeReport{}}
			slots[i] = append(slots[i], slot)
			types = append(types, slot)
		}
	}
	order := heaviestFirst(selected)
	// The packages are built one after the other, ahead of their
	// testing, while the types of those built before are tested: a
	// build does not wait for a free slot, nor a slot for a build.
	builds := make([]chan builtPkg, len(selected))
	for i := range builds {
		builds[i] = make(chan builtPkg, 1)
	}
	go func() {
		for _, i := range order {
			ps := selected[i]
			if len(ps.subjects) == 0 || ctx.Err() != nil {
				builds[i] <- builtPkg{}
				continue
			}
			p, err := buildPkg(ctx, cfg, jail, filepath.Join(work, fmt.Sprint(i)), ps)
			builds[i] <- builtPkg{p, err}
		}
	}()
	total := 0
	for _, ps := range selected {
		total += len(ps.subjects)
	}
	prog := newProgress(cfg.Progress, total, cfg)
	pool := newPool(cfg.Parallel)
	for _, i := range order {
		b := <-builds[i]
		if b.err != nil {
			errs = append(errs, b.err) // a package that does not build is reported; the others are tested
		}
		if b.p == nil || ctx.Err() != nil {
			continue
		}
		for j, s := range selected[i].subjects {
			slot := slots[i][j]
			pool.Go(ctx, func() { *slot = *testType(ctx, cfg, b.p, s, prog) })
		}
	}
	pool.Wait()
	prog.close()
	// Types an interruption kept from running have empty slots: they are
	// reported not tested, for that reason.
	for i, ps := range selected {
		for j, s := range ps.subjects {
			if slot := slots[i][j]; slot.Type == "" {
				*slot = *newTypeReport(s.Pkg.Path(), s.Plan)
				slot.Skipped, slot.Ended = "interrupted before its testing began", report.EndedInterrupted
			}
		}
	}
	rep.Types = append(rep.Types, typeReports(types)...)
	if ds := judgeDiagnostics(analysis.Diagnostics, plans, types); len(ds) > 0 {
		rep.Diagnostics = ds
	}
	rep.Reach = report.ReachOf(rep.Types)
	if len(errs) > 0 {
		return rep, errors.Join(errs...)
	}
	return rep, ctx.Err()
}

// heaviestFirst returns the indexes of selected, the packages with the
// most dependent pairs first (ties in their order).
func heaviestFirst(selected []pkgSubjects) []int {
	weight := func(ps pkgSubjects) int {
		n := 0
		for _, s := range ps.subjects {
			n += len(s.Plan.Pairs)
		}
		return n
	}
	order := make([]int, len(selected))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return weight(selected[b]) - weight(selected[a]) })
	return order
}

// A builtPkg is a package built for testing, or why it could not be.
type builtPkg struct {
	p   *pkgRun
	err error
}

// buildPkg builds the child of the package of ps in work, rewritten with
// scheduling hooks unless cfg says stress only.
func buildPkg(ctx context.Context, cfg Config, jail *isolate.Jail, work string, ps pkgSubjects) (*pkgRun, error) {
	pkg := ps.pkg
	p := &pkgRun{jail: jail, work: work, target: child.Target{
		Dir: filepath.Dir(pkg.GoFiles[0]), Path: pkg.PkgPath, Module: child.ModuleOf(pkg.Module), From: cfg.Dir}}
	if err := os.Mkdir(p.work, 0o755); err != nil {
		return nil, err
	}
	var rw child.Rewriter
	if cfg.Sched != SchedStress {
		rw = rewriter(pkg, ps.subjects, &p.sites)
	}
	var err error
	p.bin, err = child.BuildWith(ctx, p.work, p.target, ps.subjects, rw)
	var be *child.BuildError
	if errors.As(err, &be) && strings.Contains(be.Output, "zz_depcon_register") && dropStubs(ps.subjects) {
		// The stubs depcon declares did not compile with the package:
		// its tests go on without them.
		p.noStubs = fmt.Sprintf("interface parameters get no stubs: their declarations did not compile with the "+
			"package (%s)", buildReason(be))
		p.bin, err = child.BuildWith(ctx, p.work, p.target, ps.subjects, rw)
	}
	if err != nil {
		return nil, err
	}
	p.bin.Jail = jail
	if !p.bin.Rewritten {
		p.sites = nil
		if p.bin.RewriteErr != nil {
			p.noSched = fmt.Sprintf("the package could not be rewritten with scheduling hooks, so every test is "+
				"a stress test: %v", buildReason(p.bin.RewriteErr))
		}
	}
	return p, nil
}

// dropStubs drops the stubs of subjects, and reports whether any had one.
func dropStubs(subjects []*testgen.Subject) bool {
	had := false
	for _, s := range subjects {
		had = s.DropStubs() || had
	}
	return had
}

// pkgSubjects are the types selected in a package.
type pkgSubjects struct {
	pkg      *packages.Package
	subjects []*testgen.Subject
}

// A pkgRun is what the types of one package share: the child binary,
// the package it was built from, and a work directory.
type pkgRun struct {
	bin    *child.Binary
	jail   *isolate.Jail // where the child and the reproducers run
	target child.Target
	work   string
	// sites are the hooks placed in the package (nil when it was not
	// rewritten); noSched says why it could not be, noStubs why the
	// subjects have no stubs (see testgen.Subject.DropStubs).
	sites   *instrument.Result
	noSched string
	noStubs string
}

// A pool runs functions, at most n at a time.
type pool struct {
	sem chan struct{}
	wg  sync.WaitGroup
}

func newPool(n int) *pool { return &pool{sem: make(chan struct{}, max(n, 1))} }

// Go runs f when a slot is free, unless ctx is done first.
func (p *pool) Go(ctx context.Context, f func()) {
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return
	}
	p.wg.Add(1)
	go func() {
		defer func() { <-p.sem; p.wg.Done() }()
		f()
	}()
}

// Wait waits for the functions started.
func (p *pool) Wait() { p.wg.Wait() }

// A lockedWriter serialises the writes of concurrent types.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// plural returns one when n is 1, many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
