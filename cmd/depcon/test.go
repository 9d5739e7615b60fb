package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/driver"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/sarif"
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
	config        *driver.TestFlags // the flags that set the driver.Config
	merge         bool
	sarif         string
	timeout       time.Duration
	baseline      string
	writeBaseline string
	verbose       bool
	progress      bool
	json          bool
}

// testFlags returns the flag set of depcon test, which sets cfg and opt.
func testFlags(stderr io.Writer, opt *testOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("depcon test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, testUsage)
		testHidden.printDefaults(fs)
	}
	opt.config = driver.AddTestFlags(fs)
	fs.BoolVar(&opt.merge, "merge", false, "merge the JSON reports named by the arguments (of shards) into one report")
	fs.StringVar(&opt.sarif, "sarif", "", "also write the report as a SARIF 2.1.0 log to this file (- for standard output)")
	fs.DurationVar(&opt.timeout, "timeout", 0, "bound on the whole run, reproducers and replays included (0: none); "+
		"the report then has what was found, and says what was left unconfirmed")
	fs.StringVar(&opt.baseline, "baseline", "", "report the violations this file lists as known: they do not fail the run")
	fs.StringVar(&opt.writeBaseline, "write-baseline", "", "write the violations found to this file, for -baseline")
	fs.BoolVar(&opt.verbose, "v", false, "log skipped constructors and calls, and every decision")
	fs.BoolVar(&opt.progress, "progress", false, "show a progress line on standard error (the default when it is "+
		"a terminal, without -json and -v)")
	fs.BoolVar(&opt.json, "json", false, "print the report as JSON")
	return fs
}

// testHidden are the deprecated flags of depcon test.
var testHidden = hiddenFlags(driver.HiddenTestFlags())

// errTimeout is the cause of a run ended by -timeout.
var errTimeout = errors.New("stopped at -timeout: the types and reproducers not finished are reported as such")

// testMain runs depcon test with args (the arguments after "test") and
// returns the exit status.
func testMain(args []string, stdout, stderr io.Writer) int {
	var opt testOptions
	fs := testFlags(stderr, &opt)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	testHidden.warn(fs, stderr)
	if opt.merge && fs.NArg() == 0 {
		fs.Usage()
		return exitError
	}
	patterns := packageArgs(fs)
	var cfg driver.Config
	if !opt.merge {
		var err error
		cfg, err = opt.config.Config(patterns)
		if err == nil && opt.timeout < 0 {
			err = fmt.Errorf("-timeout %v: want a positive duration, or 0 for none", opt.timeout)
		}
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: %v\n", err)
			return exitError
		}
	}
	var known *report.Baseline
	if opt.baseline != "" {
		b, err := report.ReadBaseline(opt.baseline)
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
		return testMerge(patterns, &opt, outs, known, stdout, stderr)
	}
	if err := checkOutputDir("o", cfg.Out); err != nil {
		fmt.Fprintf(stderr, "depcon test: %v\n", err)
		return exitError
	}
	if opt.verbose {
		cfg.Verbose = stderr
	}
	if opt.progress || !opt.json && !opt.verbose && isTerminal(stderr) {
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
func (opt *testOptions) finish(rep *report.Report, known *report.Baseline, outs *testOutputs, stdout, stderr io.Writer) bool {
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
		data, err := json.MarshalIndent(rep.Baseline(), "", "  ") // as report.WriteBaseline
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
func writeReport(w io.Writer, rep *report.Report, jsonOut, verbose bool) error {
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
func testMerge(files []string, opt *testOptions, outs *testOutputs, known *report.Baseline, stdout, stderr io.Writer) int {
	var reps []*report.Report
	var shards []string
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: -merge: %v\n", err)
			return exitError
		}
		rep, err := report.ReadJSON(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "depcon test: -merge: %s: %v\n", name, err)
			return exitError
		}
		reps = append(reps, rep)
		shards = append(shards, rep.Shard)
	}
	keep, warnings := report.CheckShards(files, shards)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "depcon test: -merge: %s\n", w)
	}
	var kept []*report.Report
	for _, i := range keep {
		kept = append(kept, reps[i])
	}
	rep := report.Merge(kept...)
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

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
