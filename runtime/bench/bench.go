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

const usage = `usage: depcon bench [-budget D] [-seeds N] [-json] [-modes dependent,all,random]
       [-sched stress,pct,targeted,all] [-subjects a,b] DIR

Bench measures depcon on the corpus in DIR: one package per subdirectory,
described by DIR/truth.json. It computes each subject's plan (the static
phase) and times the build of its child, then runs depcon test on every
subject with each scheduler, in each mode, with the seeds 1..N. The modes
are the pair selections: dependent (depcon's dependent pairs), all (every
pair, least covered first, as CovCon) and random (random pairs), the same
harness in each; a subject is tested in the mode of depcon test of its bug
(exception or deadlock), a control in both.

It prints per subject the pairs and their reduction, the cost of the
static phase and the build, the success rate, mean FDT (with and without
that cost) and #GT per scheduler and mode, and depcon's ratios over the
baselines; every violation other than the bug, judged or counted as a
false alarm; per control its dependent pairs and false alarms; the ratios'
geometric means and medians; and per scheduler its success rate and FDT
on the hard and the ordinary subjects and its slowdown against stress.
See the package documentation of runtime/bench for the exact definitions.

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
	scheds   []string
	subjects []string // nil for all
	parallel int      // types tested at once in a driver run
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
	static, err := staticPhase(ctx, opt.dir, subjects, opt.subjects == nil)
	if err != nil {
		fmt.Fprintf(stderr, "depcon bench: static phase: %v\n", err)
		return 1
	}
	n := len(subjects) * len(opt.scheds) * len(opt.modes) * opt.seeds
	fmt.Fprintf(stderr, "depcon bench: %d subjects, %d schedulers, %d modes, %d seeds, budget %v: at most %v of testing, plus loading and building\n",
		len(subjects), len(opt.scheds), len(opt.modes), opt.seeds, opt.budget, time.Duration(n)*opt.budget)
	runs, err := runAll(ctx, opt.dir, subjects, opt.scheds, opt.modes, opt.seeds, opt.budget, opt.parallel, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "depcon bench: %v\n", err)
		return 1
	}
	rep := aggregate(subjects, static, runs, opt.scheds, opt.modes, opt.seeds, opt.budget)
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
	fmt.Fprintf(stdout, "depcon bench %s: %d buggy subjects (%d hard), %d controls; schedulers %s; modes %s; seeds 1..%d; budget %v per type and run; %d at once\n",
		opt.dir, len(buggy), len(group(buggy, GroupHard)), len(controls), strings.Join(opt.scheds, ", "), strings.Join(opt.modes, ", "),
		opt.seeds, opt.budget, opt.parallel)
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
	var modes, scheds, subjects string
	fs.DurationVar(&opt.budget, "budget", 60*time.Second, "time budget of depcon test per type and run")
	fs.IntVar(&opt.seeds, "seeds", 5, "run each mode with the seeds 1..`N`")
	fs.BoolVar(&opt.json, "json", false, "print the results as JSON")
	fs.StringVar(&modes, "modes", strings.Join([]string{ModeDependent, ModeAll, ModeRandom}, ","),
		"comma-separated `modes` (pair selections): dependent, all, random")
	fs.StringVar(&scheds, "sched", SchedAll,
		"comma-separated `schedulers` of depcon test, each a run dimension: stress, pct, targeted, all")
	fs.StringVar(&subjects, "subjects", "", "comma-separated `names` of the subjects to run (default all)")
	fs.IntVar(&opt.parallel, "p", 1, "subjects tested at once in a run (more share the CPUs: every scheduler and mode gets the same)")
	err := fs.Parse(args)
	if err != nil {
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
	if opt.budget <= 0 || opt.seeds <= 0 || opt.parallel <= 0 {
		return nil, errors.New("-budget, -seeds and -p must be positive")
	}
	if opt.modes, err = parseList("-modes", modes, ModeDependent, ModeAll, ModeRandom); err != nil {
		return nil, err
	}
	if opt.scheds, err = parseList("-sched", scheds, SchedStress, SchedPCT, SchedTargeted, SchedAll); err != nil {
		return nil, err
	}
	if subjects != "" {
		opt.subjects = strings.Split(subjects, ",")
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
