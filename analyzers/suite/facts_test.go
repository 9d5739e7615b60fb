package suite_test

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/internal/testpkgs"
	"github.com/depcon/depcon/analyzers/suite"
)

// TestFactsOnly checks that the reduced suite go vet runs on the
// dependencies of the packages vetted exports the same facts as the
// whole suite, on test packages whose facts cross packages (lock orders,
// RWMutex writers, summaries and callbacks of imported functions), and
// that its stand-ins report nothing.
func TestFactsOnly(t *testing.T) {
	pkgs, err := packages.Load(testpkgs.Config(t), "lockorder/crosspkg", "lockorder/crosscycle", "rwrdeadlock/deferred", "selfdeadlock", "genericforeign",
		"truncatedcall", "foreign", "lockleak", "blockedlock", "unguarded")
	if err != nil {
		t.Fatal(err)
	}
	all := suite.Analyzers()
	reduced := suite.FactsOnly(all)
	for i, a := range reduced {
		if a.Name != all[i].Name || a.Flags.Name() != all[i].Flags.Name() {
			t.Errorf("stand-in %d is %q, want %q with its flags", i, a.Name, all[i].Name)
		}
	}
	full, nFull := facts(t, all, pkgs)
	less, nLess := facts(t, reduced, pkgs)
	if len(full) == 0 || nFull == 0 {
		t.Fatalf("the suite exported %d facts and reported %d diagnostics on its test packages", len(full), nFull)
	}
	if !slices.Equal(full, less) {
		t.Errorf("facts differ:\nsuite:\n%s\nfacts only:\n%s", strings.Join(full, "\n"), strings.Join(less, "\n"))
	}
	if nLess != 0 {
		t.Errorf("the facts-only suite reported %d diagnostics", nLess)
	}
}

// facts runs analyzers over pkgs and returns the facts exported, sorted,
// and the number of diagnostics of the analyzers that export none.
func facts(t *testing.T, analyzers []*analysis.Analyzer, pkgs []*packages.Package) ([]string, int) {
	g, err := checker.Analyze(analyzers, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	n := 0
	for act := range g.All() {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		if len(act.Analyzer.FactTypes) == 0 {
			n += len(act.Diagnostics)
		}
		for _, f := range act.AllObjectFacts() {
			if f.Object.Pkg() == act.Package.Types {
				out = append(out, fmt.Sprintf("%s %s: %s", act.Analyzer.Name, types.ObjectString(f.Object, nil), f.Fact))
			}
		}
		for _, f := range act.AllPackageFacts() {
			if f.Package == act.Package.Types {
				out = append(out, fmt.Sprintf("%s %s: %s", act.Analyzer.Name, act.Package.PkgPath, f.Fact))
			}
		}
	}
	slices.Sort(out)
	return out, n
}
