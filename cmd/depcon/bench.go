package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/bench"
	"github.com/depcon/depcon/runtime/testgen"
)

const benchUsage = `usage: depcon bench [-budget D] [-seeds N] [-json] [-pairs dependent,all,random]
       [-sched stress,pct,targeted,all] [-subjects a,b] DIR

Bench measures depcon on the corpus in DIR: one package per subdirectory,
described by DIR/truth.json. It computes each subject's plan (the static
phase) and times the build of its child, then runs depcon test on every
subject with each scheduler and each pair selection, with the seeds 1..N.
The pair selections are dependent (depcon's dependent pairs), all (every
pair, least covered first, as CovCon) and random (random pairs), the same
harness in each; depcon test looks for the kind of a subject's bug
(exceptions or deadlocks, -find), and for both in a control.

It prints per subject the pairs and their reduction, the cost of the
static phase and the build, the success rate, mean FDT (with and without
that cost) and #GT per scheduler and pair selection, and depcon's ratios over the
baselines; every violation other than the bug, judged or counted as a
false alarm; per control its dependent pairs and false alarms; the ratios'
geometric means and medians; and per scheduler its success rate and FDT
on the hard and the ordinary subjects and its slowdown against stress.
See the package documentation of runtime/bench for the exact definitions.

Exit status: 0 when the bench ran; 2 on a usage error, or when it could
not run (invalid truth, packages that do not load or build); 130 or 143
when SIGINT or SIGTERM ended it. A bench reports no findings: it never
exits 1.

Flags:
`

// benchOptions are the parsed arguments of depcon bench.
type benchOptions struct {
	bench.Options
	json bool
}

// benchMain runs depcon bench with args (the arguments after "bench") and
// returns the exit status.
func benchMain(args []string, stdout, stderr io.Writer) int {
	opt, err := parseBench(args, stderr)
	if err != nil {
		switch {
		case errors.Is(err, flag.ErrHelp):
			return 0
		case !errors.Is(err, errBenchUsage):
			fmt.Fprintf(stderr, "depcon bench: %v\n", err)
		}
		return 2
	}
	subjects, err := bench.LoadTruth(opt.Dir)
	if err != nil {
		fmt.Fprintf(stderr, "depcon bench: %v\n", err)
		return exitError
	}
	if subjects, err = bench.SelectSubjects(subjects, opt.Subjects); err != nil {
		fmt.Fprintf(stderr, "depcon bench: %v\n", err)
		return exitError
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	caught := onSignal(ctx, cancel)
	start := time.Now()
	rep, err := bench.Measure(ctx, opt.Options, subjects, stderr)
	if sig := caught(); sig != nil {
		fmt.Fprintf(stderr, "depcon bench: interrupted (%s)\n", signalName(sig))
		return signalStatus(sig)
	}
	if err != nil {
		fmt.Fprintf(stderr, "depcon bench: %v\n", err)
		return exitError
	}
	if opt.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "depcon bench: writing the results: %v\n", err)
			return exitError
		}
		return exitClean
	}
	rep.WriteHeader(stdout, opt.Options, start)
	rep.WriteText(stdout)
	return exitClean
}

// benchHidden are the deprecated flags of depcon bench.
var benchHidden = hiddenFlags{"modes": "is deprecated: use -pairs"}

// errBenchUsage is returned by parseBench when the usage was already
// printed.
var errBenchUsage = errors.New("usage")

// parseBench parses the arguments of depcon bench.
func parseBench(args []string, stderr io.Writer) (*benchOptions, error) {
	fs := flag.NewFlagSet("depcon bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, benchUsage)
		benchHidden.printDefaults(fs)
	}
	opt := &benchOptions{}
	var pairs, scheds, subjects string
	fs.DurationVar(&opt.Budget, "budget", 60*time.Second, "time budget of depcon test per type and run")
	fs.IntVar(&opt.Seeds, "seeds", 5, "run each scheduler and pair selection with the seeds 1..`N`")
	fs.BoolVar(&opt.json, "json", false, "print the results as JSON")
	allPairs := strings.Join([]string{testgen.PairsDependent, testgen.PairsAll, testgen.PairsRandom}, ",")
	fs.StringVar(&pairs, "pairs", allPairs, "comma-separated pair `selections` of depcon test, each a run dimension: dependent, all, random")
	fs.StringVar(&pairs, "modes", allPairs, benchHidden["modes"])
	fs.StringVar(&scheds, "sched", bench.SchedAll,
		"comma-separated `schedulers` of depcon test, each a run dimension: stress, pct, targeted, all")
	fs.StringVar(&subjects, "subjects", "", "comma-separated `names` of the subjects to run (default all)")
	fs.IntVar(&opt.Parallel, "p", 1, "subjects tested at once in a run (more share the CPUs: every scheduler and pair selection gets the same)")
	err := fs.Parse(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errBenchUsage
	}
	benchHidden.warn(fs, stderr)
	if fs.NArg() != 1 {
		fs.Usage()
		return nil, errBenchUsage
	}
	opt.Dir = fs.Arg(0)
	switch {
	case opt.Budget <= 0:
		return nil, fmt.Errorf("-budget %v: want a positive duration", opt.Budget)
	case opt.Seeds <= 0:
		return nil, fmt.Errorf("-seeds %d: want at least 1", opt.Seeds)
	case opt.Parallel <= 0:
		return nil, fmt.Errorf("-p %d: want at least 1", opt.Parallel)
	}
	if opt.Pairs, err = parseList("-pairs", pairs, testgen.PairsDependent, testgen.PairsAll, testgen.PairsRandom); err != nil {
		return nil, err
	}
	if opt.Scheds, err = parseList("-sched", scheds, bench.SchedStress, bench.SchedPCT, bench.SchedTargeted, bench.SchedAll); err != nil {
		return nil, err
	}
	if subjects != "" {
		opt.Subjects = strings.Split(subjects, ",")
	}
	return opt, nil
}

// parseList parses the comma-separated value of flag name, each element
// one of valid, none twice.
func parseList(name, value string, valid ...string) ([]string, error) {
	var out []string
	for _, v := range strings.Split(value, ",") {
		if !slices.Contains(valid, v) {
			return nil, fmt.Errorf("%s: unknown value %q: want %s", name, v, strings.Join(valid, ", "))
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("%s: %s listed twice", name, v)
		}
		out = append(out, v)
	}
	return out, nil
}
