// Command depcon finds thread-safety violations in Go types meant to be
// safe for concurrent use.
//
// Usage:
//
//	go vet -vettool=$(command -v depcon) ./...   run the diagnostics under go vet
//	depcon vet [flags] PACKAGES                  the same, standalone
//	depcon vet -sarif [-o FILE] PACKAGES         the same, as a SARIF 2.1.0 log
//	depcon vet -confirm [flags] PACKAGES         the same, each diagnostic tested by generated tests
//	depcon pairs [-json] [-type RE] PACKAGES     print the dependent method pairs
//	depcon test [flags] PACKAGES                 generate and run concurrent tests
//	depcon bench [flags] DIR                     measure depcon on a corpus
//	depcon lsp [flags]                           serve depcon to an editor (LSP)
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/depcon/depcon/analyzers/suite"
)

const usage = `depcon finds thread-safety violations in Go types meant to be safe for concurrent use.

Usage:

	go vet -vettool=$(command -v depcon) PACKAGES   run the diagnostics under go vet
	depcon vet [flags] PACKAGES                     the same, standalone
	depcon vet -sarif [-o FILE] PACKAGES            the same, as a SARIF 2.1.0 log
	depcon vet -confirm [flags] PACKAGES            the same, each diagnostic tested by generated tests
	depcon pairs [-json] [-type REGEXP] PACKAGES    print the dependent method pairs
	depcon test [flags] PACKAGES                    generate and run concurrent tests
	depcon bench [flags] DIR                        measure depcon on a corpus
	depcon lsp [flags]                              serve depcon to an editor (LSP on stdio)

Run "depcon COMMAND -h" for the flags of a command.
`

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if isVetProtocol(args[1:]) {
		// go vet runs the tool as "depcon -flags", "depcon -V=full" and
		// "depcon [flags] unit.cfg"; unitchecker speaks that protocol.
		vetGC(os.Getenv)
		unitchecker.Main(vetAnalyzers(args[1:])...) // does not return
	}
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[1] {
	case "vet":
		if wantsSARIF(args[2:]) {
			return vetSARIF(args[2:], stdout, stderr)
		}
		if wantsConfirm(args[2:]) {
			return vetConfirm(args[2:], stdout, stderr)
		}
		if isHelp(args[2:]) {
			fmt.Fprintln(stderr, "depcon vet -sarif [-o FILE] PACKAGES writes a SARIF 2.1.0 log (depcon vet -sarif -h for its flags).")
			fmt.Fprintln(stderr, "depcon vet -confirm PACKAGES tests each diagnostic with generated tests (depcon vet -confirm -h for its flags).")
		}
		os.Args = append([]string{"depcon vet"}, vetArgs(args[2:], stderr)...)
		multichecker.Main(suite.Analyzers()...) // does not return
	case "pairs":
		return pairsMain(args[2:], stdout, stderr)
	case "test":
		return testMain(args[2:], stdout, stderr)
	case "bench":
		return benchMain(args[2:], stdout, stderr)
	case "lsp":
		return lspMain(args[2:], stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "depcon: unknown command %q\n\n%s", args[1], usage)
	return 2
}

// vetAnalyzers returns the analyzers for a go vet invocation: the suite,
// or, for a unit go vet analyses only for its facts (a dependency of the
// packages vetted: VetxOnly in its config), the suite reduced to what
// exports facts (suite.FactsOnly).
func vetAnalyzers(args []string) []*analysis.Analyzer {
	all := suite.Analyzers()
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return all
	}
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil {
		return all // unitchecker reports it
	}
	var cfg struct{ VetxOnly bool }
	if json.Unmarshal(data, &cfg) != nil || !cfg.VetxOnly {
		return all
	}
	return suite.FactsOnly(all)
}

// Garbage collection of a vet tool process: see vetGC.
const (
	vetGCPercent   = 400
	vetMemoryLimit = 200 << 20
)

// vetGC sets the garbage collection of a process go vet runs for one
// package: collect when the heap has grown by 400% rather than 100%,
// within a soft limit of 200 MiB. Such a process lives a second or two
// and most of its heap is live until it exits, so the default spent a
// sixth of its time collecting; under the limit, the largest packages
// collect as often as they must and peak lower than with the default
// (docs/VET.md, run 17). GOGC or GOMEMLIMIT in the environment are the
// user's choice and left alone. It reports whether it changed anything.
func vetGC(getenv func(string) string) bool {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetGCPercent(vetGCPercent)
	debug.SetMemoryLimit(vetMemoryLimit)
	return true
}

// isVetProtocol reports whether the arguments are those go vet passes to a
// vet tool.
func isVetProtocol(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch {
	case args[0] == "-flags", strings.HasPrefix(args[0], "-V="):
		return true
	}
	return strings.HasSuffix(args[len(args)-1], ".cfg")
}
