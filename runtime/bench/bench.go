package bench

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"
)

const usage = `usage: depcon bench [-budget D] [-seeds N] [-json] [-modes dependent,all,random] [-subjects a,b] DIR

Bench measures depcon on the corpus in DIR: one package per subdirectory,
described by DIR/truth.json. It computes each subject's plan (the static
phase), then runs depcon test on every subject in each mode with the seeds
1..N: dependent (depcon's dependent pairs), all (every pair, least covered
first, as CovCon) and random (random pairs), the same harness in each.

It prints per subject the pairs and their reduction, the success rate,
mean FDT and #GT per mode and depcon's ratios over the baselines; per
control the false alarms; and the averages. See the package
documentation of runtime/bench for the exact definitions.

Exit status: 0 when the bench ran, 1 when it could not (invalid truth,
packages that do not load or build), 2 on a usage error.

Flags:
`

// options are the flags of depcon bench.
type options struct {
	dir      string
	budget   time.Duration
	seeds    int
	json     bool
	modes    []string
	subjects []string // nil for all
}

// Main runs depcon bench with args (the arguments after "bench") and
// returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	opt, err := parseFlags(args, stderr)
	if err != nil {
		switch {
		case errors.Is(err, flag.ErrHelp):
			return 0
		case !errors.Is(err, errUsage):
			fmt.Fprintf(stderr, "depcon bench: %v\n", err)
		}
		return 2
	}
	subjects, err := LoadTruth(opt.dir)
	if err != nil {
		fmt.Fprintf(stderr, "depcon bench: %v\n", err)
		return 1
	}
	if subjects, err = selectSubjects(subjects, opt.subjects); err != nil {
		fmt.Fprintf(stderr, "depcon bench: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	static, err := staticPhase(opt.dir, subjects)
	if err != nil {
		fmt.Fprintf(stderr, "depcon bench: static phase: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "depcon bench: %d subjects, %d modes, %d seeds, budget %v: at most %v of testing, plus loading and building\n",
		len(subjects), len(opt.modes), opt.seeds, opt.budget, time.Duration(len(subjects)*len(opt.modes)*opt.seeds)*opt.budget)
	runs, err := runAll(ctx, opt.dir, subjects, opt.modes, opt.seeds, opt.budget, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "depcon bench: %v\n", err)
		return 1
	}
	rep := aggregate(subjects, static, runs, opt.modes, opt.seeds, opt.budget)
	if opt.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "depcon bench: %v\n", err)
			return 1
		}
		return 0
	}
	buggy, controls := rep.split()
	fmt.Fprintf(stdout, "depcon bench %s: %d buggy subjects, %d controls; modes %s; seeds 1..%d; budget %v per type and run\n",
		opt.dir, len(buggy), len(controls), strings.Join(opt.modes, ", "), opt.seeds, opt.budget)
	fmt.Fprintf(stdout, "machine: %s; started %s, took %v; load average (1, 5, 15 min) at the end: %s\n\n",
		machine(), start.Format(time.RFC3339), time.Since(start).Round(time.Second), loadAverage())
	rep.WriteText(stdout)
	return 0
}

// errUsage is returned by parseFlags when the usage was already printed.
var errUsage = errors.New("usage")

// parseFlags parses the arguments of depcon bench.
func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("depcon bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	opt := &options{}
	var modes, subjects string
	fs.DurationVar(&opt.budget, "budget", 60*time.Second, "time budget of depcon test per type and run")
	fs.IntVar(&opt.seeds, "seeds", 5, "run each mode with the seeds 1..`N`")
	fs.BoolVar(&opt.json, "json", false, "print the results as JSON")
	fs.StringVar(&modes, "modes", strings.Join([]string{ModeDependent, ModeAll, ModeRandom}, ","),
		"comma-separated modes: dependent, all, random")
	fs.StringVar(&subjects, "subjects", "", "comma-separated `names` of the subjects to run (default all)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return nil, errUsage
	}
	opt.dir = fs.Arg(0)
	if opt.budget <= 0 || opt.seeds <= 0 {
		return nil, errors.New("-budget and -seeds must be positive")
	}
	for _, m := range strings.Split(modes, ",") {
		if m != ModeDependent && m != ModeAll && m != ModeRandom {
			return nil, fmt.Errorf("-modes: unknown mode %q: want dependent, all or random", m)
		}
		if slices.Contains(opt.modes, m) {
			return nil, fmt.Errorf("-modes: %s listed twice", m)
		}
		opt.modes = append(opt.modes, m)
	}
	if subjects != "" {
		opt.subjects = strings.Split(subjects, ",")
	}
	return opt, nil
}

// selectSubjects returns the subjects named in names, all when names is nil.
func selectSubjects(subjects []*Subject, names []string) ([]*Subject, error) {
	if names == nil {
		return subjects, nil
	}
	var out []*Subject
	for _, s := range subjects {
		if slices.Contains(names, s.Name) {
			out = append(out, s)
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(out, func(s *Subject) bool { return s.Name == n }) {
			return nil, fmt.Errorf("-subjects: no subject %q in the corpus", n)
		}
	}
	return out, nil
}
