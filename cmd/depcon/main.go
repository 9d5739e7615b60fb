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
//	depcon help [COMMAND]                        print the usage, or a command's flags
//	depcon version                               print the version and VCS revision
//
// Exit status, the same for every command (vet, with -json, -sarif or
// -confirm too, pairs, test, test -merge, bench):
//
//	0    nothing found
//	1    findings: diagnostics (vet), violations (test); also when, beside
//	     them, some packages did not load (each is named on standard
//	     error, and the others were analysed or tested) or an analyzer
//	     failed
//	2    a usage error; packages that do not load or build (none loaded,
//	     or some did not and the others have no findings); no isolation
//	     (test); an output (-o, -sarif, -write-baseline, the report) that
//	     cannot be written, findings or not (the flag is named; the other
//	     outputs are still written)
//	130  interrupted by SIGINT; 143 by SIGTERM (what was found until then
//	     is reported)
//
// pairs and bench report no findings: 0 or 2 (or 130, 143). lsp exits
// as the Language Server Protocol asks: 0 after a shutdown request and
// the exit notification, 1 when the connection ended without them (2 on
// a usage error). -h and help exit 0. Under go vet -vettool, go vet
// decides its own status (1 with diagnostics). exit.go gives the reasons.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
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

	depcon help [COMMAND]                           print this, or the flags of a command
	depcon version                                  print the version and VCS revision

Run "depcon help COMMAND" (or "depcon COMMAND -h") for the flags of a command.
PACKAGES are go list patterns; without any, the package in the current
directory.

Exit status, for every command: 0 nothing found; 1 findings (vet's
diagnostics, test's violations), also when some packages did not load; 2 usage error, packages
that do not load or build with no findings, no isolation, or an output that
cannot be written; 130 interrupted by SIGINT, 143 by SIGTERM.
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
		return exitError
	}
	if wantsVersion(args[1:]) {
		fmt.Fprintln(stdout, versionLine())
		return exitClean
	}
	switch args[1] {
	case "vet":
		if wantsSARIF(args[2:]) {
			return vetSARIF(args[2:], stdout, stderr)
		}
		if wantsConfirm(args[2:]) {
			return vetConfirm(args[2:], stdout, stderr)
		}
		return vetMain(args[2:], stdout, stderr)
	case "pairs":
		return pairsMain(args[2:], stdout, stderr)
	case "test":
		return testMain(args[2:], stdout, stderr)
	case "bench":
		return benchMain(args[2:], stdout, stderr)
	case "lsp":
		return lspMain(args[2:], stderr)
	case "help", "-h", "-help", "--help":
		return helpMain(args[2:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "depcon: unknown command %q\n\n%s", args[1], usage)
	return exitError
}

// helpMain implements depcon help [COMMAND]: the usage, or the help of
// the command (its -h), on standard output.
func helpMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return exitClean
	}
	if len(args) > 1 && args[0] == "vet" && (args[1] == "-sarif" || args[1] == "-confirm") {
		return run([]string{"depcon", "vet", args[1], "-h"}, stdout, stdout)
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "depcon help: one command at a time\n\n%s", usage)
		return exitError
	}
	switch args[0] {
	case "vet", "pairs", "test", "bench", "lsp":
		return run([]string{"depcon", args[0], "-h"}, stdout, stdout)
	case "version":
		fmt.Fprintln(stdout, "usage: depcon version\n\nVersion prints depcon's module version, the VCS revision it was built from, and the Go version.")
		return exitClean
	case "help":
		fmt.Fprint(stdout, usage)
		return exitClean
	}
	fmt.Fprintf(stderr, "depcon help: unknown command %q\n\n%s", args[0], usage)
	return exitError
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
	vetGCPercent   = 1000
	vetMemoryLimit = 256 << 20
)

// vetGC sets the garbage collection of a process go vet runs for one
// package: collect when the heap has grown by 1000% rather than 100%,
// within a soft limit of 256 MiB. Such a process lives a second or two
// and most of its heap is live until it exits, so the default spent a
// sixth of its time collecting; under the limit, the largest packages
// collect as often as they must and peak below the compiler's peak on
// the same packages (docs/VET.md, "How the vet tool runs"). GOGC or GOMEMLIMIT in the
// environment are the user's choice and left alone. It reports whether
// it changed anything.
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
