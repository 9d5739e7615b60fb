package driver

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/depcon/depcon/runtime/isolate"
	"github.com/depcon/depcon/runtime/testgen"
)

// TestFlags are the flags of depcon test that set its Config,
// what it tests and how: all of its flags but those of its output
// (-json, -sarif, -baseline, -write-baseline, -merge, -timeout, -v),
// with the same names, defaults and usage (the tests compare them with
// depcon test -h). The editor's depcon.test builds its configuration
// with them from the arguments of the command line that tests the type
// (ParseTestFlags), so that both find the same violations; depcon
// test's flag set can define them with AddTestFlags, next to its own.
type TestFlags struct {
	cfg       Config
	typeRE    string
	shard     string
	reproduce bool
	memMiB    int64
}

// HiddenTestFlags returns the flags of TestFlags that depcon test -h
// does not show, with the note printed when one is used.
func HiddenTestFlags() map[string]string {
	return map[string]string{"mode": "is deprecated: use -find"}
}

// The least -max-memory and -max-tasks with which a race-enabled test
// binary starts.
const (
	MinMemoryMiB = 64
	MinTasks     = 16
)

// AddTestFlags defines the flags of depcon test that set its
// Config on fs, and returns them; Config reads them after
// fs.Parse.
func AddTestFlags(fs *flag.FlagSet) *TestFlags {
	f := &TestFlags{}
	cfg := &f.cfg
	fs.DurationVar(&cfg.Budget, "budget", DefaultBudget, "time budget per type")
	fs.IntVar(&cfg.Iters, "iters", DefaultIters, "repetitions of each test, with fresh objects")
	fs.IntVar(&cfg.MaxLen, "maxlen", DefaultMaxLen, "most state-changing calls in a prefix")
	fs.StringVar(&cfg.Find, "find", testgen.FindAll, "violations looked for: exception (races, panics), deadlock, or all")
	fs.StringVar(&cfg.Find, "mode", testgen.FindAll, HiddenTestFlags()["mode"])
	fs.StringVar(&cfg.Pairs, "pairs", testgen.PairsDependent,
		"method pairs tested: dependent (DepCon+), all (every pair, least covered first), or random")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the generation; a run is reproducible from it")
	fs.StringVar(&f.typeRE, "type", "", "test the types whose names match this regular expression")
	fs.StringVar(&cfg.Out, "o", "", "write a reproducer _test.go file for each violation to this directory")
	fs.BoolVar(&cfg.Unexported, "unexported", false,
		"test unexported types and methods too (the default in package main)")
	fs.BoolVar(&cfg.First, "first", false, "stop testing a type at its first violation")
	fs.IntVar(&cfg.Parallel, "p", DefaultParallel(), "types tested at once, each in its own child")
	fs.StringVar(&f.shard, "shard", "", "test only the K-th of N shares of the selected types (K/N), for CI jobs")
	fs.BoolVar(&f.reproduce, "reproduce", true, "run each violation's reproducer in the package before reporting it")
	fs.StringVar(&cfg.Sched, "sched", SchedAll, "how the two calls of a test are interleaved: targeted (orders forced at the "+
		"pair's evidence), pct (random priority schedules), stress (the Go scheduler), or all (targeted first, then delay-bounded, pct and stress)")
	fs.IntVar(&cfg.PCTDepth, "pct-depth", DefaultPCTDepth, "bug depth of the pct schedules: 1 to 3 (depth-1 priority changes)")
	fs.BoolVar(&cfg.Isolation.Net, "net", false, "let the code under test use the network (it has none by default)")
	fs.BoolVar(&cfg.Isolation.Unsafe, "unsafe-no-isolation", false,
		"run the code under test unconfined where the kernel offers no isolation (Landlock, namespaces): it may then "+
			"write, delete and connect anywhere the user can")
	fs.Int64Var(&f.memMiB, "max-memory", isolate.DefaultMemory>>20,
		fmt.Sprintf("memory bound of each child process tree, in MiB (at least %d)", MinMemoryMiB))
	fs.IntVar(&cfg.Isolation.Tasks, "max-tasks", isolate.DefaultTasks,
		fmt.Sprintf("bound on the processes and threads of each child (at least %d)", MinTasks))
	fs.BoolVar(&cfg.Strict, "strict", false, "count contract questions (races between methods neither of which "+
		"synchronises what they share) as violations")
	return f
}

// Config returns the configuration the flags set, testing the packages
// patterns (relative to the current directory: Dir is ""). It checks the
// flags in the order depcon test reports them: -shard, each flag that
// must be positive, the settings Config.Validate checks, the
// bounds of the isolation, then -type. Verbose and Progress, which
// only report, are left to the caller.
func (f *TestFlags) Config(patterns []string) (Config, error) {
	for _, p := range patterns {
		if strings.HasPrefix(p, "-") {
			return Config{}, fmt.Errorf("%s after the packages: flags go before them (depcon test [flags] packages)", p)
		}
	}
	cfg := f.cfg
	cfg.Patterns = patterns
	cfg.NoReproduce = !f.reproduce
	cfg.Isolation.Memory = f.memMiB << 20
	if f.shard != "" {
		if _, err := fmt.Sscanf(f.shard, "%d/%d", &cfg.Shard, &cfg.Shards); err != nil ||
			cfg.Shards < 1 || cfg.Shard < 1 || cfg.Shard > cfg.Shards {
			return Config{}, fmt.Errorf("-shard %q: want K/N with 1 <= K <= N", f.shard)
		}
	}
	// Each flag that must be positive, named (Config.Validate
	// names them together).
	switch {
	case cfg.Budget <= 0:
		return Config{}, fmt.Errorf("-budget %v: want a positive duration", cfg.Budget)
	case cfg.Iters <= 0:
		return Config{}, fmt.Errorf("-iters %d: want at least 1", cfg.Iters)
	case cfg.MaxLen <= 0:
		return Config{}, fmt.Errorf("-maxlen %d: want at least 1", cfg.MaxLen)
	case cfg.Parallel <= 0:
		return Config{}, fmt.Errorf("-p %d: want at least 1", cfg.Parallel)
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	if f.memMiB < MinMemoryMiB {
		return Config{}, fmt.Errorf("-max-memory %d: a race-enabled test binary needs more to start: want at least %d (MiB)",
			f.memMiB, MinMemoryMiB)
	}
	if cfg.Isolation.Tasks < MinTasks {
		return Config{}, fmt.Errorf("-max-tasks %d: a race-enabled test binary needs more threads to start: want at least %d",
			cfg.Isolation.Tasks, MinTasks)
	}
	if f.typeRE != "" {
		re, err := regexp.Compile(f.typeRE)
		if err != nil {
			return Config{}, fmt.Errorf("-type: %w", err)
		}
		cfg.TypeRE = re
	}
	return cfg, nil
}

// ParseTestFlags returns the configuration of the command line
// "depcon test ARGS" (ARGS being flags of TestFlags, then package
// patterns), run in the current directory.
func ParseTestFlags(args []string) (Config, error) {
	fs := flag.NewFlagSet("depcon test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := AddTestFlags(fs)
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() == 0 {
		return Config{}, fmt.Errorf("no package patterns in %q", strings.Join(args, " "))
	}
	return f.Config(fs.Args())
}
