package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/suite"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/sarif"
)

const vetSARIFUsage = `usage: depcon vet -sarif [-o FILE] [-test=false] PACKAGES

With -sarif, depcon vet writes its diagnostics as a SARIF 2.1.0 log (for
GitHub code scanning and other viewers) instead of text: one rule per
analyzer, one result per diagnostic with its related locations, paths
relative to the module root (%SRCROOT%).

Exit status: 0 when the log is written, whatever it contains (as with
-json); 1 when the packages do not load, an analyzer fails (the log is
still written, with the failure as a notification) or the log cannot be
written; 2 on a usage error.

Flags:
`

// vetSARIFFlags returns the flag set of depcon vet -sarif and where its
// values go.
func vetSARIFFlags(stderr io.Writer) (fs *flag.FlagSet, out *string, tests *bool) {
	fs = flag.NewFlagSet("depcon vet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("sarif", false, "write the diagnostics as a SARIF 2.1.0 log")
	out = fs.String("o", "", "write the log to this `file` instead of standard output")
	tests = fs.Bool("test", true, "also analyze the packages' test files")
	fs.Usage = func() {
		fmt.Fprint(stderr, vetSARIFUsage)
		fs.PrintDefaults()
	}
	return fs, out, tests
}

// wantsSARIF reports whether the arguments of depcon vet ask for SARIF:
// -sarif among the flags, before the first package.
func wantsSARIF(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			return false
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case name == "sarif":
			return a != "-sarif=false" && a != "--sarif=false"
		case name == "o" && !hasValue:
			i++ // the file
		}
	}
	return false
}

// isHelp reports whether the arguments ask for help.
func isHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// vetSARIF implements depcon vet -sarif: it loads the packages, runs the
// suite through the analysis checker, and writes the log of the
// diagnostics of the root packages.
func vetSARIF(args []string, stdout, stderr io.Writer) int {
	fs, out, tests := vetSARIFFlags(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	patterns, err := load.Expand("", fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "depcon vet: %v\n", err)
		return 1
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Tests: *tests}, patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "depcon vet: %v\n", err)
		return 1
	}
	nerr := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			fmt.Fprintln(stderr, e)
			nerr++
		}
	})
	if nerr > 0 {
		return 1
	}
	analyzers := suite.Analyzers()
	graph, err := checker.Analyze(analyzers, pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "depcon vet: %v\n", err)
		return 1
	}
	log := sarif.FromVet(graph, analyzers, sarif.Options{
		CommandLine: strings.Join(append([]string{"depcon", "vet"}, args...), " "),
	})
	w := stdout
	var f *os.File
	if *out != "" && *out != "-" {
		if f, err = os.Create(*out); err != nil {
			fmt.Fprintf(stderr, "depcon vet: %v\n", err)
			return 1
		}
		w = f
	}
	err = log.Write(w)
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "depcon vet: writing the log: %v\n", err)
		return 1
	}
	status := 0
	for _, inv := range log.Runs[0].Invocations {
		if !inv.ExecutionSuccessful {
			for _, n := range inv.ToolExecutionNotifications {
				fmt.Fprintf(stderr, "depcon vet: %s\n", n.Message.Text)
			}
			status = 1
		}
	}
	return status
}
