package summary_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/depcon/depcon/analyzers/internal/testpkgs"
	"github.com/depcon/depcon/analyzers/summary"
)

// TestGenericPromoted checks that the methods promoted through embedded
// generic types are listed with the summaries of the methods they call,
// on the embedding path: those of a generic type (Cache embeds
// *common[K, V]), whose wrappers belong to an instance, and those of a
// type embedding an instantiation (Store, PtrStore). The go vet pass and
// the whole-program mode agree, whether the program builds the bodies of
// instances (ssa.InstantiateGenerics) or not (the generic body is
// summarised).
func TestGenericPromoted(t *testing.T) {
	pkgs := loadTestPkgs(t, "genericembed")
	g, err := checker.Analyze([]*analysis.Analyzer{summary.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := g.Roots[0].Result.(*summary.Result)
	vet := render(res.Types)
	for _, want := range []string{
		"Cache.Get (wrapper): L $0.common->mu:W; R $0.common; R $0.common->m {$0.common->mu:W}; R $0.common->m->[*] (map) {$0.common->mu:W}",
		"Cache.Hit: R $0.hits; W $0.hits",
		"Cache.Set (wrapper): L $0.common->mu:W; R $0.common; R $0.common->m {$0.common->mu:W}; W $0.common->m->[*] (map) {$0.common->mu:W}",
		"Labels.Get (wrapper): L $0.common->mu:W; R $0.common; R $0.common->m {$0.common->mu:W}; R $0.common->m->[*] (map) {$0.common->mu:W}",
		"PtrStore.Hit (wrapper): R $0.Cache; R $0.Cache->hits; W $0.Cache->hits",
		"Stack.Len (wrapper): R $0.list; R $0.list.items",
		"Store.Get (wrapper): L $0.Cache.common->mu:W; R $0.Cache.common; R $0.Cache.common->m {$0.Cache.common->mu:W}; R $0.Cache.common->m->[*] (map) {$0.Cache.common->mu:W}",
	} {
		if !slices.Contains(vet, want) {
			t.Errorf("missing %s", want)
		}
	}
	for _, line := range vet {
		if strings.HasPrefix(line, "Seq.") {
			// No instance satisfies Seq's constraints.
			t.Errorf("Seq has no promoted methods: %s", line)
		}
	}
	for _, mode := range []ssa.BuilderMode{0, ssa.InstantiateGenerics} {
		prog, ssapkgs := ssautil.AllPackages(pkgs, mode)
		prog.Build()
		if got := render(summary.NewProgram(prog, nil).Types(ssapkgs[0])); !slices.Equal(got, vet) {
			t.Errorf("whole program, mode %v:\n%s\nthe go vet pass:\n%s", mode, strings.Join(got, "\n"), strings.Join(vet, "\n"))
		}
	}
}

// render lists the methods of ts with their summaries, one a line.
func render(ts []*summary.Type) []string {
	var out []string
	for _, ty := range ts {
		for _, m := range append(slices.Clone(ty.Methods), ty.Unexported...) {
			line := ty.Obj.Name() + "." + m.Name
			if m.Func.Synthetic != "" {
				line += " (wrapper)"
			}
			out = append(out, line+": "+m.Summary.String())
		}
	}
	return out
}

func loadTestPkgs(t *testing.T, patterns ...string) []*packages.Package {
	t.Helper()
	pkgs, err := packages.Load(testpkgs.Config(t), patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("errors loading the test packages")
	}
	return pkgs
}
