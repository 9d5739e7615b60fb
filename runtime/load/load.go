// Package load loads the packages depcon works on and runs the analyzers over them.
//
// The analyzers run through the analysis checker.
//
// Package patterns are those of the go command, with one addition: a
// relative pattern ending in "/..." also matches packages below testdata
// directories (the go command skips them), so that
// "./testdata/corpus/..." names the bundled corpus.
package load

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/analyzers/summary"
)

// Mode is the packages.LoadMode the analyzers need.
const Mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedTypes |
	packages.NeedTypesInfo | packages.NeedSyntax | packages.NeedTypesSizes |
	packages.NeedModule

// Packages loads the packages matching patterns (relative to dir, "" for
// the current directory). It fails with a readable error when a pattern
// matches nothing or a package has errors.
func Packages(dir string, patterns []string) ([]*packages.Package, error) {
	expanded, err := Expand(dir, patterns)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{Mode: Mode, Dir: dir, Tests: false}
	pkgs, err := packages.Load(cfg, expanded...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) > 0 {
		if len(msgs) > 10 {
			msgs = append(msgs[:10], fmt.Sprintf("... and %d more errors", len(msgs)-10))
		}
		return nil, fmt.Errorf("packages do not load:\n\t%s", strings.Join(msgs, "\n\t"))
	}
	return pkgs, nil
}

// Expand rewrites relative "dir/..." patterns that lie in or below a
// testdata directory into the list of package directories they contain.
// Other patterns are returned unchanged.
func Expand(dir string, patterns []string) ([]string, error) {
	var out []string
	for _, pat := range patterns {
		base, ok := strings.CutSuffix(pat, "/...")
		relative := strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../")
		if !ok || !relative || !strings.Contains(pat, "testdata") {
			out = append(out, pat)
			continue
		}
		root := filepath.Join(dir0(dir), filepath.FromSlash(base))
		var dirs []string
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				name := d.Name()
				if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				dirs = append(dirs, filepath.Dir(path))
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("pattern %s: %w", pat, err)
		}
		seen := map[string]bool{}
		for _, d := range dirs {
			if seen[d] {
				continue
			}
			seen[d] = true
			rel, err := filepath.Rel(dir0(dir), d)
			if err != nil {
				return nil, err
			}
			out = append(out, "./"+filepath.ToSlash(rel))
		}
		if len(seen) == 0 {
			return nil, fmt.Errorf("pattern %s matches no packages", pat)
		}
	}
	return out, nil
}

func dir0(dir string) string {
	if dir == "" {
		if wd, err := os.Getwd(); err == nil {
			return wd
		}
		return "."
	}
	return dir
}

// Call graph algorithms for PlansProgram.
const (
	CallGraphCHA = "cha"
	CallGraphVTA = "vta"
)

// PlansProgram computes the plans of the root packages pkgs in
// whole-program mode: the program is built in SSA at once and the calls
// through interfaces and function values are resolved by a call graph
// (algo: CallGraphCHA or CallGraphVTA) instead of being unknown code.
func PlansProgram(pkgs []*packages.Package, algo string) (map[string]*deps.Plan, error) {
	prog, ssapkgs := ssautil.AllPackages(pkgs, 0)
	prog.Build()
	var cg *callgraph.Graph
	switch algo {
	case CallGraphCHA:
		cg = cha.CallGraph(prog)
	case CallGraphVTA:
		cg = vta.CallGraph(ssautil.AllFunctions(prog), cha.CallGraph(prog))
	default:
		return nil, fmt.Errorf("unknown call graph %q (want %s or %s)", algo, CallGraphCHA, CallGraphVTA)
	}
	wp := summary.NewProgram(prog, cg)
	plans := make(map[string]*deps.Plan)
	for i, p := range pkgs {
		if ssapkgs[i] == nil {
			return nil, fmt.Errorf("%s: no SSA package", p.PkgPath)
		}
		plans[p.PkgPath] = deps.NewPlan(p.PkgPath, wp.Types(ssapkgs[i]), nil, nil, contract.NewPackageDocs(p.Syntax))
	}
	return plans, nil
}

// Plans runs the deps analyzer (and what it requires) over pkgs and
// returns the plan of each root package, by package path.
func Plans(pkgs []*packages.Package) (map[string]*deps.Plan, *checker.Graph, error) {
	graph, err := checker.Analyze([]*analysis.Analyzer{deps.Analyzer}, pkgs, nil)
	if err != nil {
		return nil, nil, err
	}
	plans := make(map[string]*deps.Plan)
	for _, act := range graph.Roots {
		if act.Err != nil {
			return nil, nil, fmt.Errorf("%s: %w", act.Package.PkgPath, act.Err)
		}
		plans[act.Package.PkgPath] = planOf(act)
	}
	return plans, graph, nil
}

// planOf returns the plan the deps action act computed (an empty plan of
// its package when it has none).
func planOf(act *checker.Action) *deps.Plan {
	if plan, ok := act.Result.(*deps.Plan); ok && plan != nil {
		return plan
	}
	return &deps.Plan{Package: act.Package.PkgPath}
}
