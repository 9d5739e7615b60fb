package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/depcon/depcon/analyzers/suite"
	"github.com/depcon/depcon/runtime/sarif"
)

const vetSARIFUsage = `usage: depcon vet -sarif [-o FILE] [-test=false] PACKAGES

With -sarif, depcon vet writes its diagnostics as a SARIF 2.1.0 log (for
GitHub code scanning and other viewers) instead of text: one rule per
analyzer, one result per diagnostic with its related locations, paths
relative to the module root (%SRCROOT%).

A package that does not load (or imports one that does not) is named on
standard error, one line each, and recorded in the log as an error
notification; the others are vetted. An analyzer's failure is one too.

Exit status, as without -sarif: 0 when there is no diagnostic; 1 when
there are some (also when some packages did not load or an analyzer
failed); 2 on a usage error, when packages did not load or an analyzer
failed and there is no diagnostic, or when the log cannot be written
(the file is opened before the analysis: a path that cannot be written
fails at once).

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

// vetSARIF implements depcon vet -sarif: it loads the packages, runs the
// suite through the analysis checker, and writes the log of the
// diagnostics of the root packages.
func vetSARIF(args []string, stdout, stderr io.Writer) int {
	fs, outPath, tests := vetSARIFFlags(stderr)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	patterns := packageArgs(fs)
	out, err := openOutput("o", *outPath, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "depcon vet: %v\n", err)
		return exitError
	}
	if *outPath == "" {
		out.path = "-" // standard output
	}
	if *tests && !flagSet(fs, "test") && testFilesUnusable(patterns, stderr) {
		*tests = false
	}
	pkgs, failed, err := loadVet(patterns, *tests, stderr)
	if err != nil {
		out.abandon()
		return exitError
	}
	analyzers := suite.Analyzers()
	graph, err := checker.Analyze(analyzers, pkgs, nil)
	if err != nil {
		out.abandon()
		fmt.Fprintf(stderr, "depcon vet: %v\n", err)
		return exitError
	}
	var notLoaded []string
	for _, f := range failed {
		notLoaded = append(notLoaded, f.String())
	}
	log := sarif.FromVet(graph, analyzers, sarif.Options{
		CommandLine: strings.Join(append([]string{"depcon", "vet"}, args...), " "),
		NotLoaded:   notLoaded,
	})
	writeErr := out.write(log.Write)
	if writeErr != nil {
		fmt.Fprintf(stderr, "depcon vet: %v\n", writeErr)
	}
	analyzerFailed := false
	for _, inv := range log.Runs[0].Invocations {
		for _, n := range inv.ToolExecutionNotifications {
			if !strings.HasPrefix(n.Message.Text, "does not load: ") { // those were reported as they loaded
				fmt.Fprintf(stderr, "depcon vet: %s\n", n.Message.Text)
				analyzerFailed = true
			}
		}
	}
	return status(len(log.Runs[0].Results), len(failed) > 0 || analyzerFailed, writeErr != nil)
}
