package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/depcon/depcon/runtime/driver"
	"github.com/depcon/depcon/runtime/isolate"
	"github.com/depcon/depcon/runtime/sarif"
	"github.com/depcon/depcon/runtime/testgen"
)

const testUsage = `usage: depcon test [flags] PACKAGES

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

// testOptions are the flags of depcon test that are not settings of
// driver.Config.
type testOptions struct {
	typeRE        string
	shard         string
	merge         bool
	sarif         string
	reproduce     bool
	memMiB        int64
	timeout       time.Duration
	baseline      string
	writeBaseline string
	verbose       bool
	json          bool
}

// testFlags returns the flag set of depcon test, which sets cfg and opt.
func testFlags(stderr io.Writer, cfg *driver.Config, opt *testOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("depcon test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, testUsage)
		fs.PrintDefaults()
	}
	fs.DurationVar(&cfg.Budget, "budget", driver.DefaultBudget, "time budget per type")
	fs.IntVar(&cfg.Iters, "iters", driver.DefaultIters, "repetitions of each test, with fresh objects")
	fs.IntVar(&cfg.MaxLen, "maxlen", driver.DefaultMaxLen, "most state-changing calls in a prefix")
	fs.StringVar(&cfg.Find, "find", testgen.FindAll, "violations looked for: exception (races, panics), deadlock, or all")
	fs.StringVar(&cfg.Find, "mode", testgen.FindAll, "the former name of -find")
	fs.StringVar(&cfg.Pairs, "pairs", testgen.PairsDependent,
		"method pairs tested: dependent (DepCon+), all (every pair, least covered first), or random")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the generation; a run is reproducible from it")
	fs.StringVar(&opt.typeRE, "type", "", "test the types whose names match this regular expression")
	fs.StringVar(&cfg.Out, "o", "", "write a reproducer _test.go file for each violation to this directory")
	fs.BoolVar(&cfg.Unexported, "unexported", false,
		"test unexported types and methods too (the default in package main and internal packages)")
	fs.BoolVar(&cfg.First, "first", false, "stop testing a type at its first violation")
	fs.IntVar(&cfg.Parallel, "p", driver.DefaultParallel(), "types tested at once, each in its own child")
	fs.StringVar(&opt.shard, "shard", "", "test only the K-th of N shares of the selected types (K/N), for CI jobs")
	fs.BoolVar(&opt.merge, "merge", false, "merge the JSON reports named by the arguments (of shards) into one report")
	fs.StringVar(&opt.sarif, "sarif", "", "also write the report as a SARIF 2.1.0 log to this file (- for standard output)")
	fs.BoolVar(&opt.reproduce, "reproduce", true, "run each violation's reproducer in the package before reporting it")
	fs.StringVar(&cfg.Sched, "sched", driver.SchedAll, "how the two calls of a test are interleaved: targeted (orders forced at the "+
		"pair's evidence), pct (random priority schedules), stress (the Go scheduler), or all (targeted first, then pct and stress)")
	fs.IntVar(&cfg.PCTDepth, "pct-depth", driver.DefaultPCTDepth, "bug depth of the pct schedules: 1 to 3 (depth-1 priority changes)")
	fs.BoolVar(&cfg.Isolation.Net, "net", false, "let the code under test use the network (it has none by default)")
	fs.BoolVar(&cfg.Isolation.Unsafe, "unsafe-no-isolation", false,
		"run the code under test unconfined where the kernel offers no isolation (Landlock, namespaces): it may then "+
			"write, delete and connect anywhere the user can")
	fs.Int64Var(&opt.memMiB, "max-memory", isolate.DefaultMemory>>20, "memory bound of each child process tree, in MiB")
	fs.IntVar(&cfg.Isolation.Tasks, "max-tasks", isolate.DefaultTasks, "bound on the processes and threads of each child")
	fs.DurationVar(&opt.timeout, "timeout", 0, "bound on the whole run, reproducers and replays included (0: none); "+
		"the report then has what was found, and says what was left unconfirmed")
	fs.StringVar(&opt.baseline, "baseline", "", "report the violations this file lists as known: they do not fail the run")
	fs.StringVar(&opt.writeBaseline, "write-baseline", "", "write the violations found to this file, for -baseline")
	fs.BoolVar(&cfg.Strict, "strict", false, "count contract questions (races between methods neither of which "+
		"synchronises what they share) as violations")
	fs.BoolVar(&opt.verbose, "v", false, "log skipped constructors and calls, and every decision")
	fs.BoolVar(&opt.json, "json", false, "print the report as JSON")
	return fs
}

// errTimeout is the cause of a run ended by -timeout.
var errTimeout = errors.New("stopped at -timeout: the types and reproducers not finished are reported as such")

// testMain runs depcon test with args (the arguments after "test") and
// returns the exit status.
func testMain(args []string, stdout, stderr io.Writer) int {
	var (
		cfg driver.Config
		opt testOptions
	)
	fs := testFlags(stderr, &cfg, &opt)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg.NoReproduce = !opt.reproduce
	cfg.Isolation.Memory = opt.memMiB << 20
	cfg.Patterns = fs.Args()
	if len(cfg.Patterns) == 0 {
		fs.Usage()
		return 2
	}
	var known *driver.Baseline
	if opt.baseline != "" {
		b, err := driver.ReadBaseline(opt.baseline)
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: -baseline: %v\n", err)
			return 2
		}
		known = b
	}
	if opt.merge {
		return testMerge(cfg.Patterns, &opt, known, stdout, stderr)
	}
	if err := opt.configure(&cfg); err != nil {
		fmt.Fprintf(stderr, "depcon test: %v\n", err)
		return 2
	}
	if opt.verbose {
		cfg.Verbose = stderr
	}
	if !opt.json && cfg.Parallel == 1 && isTerminal(stderr) {
		cfg.Progress = stderr
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	if opt.timeout > 0 {
		var stopTimer context.CancelFunc
		ctx, stopTimer = context.WithTimeoutCause(ctx, opt.timeout, errTimeout)
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
	rep, err := driver.Run(ctx, cfg)
	stopped := ""
	if err != nil && ctx.Err() != nil {
		// Interrupted or out of time: the partial report is the result.
		stopped, err = context.Cause(ctx).Error(), nil
	}
	if rep != nil {
		rep.Stopped = stopped
		if err := opt.finish(rep, known); err != nil {
			fmt.Fprintf(stderr, "depcon test: %v\n", err)
			return 2
		}
		if err := writeReport(stdout, rep, opt.json, opt.verbose); err != nil {
			fmt.Fprintf(stderr, "depcon test: %v\n", err)
			return 2
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
	if rep != nil && rep.Violations() > 0 { // nil when stopped while the packages loaded
		return 1
	}
	return 0
}

// configure checks the flags that set cfg, in the order depcon test
// reports them, and sets from them what the flag set could not.
func (opt *testOptions) configure(cfg *driver.Config) error {
	if opt.shard != "" {
		if _, err := fmt.Sscanf(opt.shard, "%d/%d", &cfg.Shard, &cfg.Shards); err != nil ||
			cfg.Shards < 1 || cfg.Shard < 1 || cfg.Shard > cfg.Shards {
			return fmt.Errorf("-shard %q: want K/N with 1 <= K <= N", opt.shard)
		}
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if opt.typeRE != "" {
		re, err := regexp.Compile(opt.typeRE)
		if err != nil {
			return fmt.Errorf("-type: %w", err)
		}
		cfg.TypeRE = re
	}
	if opt.timeout < 0 {
		return fmt.Errorf("-timeout %v: want a positive duration, or 0 for none", opt.timeout)
	}
	return nil
}

// finish applies the baseline known (when not nil) to a report, and
// writes the baseline and the SARIF log the flags ask for.
func (opt *testOptions) finish(rep *driver.Report, known *driver.Baseline) error {
	if known != nil {
		known.Apply(rep)
	}
	if opt.writeBaseline != "" {
		if err := driver.WriteBaseline(opt.writeBaseline, rep.Baseline()); err != nil {
			return fmt.Errorf("-write-baseline: %w", err)
		}
	}
	if opt.sarif != "" {
		if err := sarif.WriteTestSARIF(opt.sarif, rep); err != nil {
			return fmt.Errorf("writing SARIF: %w", err)
		}
	}
	return nil
}

// writeReport prints a report as JSON, or as text, verbose or not.
func writeReport(w io.Writer, rep *driver.Report, jsonOut, verbose bool) error {
	switch {
	case jsonOut:
		return rep.WriteJSON(w)
	case verbose:
		rep.WriteTextVerbose(w)
	default:
		rep.WriteText(w)
	}
	return nil
}

// testMerge implements depcon test -merge: it merges the JSON reports in
// files and prints the result.
func testMerge(files []string, opt *testOptions, known *driver.Baseline, stdout, stderr io.Writer) int {
	var reps []*driver.Report
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: %v\n", err)
			return 2
		}
		rep, err := driver.ReadJSON(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: %s: %v\n", name, err)
			return 2
		}
		reps = append(reps, rep)
	}
	rep := driver.Merge(reps...)
	if err := opt.finish(rep, known); err != nil {
		fmt.Fprintf(stderr, "depcon test: %v\n", err)
		return 2
	}
	// -v logs the testing: a merge prints the plain text report.
	if err := writeReport(stdout, rep, opt.json, false); err != nil {
		fmt.Fprintf(stderr, "depcon test: %v\n", err)
		return 2
	}
	if rep.Violations() > 0 {
		return 1
	}
	return 0
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
