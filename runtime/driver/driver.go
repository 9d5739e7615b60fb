// Package driver is the engine of depcon test, whose command (flags, exit
// statuses, signals) is in cmd/depcon: [Run] loads the packages, reads the
// plans of the deps analyzer, builds for each package one child (the
// package's test binary with the harness added through go test -overlay,
// compiled with -race, on a copy of the module when the package is in the
// module cache), and for each type under test generates concurrent tests
// for its dependent method pairs and runs them in the child until the
// type's budget is spent. Types are tested -p at a time.
//
// # Oracles
//
// Each is a kind of violation:
//
//   - race: the race detector's report (the child runs with
//     GORACE=halt_on_error=1, so the report ends the child);
//   - panic: a panic of a suffix call that neither sequential order of the
//     two calls, with the same prefix and arguments, reproduces;
//   - deadlock: the two calls still blocked in lock or channel waits after
//     an adaptive watchdog (max(200ms, 50 times the call's sequential run
//     time)), in the same states at two goroutine dumps, and not
//     reproduced sequentially;
//   - fatal: a fatal runtime error, or an exit, of the child during the
//     concurrent calls that no sequential order reproduces;
//   - self-deadlock: a call blocked in a lock wait when made alone, on a
//     fresh object or (for the plan's self pairs) after a prefix.
//
// Sequential orders run in fresh children. A violation is recorded once
// per kind, pair and location (later sightings count), and the pair's
// target is retired: testing goes on with the others (-first stops at
// the first). After the type's testing, the reproducer of each violation
// is built and run in the package (in a sandbox); a violation whose
// reproducer passes twice is unconfirmed: it is shown as such and does
// not count in the exit status.
//
// # Decisions
//
// Before testing a type, each constructor and then each method is called
// alone on a fresh object (a probe): constructors that fail three times
// are dropped (the zero value is used when none is left, and the report
// says so), methods are timed for the watchdog, a probe that panics or
// ends before the call is retried with other arguments, and methods that
// end the process or never return are kept out of the tests, those that
// block on a channel out of prefixes. A type whose every method panics on
// a fresh object is reported as not tested. Methods promoted from package
// sync (Lock, Unlock) are not tested, and methods whose documentation
// forbids concurrent calls are not tested concurrently (see testgen). The
// package's own test files are hidden from the child. A child that died,
// or may have goroutines left blocked, is replaced. A concurrent test stops
// iterating after max(1s, budget/30). Reproducers repeat the test ten
// times the -iters (a hundred times for a deadlock, whose window is
// narrow).
package driver

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/instrument"
	"github.com/depcon/depcon/runtime/isolate"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/testgen"
)

// Config configures Run.
type Config struct {
	Dir      string   // the directory patterns are relative to ("" for the current one)
	Patterns []string // package patterns
	Budget   time.Duration
	Iters    int    // repetitions of each test
	MaxLen   int    // most state-changing calls in a prefix
	Find     string // testgen.FindExceptions, FindDeadlocks or FindAll
	Pairs    string // testgen.PairsDependent, PairsAll or PairsRandom
	Seed     uint64
	// TypeRE selects the types to test by name; nil selects the types
	// that hold a synchronisation primitive.
	TypeRE  *regexp.Regexp
	Out     string    // directory the reproducers are written to, "" for none
	Verbose io.Writer // where -v messages go, nil for none
	// Progress, when set, receives the run's progress line, rewritten
	// in place: the types done of all, the violations so far, the time
	// elapsed and the most the budgets leave.
	Progress io.Writer
	// First stops a type's testing at its first violation (other than a
	// self-deadlock); by default the pairs not yet found faulty are
	// tested until the budget ends.
	First bool
	// Strict counts contract questions (report.Violation.Question) as
	// violations: they are not told apart.
	Strict bool
	// Parallel is how many types are tested at once (at least 1).
	Parallel int
	// Unexported makes unexported types and methods entry points of the
	// tests; it is on by default in package main only: in an internal
	// package too, unexported methods are helpers that may expect their
	// caller's locks, maintenance run by the type's own goroutine, or
	// test hooks.
	Unexported bool
	// Shard and Shards select the Shard-th of Shards shares of the
	// selected types (1 <= Shard <= Shards; Shards <= 1 for all).
	Shard, Shards int
	// NoReproduce skips running the reproducers: violations are then
	// reported with Reproduced == report.ReproNotRun.
	NoReproduce bool
	// StopAt, when set, ends a type's testing at a violation for which
	// it returns true (pkg is the package's import path); with First
	// false, the other violations found before are reported too.
	StopAt func(pkg, typ string, v *report.Violation) bool
	// stopAt is StopAt given the driver's record of the violation: the
	// tests change how it was found.
	stopAt func(pkg, typ string, v *finding) bool
	// Sched selects how the two goroutines of a test are interleaved:
	// SchedTargeted, SchedPCT, SchedStress or SchedAll (the default).
	Sched string
	// PCTDepth is the bug depth d of the PCT schedules (d-1 priority
	// change points), 1 to 3; 0 means DefaultPCTDepth.
	PCTDepth int
	// Isolation is the policy of the jail every process that runs the
	// packages' code runs in (see package isolate).
	Isolation isolate.Policy
	// Confirm tests only the types that have static diagnostics, and of
	// them only the pairs whose tests can confirm one (depcon vet
	// -confirm).
	Confirm bool
}

// Schedulers (Config.Sched, the -sched flag).
const (
	// SchedTargeted forces, at the hooks placed at a pair's evidence,
	// the orders that expose it (atomicity, order, lock inversion, RWR).
	SchedTargeted = "targeted"
	// SchedPCT draws PCT priority schedules at the hooks.
	SchedPCT = "pct"
	// SchedStress releases the two goroutines together and lets the Go
	// scheduler interleave them (no hooks).
	SchedStress = "stress"
	// SchedAll runs the targeted orders first, then PCT, then stress.
	SchedAll = "all"
	// DefaultPCTDepth is the default bug depth of the PCT schedules.
	DefaultPCTDepth = 3
)

// Defaults of the flags.
const (
	DefaultBudget = 30 * time.Second
	DefaultIters  = 100
	DefaultMaxLen = 10
)

func (cfg Config) withDefaults() Config {
	if cfg.Budget <= 0 {
		cfg.Budget = DefaultBudget
	}
	if cfg.Iters <= 0 {
		cfg.Iters = DefaultIters
	}
	if cfg.MaxLen <= 0 {
		cfg.MaxLen = DefaultMaxLen
	}
	if cfg.Find == "" {
		cfg.Find = testgen.FindAll
	}
	if cfg.Pairs == "" {
		cfg.Pairs = testgen.PairsDependent
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = 1
	}
	if cfg.Sched == "" {
		cfg.Sched = SchedAll
	}
	return cfg
}

// Validate reports the first setting of cfg that Run cannot use, in the
// terms of the flags of depcon test that set it: an unknown Find, Pairs or
// Sched, a PCTDepth outside 1 to 3, or a Budget, Iters, MaxLen or Parallel
// that is not positive. It checks the values as given: unlike Run, it does
// not read a zero as the default.
func (cfg Config) Validate() error {
	switch cfg.Find {
	case testgen.FindExceptions, testgen.FindDeadlocks, testgen.FindAll:
	default:
		return fmt.Errorf("-find %q: want exception, deadlock or all", cfg.Find)
	}
	switch cfg.Pairs {
	case testgen.PairsDependent, testgen.PairsAll, testgen.PairsRandom:
	default:
		return fmt.Errorf("-pairs %q: want dependent, all or random", cfg.Pairs)
	}
	switch cfg.Sched {
	case SchedTargeted, SchedPCT, SchedStress, SchedAll:
	default:
		return fmt.Errorf("-sched %q: want targeted, pct, stress or all", cfg.Sched)
	}
	if cfg.PCTDepth < 1 || cfg.PCTDepth > 3 {
		return fmt.Errorf("-pct-depth %d: want 1, 2 or 3", cfg.PCTDepth)
	}
	if cfg.Budget <= 0 || cfg.Iters <= 0 || cfg.MaxLen <= 0 || cfg.Parallel <= 0 {
		return errors.New("-budget, -iters, -maxlen and -p must be positive")
	}
	return nil
}

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
	// Types an interruption kept from running have empty slots.
	types = slices.DeleteFunc(types, func(t *typeResult) bool { return t.Type == "" })
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
	if p.bin, err = child.BuildWith(ctx, p.work, p.target, ps.subjects, rw); err != nil {
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
	// rewritten); noSched says why it could not be.
	sites   *instrument.Result
	noSched string
}

// DefaultParallel is how many types are tested at once by default: two
// more than the CPUs Go uses. A type's testing leaves its CPU idle part
// of the time (a child that starts, a watchdog that waits, the
// linearizability oracle's pauses, a reproducer's build), and a
// scheduled test runs on one CPU: on two CPUs, the README's main job
// took 114 s with two types at a time, 85 to 97 s with three, and 82
// and 86 s with four (84 s with five) at a91a904.
func DefaultParallel() int { return runtime.GOMAXPROCS(0) + 2 }

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

// confirming returns the view of tp restricted to the pairs whose tests
// can confirm one of diags (the methods stay: prefixes call them).
func confirming(tp *deps.TypePlan, diags []*load.Diagnostic) *deps.TypePlan {
	v := *tp
	v.Pairs = nil
	for _, p := range tp.Pairs {
		if slices.ContainsFunc(diags, func(d *load.Diagnostic) bool { return d.Concerns(p.M1, p.M2, p.Evidence) }) {
			v.Pairs = append(v.Pairs, p)
		}
	}
	return &v
}

// selectTypes returns the subjects of the types of plan that cfg selects,
// and reports for the selected types that cannot be tested. Without
// -type, the types meant for concurrent use are selected (Concurrent)
// that a user can obtain: the exported ones, and the unexported ones that
// an exported function or method returns, as themselves or behind an
// interface of any package (see returnedTypes and behindInterfaces), each
// with its exported methods; with -unexported (the default in package
// main), every type and its unexported methods too. Iterators are
// left out (see isIterator). A type that -type names is selected with
// all its methods. When only is not nil (Config.Confirm), the types it
// has diagnostics for are selected as if named, each with the pairs
// that can confirm them, and no other.
//
// hidden lists the unexported types with synchronisation left out for
// want of -unexported.
func selectTypes(pkg *packages.Package, plan *deps.Plan, cfg Config, only map[string][]*load.Diagnostic) (
	subjects []*testgen.Subject, skipped []*typeResult, hidden []string) {
	re := cfg.TypeRE
	unexported := cfg.Unexported || pkg.Name == "main"
	behind := behindInterfaces(pkg.Types)
	for name := range returnedTypes(pkg) {
		behind[name] = true
	}
	var facts *packageFacts // read once, for the first subject
	for _, tp := range plan.All {
		named := re != nil && re.MatchString(tp.Name)
		if only != nil && len(only[tp.Name]) == 0 {
			continue
		}
		wanted := named || only != nil // iterators are left out all the same
		switch {
		case re == nil && tp.NotShared != "" && tp.Exported:
			tr := newTypeReport(pkg.PkgPath, tp.ExportedOnly())
			tr.Skipped = fmt.Sprintf("meant for one goroutine at a time (%s); -type '^%s$' tests it",
				tp.NotShared, tp.Name)
			skipped = append(skipped, tr)
			continue
		case re != nil && !named, re == nil && !tp.Concurrent && !wanted:
			continue
		case !tp.Exported && !unexported && !wanted && !behind[tp.Name]:
			if tp.Concurrent && re == nil && only == nil && !isIterator(pkg.Types, tp.Name) {
				hidden = append(hidden, tp.Name)
			}
			continue
		case !named && tp.Exported && isIterator(pkg.Types, tp.Name):
			// One consumer at a time, by convention: sharing it is misuse.
			tr := newTypeReport(pkg.PkgPath, tp.ExportedOnly())
			tr.Skipped = fmt.Sprintf("an iterator (one consumer at a time); -type '^%s$' tests it",
				tp.Name)
			skipped = append(skipped, tr)
			continue
		case !named && isIterator(pkg.Types, tp.Name):
			continue
		}
		// Naming a type selects it; it does not make its unexported
		// methods, helpers that may expect their caller's locks, entry
		// points (-unexported does).
		view := tp
		if !unexported {
			view = tp.ExportedOnly()
		}
		if only != nil {
			view = confirming(view, only[tp.Name])
		}
		if len(view.Methods) == 0 {
			continue
		}
		s, err := testgen.NewSubject(pkg.Types, view)
		if err != nil {
			tr := newTypeReport(pkg.PkgPath, view)
			tr.Skipped = err.Error()
			skipped = append(skipped, tr)
			continue
		}
		if facts == nil {
			facts = readPackage(pkg)
		}
		facts.describe(pkg, s, tp.Name)
		subjects = append(subjects, s)
	}
	return subjects, skipped, hidden
}

// plural returns one when n is 1, many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// isIterator reports whether the type name of pkg is an iterator (like a
// bufio.Scanner, an sql.Rows or a cursor): a method Next, SetNext or
// HasNext without parameters returns a bool, or returns an element (a
// pointer, an interface, a struct, alone or with a bool or an error), or
// the type also has an accessor of the current element (Value, Item,
// Key, Current, Entry, Record, Row, Scan). An iterator has one consumer
// at a time; two goroutines advancing one are misusing it, whatever lock
// it holds. A Next returning a number alone (a sequence, an ID source)
// is no iterator.
func isIterator(pkg *types.Package, name string) bool {
	tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return false
	}
	mset := types.NewMethodSet(types.NewPointer(tn.Type()))
	accessor := false
	for _, m := range []string{"Value", "Item", "Key", "Current", "Entry", "Record", "Row", "Scan"} {
		accessor = accessor || mset.Lookup(pkg, m) != nil
	}
	for _, m := range []string{"Next", "SetNext", "HasNext"} {
		sel := mset.Lookup(pkg, m)
		if sel == nil {
			continue
		}
		sig := sel.Obj().Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() == 0 || sig.Results().Len() > 2 {
			continue
		}
		res := sig.Results()
		if res.Len() == 1 && types.Identical(res.At(0).Type(), types.Typ[types.Bool]) || accessor || isElement(res) {
			return true
		}
	}
	return false
}

// isElement reports whether the results of a Next are an element: a
// pointer, an interface or a struct, alone or with a bool or an error.
func isElement(res *types.Tuple) bool {
	switch res.At(0).Type().Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Struct:
	default:
		return false
	}
	if res.Len() == 1 {
		return true
	}
	second := res.At(1).Type()
	return types.Identical(second, types.Typ[types.Bool]) || types.Identical(second, types.Universe.Lookup("error").Type())
}

// behindInterfaces returns the unexported types of pkg that may be
// returned by an exported function of the package behind an interface
// the package declares (NewSet() Set returning a *threadSafeSet).
func behindInterfaces(pkg *types.Package) map[string]bool {
	scope := pkg.Scope()
	var ifaces []*types.Interface
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		res := fn.Type().(*types.Signature).Results()
		if res.Len() == 0 {
			continue
		}
		n, ok := res.At(0).Type().(*types.Named)
		if !ok || n.Obj().Pkg() != pkg {
			continue
		}
		if iface, ok := n.Underlying().(*types.Interface); ok && !iface.Empty() {
			ifaces = append(ifaces, iface)
		}
	}
	out := map[string]bool{}
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.Exported() || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		t := tn.Type()
		if n, ok := t.(*types.Named); ok && n.TypeParams().Len() > 0 {
			// Check the generic type's methods by name: instantiating it
			// against an instantiated interface is not needed here.
			t = n.Origin()
		}
		for _, iface := range ifaces {
			if implementsByName(t, iface) {
				out[name] = true
				break
			}
		}
	}
	return out
}

// returnedTypes returns the unexported named types of pkg that an
// exported function, or an exported method of an exported type (a
// builder's Build), returns: the static type of an expression of one of
// its return statements is the type or a pointer to it, whatever the
// declared result (NewFlusher() io.WriteCloser returning &flusher{}).
func returnedTypes(pkg *packages.Package) map[string]bool {
	out := map[string]bool{}
	if pkg.TypesInfo == nil {
		return out
	}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !fd.Name.IsExported() || !exportedRecv(fd) {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false // its returns are its own
				case *ast.ReturnStmt:
					for _, e := range n.Results {
						if tn := unexportedNamed(pkg.TypesInfo.TypeOf(e), pkg.Types); tn != "" {
							out[tn] = true
						}
					}
				}
				return true
			})
		}
	}
	return out
}

// exportedRecv reports whether fd is a function, or a method of an
// exported type.
func exportedRecv(fd *ast.FuncDecl) bool {
	return fd.Recv == nil || len(fd.Recv.List) == 0 || token.IsExported(load.ReceiverName(fd.Recv.List[0].Type))
}

// unexportedNamed returns the name of the unexported named type of pkg
// that t is, or points to; "" otherwise.
func unexportedNamed(t types.Type, pkg *types.Package) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != pkg || n.Obj().Exported() || types.IsInterface(n) {
		return ""
	}
	return n.Obj().Name()
}

// implementsByName reports whether *t has a method of every name of
// iface (generic types and interfaces are compared by method names).
func implementsByName(t types.Type, iface *types.Interface) bool {
	mset := types.NewMethodSet(types.NewPointer(t))
	for i := range iface.NumMethods() {
		m := iface.Method(i)
		if mset.Lookup(m.Pkg(), m.Name()) == nil {
			return false
		}
	}
	return true
}
