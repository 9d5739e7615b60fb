package driver

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"sync/atomic"
	"syscall"

	"github.com/depcon/depcon/runtime/isolate"
	"github.com/depcon/depcon/runtime/testgen"
)

const usage = `usage: depcon test [flags] PACKAGES

Test generates concurrent tests for the dependent method pairs of the types
under test of PACKAGES (types holding a mutex, an atomic, a channel, ...,
or those -type selects) and stress-executes them with the race detector in
a child process, the package's test binary with a harness added through
go test -overlay: the packages' directories are never written.

It reports data races, panics and deadlocks that no sequential order of
the two calls reproduces, fatal errors (concurrent map writes), and calls
that never return when made alone (self-deadlocks), each with the static
evidence of the pair, the goroutines' stacks, and a reproducer test.

The code under test runs isolated (see docs/SECURITY.md): the filesystem
read-only but for a scratch directory, no network, bounded memory and
processes; where the kernel offers no isolation, test refuses to run
unless -unsafe-no-isolation is given.

Exit status: 0 when nothing was found, 1 when a violation was found, 2 on
a usage error, when the packages do not load or build, or when no
isolation is available; 130 or 143 when SIGINT or SIGTERM ended the run
(the report of what was found until then is printed).

Flags:
`

// Hooks are what the command adds to Main from packages that import this
// one.
type Hooks struct {
	// WriteSARIF writes the SARIF log of a report to a file; with it, Main
	// has a -sarif flag.
	WriteSARIF func(path string, rep *Report) error
}

// Main runs depcon test with args (the arguments after "test") and returns
// the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	return MainWith(args, stdout, stderr, Hooks{})
}

// MainWith is Main with hooks.
func MainWith(args []string, stdout, stderr io.Writer, hooks Hooks) int {
	fs := flag.NewFlagSet("depcon test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	var (
		cfg     Config
		typeRE  string
		verbose bool
		jsonOut bool
	)
	fs.DurationVar(&cfg.Budget, "budget", DefaultBudget, "time budget per type")
	fs.IntVar(&cfg.Iters, "iters", DefaultIters, "repetitions of each test, with fresh objects")
	fs.IntVar(&cfg.MaxLen, "maxlen", DefaultMaxLen, "most state-changing calls in a prefix")
	fs.StringVar(&cfg.Mode, "mode", testgen.ModeAll, "violations looked for: exception (races, panics), deadlock, or all")
	fs.StringVar(&cfg.Pairs, "pairs", testgen.PairsDependent,
		"method pairs tested: dependent (DepCon+), all (every pair, least covered first), or random")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the generation; a run is reproducible from it")
	fs.StringVar(&typeRE, "type", "", "test the types whose names match this regular expression")
	fs.StringVar(&cfg.Out, "o", "", "write a reproducer _test.go file for each violation to this directory")
	fs.BoolVar(&cfg.Unexported, "unexported", false,
		"test unexported types and methods too (the default in package main and internal packages)")
	fs.BoolVar(&cfg.First, "first", false, "stop testing a type at its first violation")
	fs.IntVar(&cfg.Parallel, "p", runtime.GOMAXPROCS(0), "types tested at once, each in its own child")
	shardFlag := fs.String("shard", "", "test only the K-th of N shares of the selected types (K/N), for CI jobs")
	merge := fs.Bool("merge", false, "merge the JSON reports named by the arguments (of shards) into one report")
	var sarifPath string
	if hooks.WriteSARIF != nil {
		fs.StringVar(&sarifPath, "sarif", "", "also write the report as a SARIF 2.1.0 log to this file (- for standard output)")
	}
	reproduce := fs.Bool("reproduce", true, "run each violation's reproducer in the package before reporting it")
	fs.StringVar(&cfg.Sched, "sched", SchedAll, "how the two calls of a test are interleaved: targeted (orders forced at the "+
		"pair's evidence), pct (random priority schedules), stress (the Go scheduler), or all (targeted first, then pct and stress)")
	fs.IntVar(&cfg.PCTDepth, "pct-depth", DefaultPCTDepth, "bug depth of the pct schedules: 1 to 3 (depth-1 priority changes)")
	fs.BoolVar(&cfg.Isolation.Net, "net", false, "let the code under test use the network (it has none by default)")
	fs.BoolVar(&cfg.Isolation.Unsafe, "unsafe-no-isolation", false,
		"run the code under test unconfined where the kernel offers no isolation (Landlock, namespaces): it may then "+
			"write, delete and connect anywhere the user can")
	memMiB := fs.Int64("max-memory", isolate.DefaultMemory>>20, "memory bound of each child process tree, in MiB")
	fs.IntVar(&cfg.Isolation.Tasks, "max-tasks", isolate.DefaultTasks, "bound on the processes and threads of each child")
	timeout := fs.Duration("timeout", 0, "bound on the whole run, reproducers and replays included (0: none); "+
		"the report then has what was found, and says what was left unconfirmed")
	baseline := fs.String("baseline", "", "report the violations this file lists as known: they do not fail the run")
	writeBaseline := fs.String("write-baseline", "", "write the violations found to this file, for -baseline")
	fs.BoolVar(&cfg.Strict, "strict", false, "count contract questions (races between methods neither of which "+
		"synchronises what they share) as violations")
	fs.BoolVar(&verbose, "v", false, "log skipped constructors and calls, and every decision")
	fs.BoolVar(&jsonOut, "json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg.NoReproduce = !*reproduce
	cfg.Isolation.Memory = *memMiB << 20
	cfg.Patterns = fs.Args()
	if len(cfg.Patterns) == 0 {
		fs.Usage()
		return 2
	}
	writeSARIF := func(rep *Report) bool {
		if sarifPath == "" {
			return true
		}
		if err := hooks.WriteSARIF(sarifPath, rep); err != nil {
			fmt.Fprintf(stderr, "depcon test: writing SARIF: %v\n", err)
			return false
		}
		return true
	}
	var known *Baseline
	if *baseline != "" {
		b, err := ReadBaseline(*baseline)
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: -baseline: %v\n", err)
			return 2
		}
		known = b
	}
	// finish applies the baseline to a report and writes the new one.
	finish := func(rep *Report) bool {
		if known != nil {
			known.Apply(rep)
		}
		if *writeBaseline != "" {
			if err := WriteBaseline(*writeBaseline, rep.Baseline()); err != nil {
				fmt.Fprintf(stderr, "depcon test: -write-baseline: %v\n", err)
				return false
			}
		}
		return writeSARIF(rep)
	}
	if *merge {
		return mergeMain(cfg.Patterns, jsonOut, stdout, stderr, finish)
	}
	if *shardFlag != "" {
		if _, err := fmt.Sscanf(*shardFlag, "%d/%d", &cfg.Shard, &cfg.Shards); err != nil ||
			cfg.Shards < 1 || cfg.Shard < 1 || cfg.Shard > cfg.Shards {
			fmt.Fprintf(stderr, "depcon test: -shard %q: want K/N with 1 <= K <= N\n", *shardFlag)
			return 2
		}
	}
	if err := checkFlags(&cfg, typeRE); err != nil {
		fmt.Fprintf(stderr, "depcon test: %v\n", err)
		return 2
	}
	if verbose {
		cfg.Verbose = stderr
	}
	if !jsonOut && cfg.Parallel == 1 && isTerminal(stderr) {
		cfg.Progress = stderr
	}
	if *timeout < 0 {
		fmt.Fprintf(stderr, "depcon test: -timeout %v: want a positive duration, or 0 for none\n", *timeout)
		return 2
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	if *timeout > 0 {
		var stopTimer context.CancelFunc
		ctx, stopTimer = context.WithTimeoutCause(ctx, *timeout, errTimeout)
		defer stopTimer()
	}
	// SIGINT and SIGTERM (as timeout(1) sends) end the run: the report of
	// what was found so far is printed, and the work directory removed.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var caught atomic.Value
	go func() {
		select {
		case sig := <-sigs:
			signal.Stop(sigs) // a second one ends the process at once
			caught.Store(sig)
			cancel(fmt.Errorf("interrupted by %v", sig))
		case <-ctx.Done():
		}
	}()
	rep, err := Run(ctx, cfg)
	stopped := ""
	if err != nil && ctx.Err() != nil {
		// Interrupted or out of time: the partial report is the result.
		stopped, err = context.Cause(ctx).Error(), nil
	}
	if rep != nil {
		rep.Stopped = stopped
		if !finish(rep) {
			return 2
		}
		if jsonOut {
			if err := rep.WriteJSON(stdout); err != nil {
				fmt.Fprintf(stderr, "depcon test: %v\n", err)
				return 2
			}
		} else if verbose {
			rep.WriteTextVerbose(stdout)
		} else {
			rep.WriteText(stdout)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "depcon test: %v\n", err)
		return 2
	}
	if sig, ok := caught.Load().(os.Signal); ok {
		fmt.Fprintf(stderr, "depcon test: %s\n", stopped)
		if sig == syscall.SIGTERM {
			return 128 + int(syscall.SIGTERM)
		}
		return 128 + int(syscall.SIGINT)
	}
	if stopped != "" {
		fmt.Fprintf(stderr, "depcon test: %s\n", stopped)
	}
	if rep.Violations() > 0 {
		return 1
	}
	return 0
}

// errTimeout is the cause of a run ended by -timeout.
var errTimeout = errors.New("stopped at -timeout: the types and reproducers not finished are reported as such")

// mergeMain merges the JSON reports in files and prints the result.
func mergeMain(files []string, jsonOut bool, stdout, stderr io.Writer, finish func(*Report) bool) int {
	var reps []*Report
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: %v\n", err)
			return 2
		}
		rep, err := ReadJSON(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: %s: %v\n", name, err)
			return 2
		}
		reps = append(reps, rep)
	}
	rep := Merge(reps...)
	if !finish(rep) {
		return 2
	}
	if jsonOut {
		if err := rep.WriteJSON(stdout); err != nil {
			fmt.Fprintf(stderr, "depcon test: %v\n", err)
			return 2
		}
	} else {
		rep.WriteText(stdout)
	}
	if rep.Violations() > 0 {
		return 1
	}
	return 0
}

// checkFlags validates the flags and compiles the -type expression.
func checkFlags(cfg *Config, typeRE string) error {
	switch cfg.Mode {
	case testgen.ModeException, testgen.ModeDeadlock, testgen.ModeAll:
	default:
		return fmt.Errorf("-mode %q: want exception, deadlock or all", cfg.Mode)
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
		return fmt.Errorf("-budget, -iters, -maxlen and -p must be positive")
	}
	if typeRE != "" {
		re, err := regexp.Compile(typeRE)
		if err != nil {
			return fmt.Errorf("-type: %w", err)
		}
		cfg.TypeRE = re
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
