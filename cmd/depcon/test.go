package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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

The files and the directory the flags -sarif, -write-baseline and -o
name are checked before the run: one that cannot be written fails the
command at once. One that fails to be written at the end does not keep
the others, nor the report, from being written.

-merge merges the JSON reports of the shards of a run (-shard K/N): a
shard given twice counts once, and a shard missing is named (both on
standard error, the report merged all the same).

Exit status: 0 when nothing was found; 1 when a violation was found
(also when some packages did not load or build: each is named on
standard error, and the others were tested); 2 on a usage error, when
the packages do not load or build and nothing was found, when no
isolation is available, or when an output (-sarif, -write-baseline, the
report) could not be written, violations or not; 130 or 143 when SIGINT
or SIGTERM ended the run (the report of what was found until then is
printed).

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
		testHidden.printDefaults(fs)
	}
	fs.DurationVar(&cfg.Budget, "budget", driver.DefaultBudget, "time budget per type")
	fs.IntVar(&cfg.Iters, "iters", driver.DefaultIters, "repetitions of each test, with fresh objects")
	fs.IntVar(&cfg.MaxLen, "maxlen", driver.DefaultMaxLen, "most state-changing calls in a prefix")
	fs.StringVar(&cfg.Find, "find", testgen.FindAll, "violations looked for: exception (races, panics), deadlock, or all")
	fs.StringVar(&cfg.Find, "mode", testgen.FindAll, testHidden["mode"])
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
	fs.Int64Var(&opt.memMiB, "max-memory", isolate.DefaultMemory>>20,
		fmt.Sprintf("memory bound of each child process tree, in MiB (at least %d)", minMemoryMiB))
	fs.IntVar(&cfg.Isolation.Tasks, "max-tasks", isolate.DefaultTasks,
		fmt.Sprintf("bound on the processes and threads of each child (at least %d)", minTasks))
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

// testHidden are the deprecated flags of depcon test.
var testHidden = hiddenFlags{"mode": "is deprecated: use -find"}

// The smallest bounds of -max-memory and -max-tasks depcon test accepts:
// below them a child, a race-enabled test binary, cannot start. Measured
// on the smallest package of the test data (testdata/runtime/queue, 2
// CPUs): with 16 MiB the child is killed at the memory bound before its
// first test, 24 MiB is enough; with 4 tasks no child starts, 8 is enough
// (the Go runtime's threads; more CPUs may need more). The bounds leave
// room for a package that allocates.
const (
	minMemoryMiB = 64
	minTasks     = 16
)

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
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	testHidden.warn(fs, stderr)
	cfg.NoReproduce = !opt.reproduce
	cfg.Isolation.Memory = opt.memMiB << 20
	cfg.Patterns = fs.Args()
	if len(cfg.Patterns) == 0 {
		fs.Usage()
		return exitError
	}
	if !opt.merge {
		if err := opt.configure(&cfg); err != nil {
			fmt.Fprintf(stderr, "depcon test: %v\n", err)
			return exitError
		}
	}
	var known *driver.Baseline
	if opt.baseline != "" {
		b, err := driver.ReadBaseline(opt.baseline)
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: -baseline: %v\n", err)
			return exitError
		}
		known = b
	}
	outs, err := opt.openOutputs(stdout)
	if err != nil {
		fmt.Fprintf(stderr, "depcon test: %v\n", err)
		return exitError
	}
	defer outs.abandon()
	if opt.merge {
		return testMerge(cfg.Patterns, &opt, outs, known, stdout, stderr)
	}
	if err := checkOutputDir("o", cfg.Out); err != nil {
		fmt.Fprintf(stderr, "depcon test: %v\n", err)
		return exitError
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
	caught := onSignal(ctx, cancel)
	rep, err := driver.Run(ctx, cfg)
	stopped := ""
	if ctx.Err() != nil {
		// Interrupted or out of time: the partial report is the result.
		stopped, err = context.Cause(ctx).Error(), nil
	}
	outputFailed := false
	if rep != nil {
		rep.Stopped = stopped
		outputFailed = !opt.finish(rep, known, outs, stdout, stderr)
	}
	if err != nil {
		// Without a report, nothing loaded; with one, the packages that
		// did not load or build are named and the others were tested.
		printErr(stderr, "depcon test", err)
	}
	if sig := caught(); sig != nil {
		fmt.Fprintf(stderr, "depcon test: %s\n", stopped)
		return signalStatus(sig)
	}
	if stopped != "" {
		fmt.Fprintf(stderr, "depcon test: %s\n", stopped)
	}
	if rep == nil { // nothing loaded, or stopped while the packages loaded
		return exitError
	}
	return status(rep.Violations(), err != nil, outputFailed)
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
	// Each flag that must be positive, named (driver.Config.Validate
	// names them together).
	switch {
	case cfg.Budget <= 0:
		return fmt.Errorf("-budget %v: want a positive duration", cfg.Budget)
	case cfg.Iters <= 0:
		return fmt.Errorf("-iters %d: want at least 1", cfg.Iters)
	case cfg.MaxLen <= 0:
		return fmt.Errorf("-maxlen %d: want at least 1", cfg.MaxLen)
	case cfg.Parallel <= 0:
		return fmt.Errorf("-p %d: want at least 1", cfg.Parallel)
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if opt.memMiB < minMemoryMiB {
		return fmt.Errorf("-max-memory %d: a race-enabled test binary needs more to start: want at least %d (MiB)",
			opt.memMiB, minMemoryMiB)
	}
	if cfg.Isolation.Tasks < minTasks {
		return fmt.Errorf("-max-tasks %d: a race-enabled test binary needs more threads to start: want at least %d",
			cfg.Isolation.Tasks, minTasks)
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

// testOutputs are the files depcon test writes, opened before the run.
type testOutputs struct {
	baseline, sarif *output
}

// openOutputs opens the files of -write-baseline and -sarif.
func (opt *testOptions) openOutputs(stdout io.Writer) (*testOutputs, error) {
	outs := &testOutputs{}
	var err error
	if outs.baseline, err = openOutput("write-baseline", opt.writeBaseline, stdout); err != nil {
		return nil, err
	}
	if outs.sarif, err = openOutput("sarif", opt.sarif, stdout); err != nil {
		outs.baseline.abandon()
		return nil, err
	}
	return outs, nil
}

// abandon closes the outputs not written (removing those it created).
func (outs *testOutputs) abandon() {
	outs.baseline.abandon()
	outs.sarif.abandon()
}

// finish applies the baseline known (when not nil) to a report, writes
// the baseline and the SARIF log the flags ask for, then the report. A
// failure is reported on stderr and does not keep the others from being
// written; finish reports whether all were.
func (opt *testOptions) finish(rep *driver.Report, known *driver.Baseline, outs *testOutputs, stdout, stderr io.Writer) bool {
	if known != nil {
		known.Apply(rep)
	}
	ok := true
	fail := func(err error) {
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: %v\n", err)
			ok = false
		}
	}
	fail(outs.baseline.write(func(w io.Writer) error {
		data, err := json.MarshalIndent(rep.Baseline(), "", "  ") // as driver.WriteBaseline
		if err == nil {
			_, err = w.Write(append(data, '\n'))
		}
		return err
	}))
	fail(outs.sarif.write(sarif.FromTestReport(rep, sarif.Options{}).Write))
	// -v logs the testing: a merge prints the plain text report.
	if err := writeReport(stdout, rep, opt.json, opt.verbose && !opt.merge); err != nil {
		fail(fmt.Errorf("writing the report: %w", err))
	}
	return ok
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
// files and prints the result. A shard given twice counts once, and the
// shards missing are named on stderr, and in the report's notes.
func testMerge(files []string, opt *testOptions, outs *testOutputs, known *driver.Baseline, stdout, stderr io.Writer) int {
	var reps []*driver.Report
	var shards []string
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: -merge: %v\n", err)
			return exitError
		}
		rep, err := driver.ReadJSON(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: -merge: %s: %v\n", name, err)
			return exitError
		}
		reps = append(reps, rep)
		shards = append(shards, rep.Shard)
	}
	keep, warnings := checkShards(files, shards)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "depcon test: -merge: %s\n", w)
	}
	var kept []*driver.Report
	for _, i := range keep {
		kept = append(kept, reps[i])
	}
	rep := driver.Merge(kept...)
	for _, w := range warnings {
		if strings.Contains(w, "missing") || strings.Contains(w, "different sizes") {
			rep.Notes = append(rep.Notes, "merge: "+w) // what the report lacks, in the report too
		}
	}
	if !opt.finish(rep, known, outs, stdout, stderr) {
		return exitError
	}
	return status(rep.Violations(), false, false)
}

// checkShards checks the shards ("K/N", "" for a whole run) of the
// reports in files: it returns the indexes of the reports to merge (the
// first of those of one shard, or of one file) and a warning for each
// shard given twice, each shard missing of N, and shards of different
// N.
func checkShards(files, shards []string) (keep []int, warnings []string) {
	first := map[string]int{}       // shard, or file of a whole run → index
	total := map[int]map[int]bool{} // N → Ks
	for i, sh := range shards {
		key := sh
		if key == "" {
			key = "file " + filepath.Clean(files[i])
		}
		if j, ok := first[key]; ok {
			what := "shard " + sh
			if sh == "" {
				what = "the report " + files[i]
			}
			warnings = append(warnings, fmt.Sprintf("%s given twice (%s and %s): counted once, from %s",
				what, files[j], files[i], files[j]))
			continue
		}
		first[key] = i
		keep = append(keep, i)
		var k, n int
		if _, err := fmt.Sscanf(sh, "%d/%d", &k, &n); err == nil && n >= 1 {
			if total[n] == nil {
				total[n] = map[int]bool{}
			}
			total[n][k] = true
		}
	}
	ns := slices.Sorted(maps.Keys(total))
	if len(ns) > 1 {
		var runs []string
		for _, n := range ns {
			runs = append(runs, fmt.Sprintf("of %d", n))
		}
		warnings = append(warnings, fmt.Sprintf("the reports are shards of runs of different sizes (%s)", strings.Join(runs, ", ")))
	}
	for _, n := range ns {
		var missing []string
		for k := 1; k <= n; k++ {
			if !total[n][k] {
				missing = append(missing, fmt.Sprintf("%d/%d", k, n))
			}
		}
		switch len(missing) {
		case 0:
		case 1:
			warnings = append(warnings, fmt.Sprintf("shard %s is missing: its types are not in the report", missing[0]))
		default:
			warnings = append(warnings, fmt.Sprintf("shards %s are missing: their types are not in the report", strings.Join(missing, ", ")))
		}
	}
	return keep, warnings
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
