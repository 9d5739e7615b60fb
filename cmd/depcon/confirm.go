package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/driver"
	"github.com/depcon/depcon/runtime/report"
)

const vetConfirmUsage = `usage: depcon vet -confirm [flags] PACKAGES

With -confirm, depcon vet runs its analyzers over the packages (their
non-test files) and then, for each diagnostic in a method of a type,
generates and runs the concurrent tests of the method pairs that can
confirm it: those depcon test would run, restricted to these pairs, under
the same isolation. It prints every diagnostic as go vet does, followed by
what the tests did about it:

  confirmed by a generated test: KIND, PAIR, seed N
  tested N times (PAIRS), not reproduced
  not reached: N tests of PAIRS never got to its statements
  not tested: WHY
  no pair: WHY (no generated test can confirm it)

A confirmed diagnostic is also reported by depcon test, with its
reproducer. depcon test -json reports the same for every diagnostic of the
packages it tests.

Exit status, as depcon vet's: 0 when there is no diagnostic; 1 when there
are some (also when some packages did not build); 2 on a usage error,
when the packages do not load or build and there is no diagnostic, when no
isolation is available, or when -o cannot be written (checked before the
run); 130 or 143 when SIGINT or SIGTERM ended the run (what was tested
until then is reported).

Flags:
`

// confirmBudget is the default time budget per type of depcon vet
// -confirm: only the pairs of its diagnostics are tested, and a type's
// testing ends before it once their interleavings are saturated.
const confirmBudget = 10 * time.Second

// wantsConfirm reports whether the arguments of depcon vet ask for
// -confirm among the flags, before the first package.
func wantsConfirm(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return false
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case name == "confirm":
			return !strings.HasSuffix(a, "=false")
		case !hasValue && (name == "budget" || name == "p" || name == "seed" || name == "o"):
			i++ // its value
		}
	}
	return false
}

// vetConfirm implements depcon vet -confirm.
func vetConfirm(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("depcon vet -confirm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, vetConfirmUsage)
		fs.PrintDefaults()
	}
	fs.Bool("confirm", true, "confirm the diagnostics with generated tests")
	cfg := driver.Config{Iters: driver.DefaultIters, MaxLen: driver.DefaultMaxLen, Seed: 1, Confirm: true}
	fs.DurationVar(&cfg.Budget, "budget", confirmBudget, "time budget per type")
	fs.IntVar(&cfg.Parallel, "p", driver.DefaultParallel(), "types tested at once, each in its own child")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the generation; a run is reproducible from it")
	fs.BoolVar(&cfg.Unexported, "unexported", false, "test unexported methods too")
	fs.StringVar(&cfg.Out, "o", "", "write a reproducer _test.go file for each violation to this directory")
	fs.BoolVar(&cfg.Isolation.Net, "net", false, "let the code under test use the network (it has none by default)")
	fs.BoolVar(&cfg.Isolation.Unsafe, "unsafe-no-isolation", false,
		"run the code under test unconfined where the kernel offers no isolation (see depcon test -h)")
	jsonOut := fs.Bool("json", false, "print the diagnostics and what the tests did as JSON")
	verbose := fs.Bool("v", false, "log every decision of the tests")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	patterns := packageArgs(fs)
	if cfg.Budget <= 0 {
		fmt.Fprintf(stderr, "depcon vet: -budget %v: want a positive duration\n", cfg.Budget)
		return exitError
	}
	if cfg.Parallel <= 0 {
		fmt.Fprintf(stderr, "depcon vet: -p %d: want at least 1\n", cfg.Parallel)
		return exitError
	}
	if err := checkOutputDir("o", cfg.Out); err != nil {
		fmt.Fprintf(stderr, "depcon vet: %v\n", err)
		return exitError
	}
	cfg.Patterns = patterns
	if *verbose {
		cfg.Verbose = stderr
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	caught := onSignal(ctx, cancel)
	rep, err := driver.Run(ctx, cfg)
	if ctx.Err() != nil {
		err = nil // interrupted: what was tested until then is reported
	}
	if rep == nil {
		if err != nil {
			printErr(stderr, "depcon vet", err)
		}
		if sig := caught(); sig != nil {
			return signalStatus(sig)
		}
		return exitError
	}
	if *jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		diags := rep.Diagnostics
		if diags == nil {
			diags = []*report.DiagnosticResult{}
		}
		if err := enc.Encode(diags); err != nil {
			fmt.Fprintf(stderr, "depcon vet: writing the diagnostics: %v\n", err)
			return exitError
		}
	} else {
		for _, d := range rep.Diagnostics {
			fmt.Fprintf(stdout, "%s: %s [%s]\n", d.Pos, d.Message, d)
		}
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(stderr, "depcon vet: %s\n", n)
	}
	if sig := caught(); sig != nil {
		fmt.Fprintf(stderr, "depcon vet: interrupted (%s): the diagnostics not yet tested are reported as such\n", signalName(sig))
		return signalStatus(sig)
	}
	if err != nil {
		printErr(stderr, "depcon vet", err) // packages that did not load or build
	}
	return status(len(rep.Diagnostics), err != nil, false)
}
