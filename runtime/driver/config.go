package driver

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"time"

	"github.com/depcon/depcon/runtime/driver/internal/sched"
	"github.com/depcon/depcon/runtime/isolate"
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
	SchedTargeted = sched.Targeted
	// SchedPCT draws PCT priority schedules at the hooks.
	SchedPCT = sched.PCT
	// SchedStress releases the two goroutines together and lets the Go
	// scheduler interleave them (no hooks).
	SchedStress = sched.Stress
	// SchedAll runs the targeted orders first, then PCT, then stress.
	SchedAll = sched.All
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

// DefaultParallel is how many types are tested at once by default: two
// more than the CPUs Go uses. A type's testing leaves its CPU idle part
// of the time (a child that starts, a watchdog that waits, the
// linearizability oracle's pauses, a reproducer's build), and a
// scheduled test runs on one CPU: the types beyond one per CPU use the
// idle time.
func DefaultParallel() int { return runtime.GOMAXPROCS(0) + 2 }
