package main

import (
	"bytes"
	"encoding/gob"
	"flag"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/callgraph/static"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/depcon/depcon/analyzers/suite"
	"github.com/depcon/depcon/runtime/load"
)

// The constraints that let the analyzers run under any driver of
// go/analysis (go vet's unitchecker, golangci-lint, gopls-like servers,
// and Bazel's nogo, which links them into one binary that analyzes one
// package per action): see docs/CI.md.

const depconPath = "github.com/depcon/depcon/"

// allAnalyzers returns the suite's analyzers and those they require,
// transitively, in a stable order.
func allAnalyzers() []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			visit(r)
		}
		out = append(out, a)
	}
	for _, a := range suite.Analyzers() {
		visit(a)
	}
	return out
}

// runFunc returns the package path and name of an analyzer's Run
// function, from the symbol table.
func runFunc(a *analysis.Analyzer) (pkg, name string) {
	full := runtime.FuncForPC(reflect.ValueOf(a.Run).Pointer()).Name()
	slash := strings.LastIndex(full, "/")
	dot := strings.Index(full[slash+1:], ".")
	return full[:slash+1+dot], full[slash+1+dot+1:]
}

// analyzerPackages loads, with syntax and types, the depcon packages the
// analyzers are defined in and every depcon package they import.
func analyzerPackages(t *testing.T) (map[*analysis.Analyzer]string, []*packages.Package) {
	t.Helper()
	loaded := loadAnalyzerPackages()
	if loaded.err != nil {
		t.Fatal(loaded.err)
	}
	return loaded.pkgOf, loaded.pkgs
}

type analyzerPkgs struct {
	pkgOf map[*analysis.Analyzer]string
	pkgs  []*packages.Package
	err   error
}

// loadAnalyzerPackages loads the packages once for the tests.
var loadAnalyzerPackages = sync.OnceValue(func() analyzerPkgs {
	pkgOf := map[*analysis.Analyzer]string{}
	var paths []string
	for _, a := range allAnalyzers() {
		pkg, _ := runFunc(a)
		if strings.HasPrefix(pkg, depconPath) {
			pkgOf[a] = pkg
			if !slices.Contains(paths, pkg) {
				paths = append(paths, pkg)
			}
		}
	}
	roots, err := load.Packages("", paths)
	if err != nil {
		return analyzerPkgs{err: err}
	}
	var pkgs []*packages.Package
	packages.Visit(roots, func(p *packages.Package) bool {
		return strings.HasPrefix(p.PkgPath, depconPath)
	}, func(p *packages.Package) {
		if strings.HasPrefix(p.PkgPath, depconPath) {
			pkgs = append(pkgs, p)
		}
	})
	return analyzerPkgs{pkgOf: pkgOf, pkgs: pkgs}
})

// TestAnalyzerVariables checks that every analyzer of the suite, and
// every depcon analyzer it requires, is the exported variable Analyzer of
// its own package (what nogo's deps and golangci-lint's plugins link),
// that its name is unique (nogo's configuration is keyed by it), and that
// its help URL is the pkg.go.dev page of that package.
func TestAnalyzerVariables(t *testing.T) {
	pkgOf, pkgs := analyzerPackages(t)
	byPath := map[string]*packages.Package{}
	for _, p := range pkgs {
		byPath[p.PkgPath] = p
	}
	names := map[string]bool{}
	for _, a := range allAnalyzers() {
		if names[a.Name] {
			t.Errorf("two analyzers are named %s", a.Name)
		}
		names[a.Name] = true
		path, ok := pkgOf[a]
		if !ok {
			continue // x/tools's buildssa, ctrlflow...
		}
		p := byPath[path]
		v, _ := p.Types.Scope().Lookup("Analyzer").(*types.Var)
		if v == nil || v.Type().String() != "*golang.org/x/tools/go/analysis.Analyzer" {
			t.Errorf("%s: package %s has no variable Analyzer of type *analysis.Analyzer", a.Name, path)
		}
		nflags := 0
		a.Flags.VisitAll(func(*flag.Flag) { nflags++ })
		if nflags > 0 {
			t.Errorf("%s declares flags: say in docs/CI.md how nogo's analyzer_flags sets them", a.Name)
		}
		if a.URL != "https://pkg.go.dev/"+path {
			t.Errorf("%s: URL %q, want the package's page https://pkg.go.dev/%s", a.Name, a.URL, path)
		}
	}
}

// immutableType reports whether a package-level variable of type T that
// is never assigned is immutable state: a function, a compiled regular
// expression (safe for concurrent use), a string, number or boolean.
func immutableType(T types.Type) bool {
	switch T := T.(type) {
	case *types.Signature:
		return true
	case *types.Basic:
		return true
	case *types.Pointer:
		return T.Elem().String() == "regexp.Regexp"
	}
	return false
}

// TestNoGlobalState checks that the analyzers' packages (and the depcon
// packages they import) have no mutable package-level state: no variable
// but Analyzer, blank assertions, and never-assigned functions, regular
// expressions and basic values; and that no code assigns a package-level
// variable of theirs (in init or anywhere else). A driver that analyzes
// many packages in one process, concurrently (golangci-lint, nogo with
// workers, the checker), would otherwise leak state between them.
func TestNoGlobalState(t *testing.T) {
	_, pkgs := analyzerPackages(t)
	globals := map[*types.Var]bool{}
	for _, p := range pkgs {
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			v, ok := scope.Lookup(name).(*types.Var)
			if !ok {
				continue
			}
			globals[v] = true
			switch {
			case name == "Analyzer" && v.Type().String() == "*golang.org/x/tools/go/analysis.Analyzer":
			case immutableType(v.Type()):
			default:
				t.Errorf("%s: package-level variable %s of type %s is mutable state",
					p.Fset.Position(v.Pos()), name, v.Type())
			}
		}
	}
	for _, p := range pkgs {
		assigned := func(e ast.Expr) {
			id, ok := ast.Unparen(e).(*ast.Ident)
			if !ok {
				return
			}
			if v, ok := p.TypesInfo.Uses[id].(*types.Var); ok && globals[v] {
				t.Errorf("%s: assignment to the package-level variable %s", p.Fset.Position(id.Pos()), id.Name)
			}
		}
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					for _, lhs := range n.Lhs {
						assigned(lhs)
					}
				case *ast.IncDecStmt:
					assigned(n.X)
				case *ast.RangeStmt:
					if n.Tok == token.ASSIGN {
						assigned(n.Key)
						if n.Value != nil {
							assigned(n.Value)
						}
					}
				case *ast.UnaryExpr:
					if n.Op == token.AND {
						assigned(n.X) // its address escapes: it may be written
					}
				}
				return true
			})
		}
	}
}

// forbidden reports whether a function reads or acts outside the pass:
// the file system, the environment, processes, the network, or loading
// packages by itself.
func forbidden(fn *ssa.Function) bool {
	if fn.Pkg == nil {
		if o := fn.Origin(); o != nil && o.Pkg != nil {
			fn = o
		} else {
			return false
		}
	}
	switch path := fn.Pkg.Pkg.Path(); path {
	case "os", "os/exec", "io/ioutil", "net", "net/http", "syscall", "plugin", "os/signal",
		"golang.org/x/tools/go/packages":
		return true
	case "go/parser":
		return fn.Name() == "ParseFile" || fn.Name() == "ParseDir"
	case "go/build":
		return strings.HasPrefix(fn.Name(), "Import")
	}
	return false
}

// TestAnalyzersReadOnlyThePass checks, over the static call graph of the
// analyzers' packages, that no function their Run functions call reads
// files, the environment or the network, or starts processes: nogo runs
// them in a sandbox with the package's files only, and their results
// must depend on the pass alone. (Calls through interfaces and function
// values are not followed.)
func TestAnalyzersReadOnlyThePass(t *testing.T) {
	pkgOf, pkgs := analyzerPackages(t)
	prog, ssapkgs := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	cg := static.CallGraph(prog)
	byPath := map[string]*ssa.Package{}
	for _, p := range ssapkgs {
		byPath[p.Pkg.Path()] = p
	}
	for _, a := range allAnalyzers() {
		path, ok := pkgOf[a]
		if !ok {
			continue
		}
		_, name := runFunc(a)
		run := byPath[path].Func(name)
		if run == nil {
			t.Errorf("%s: Run is %s.%s, not a function declared in its package", a.Name, path, name)
			continue
		}
		// Breadth-first, to report a shortest path.
		from := map[*ssa.Function]*ssa.Function{run: nil}
		queue := []*ssa.Function{run}
		for len(queue) > 0 {
			fn := queue[0]
			queue = queue[1:]
			if forbidden(fn) {
				var chain []string
				for f := fn; f != nil; f = from[f] {
					chain = append([]string{f.String()}, chain...)
				}
				t.Errorf("%s: Run reaches %s:\n\t%s", a.Name, fn, strings.Join(chain, "\n\t→ "))
				continue
			}
			node := cg.Nodes[fn]
			if node == nil {
				continue
			}
			for _, e := range node.Out {
				if _, seen := from[e.Callee.Func]; !seen {
					from[e.Callee.Func] = fn
					queue = append(queue, e.Callee.Func)
				}
			}
		}
	}
}

// TestFacts checks the analyzers' facts: an analyzer whose package
// imports or exports facts declares their types in FactTypes, each a
// pointer to a gob-encodable struct; and, on a module whose packages
// exchange facts, every fact encodes and decodes with encoding/gob,
// deterministically (the checker's SanityCheck), as nogo and go vet
// store them between packages.
func TestFacts(t *testing.T) {
	pkgOf, pkgs := analyzerPackages(t)
	byPath := map[string]*packages.Package{}
	for _, p := range pkgs {
		byPath[p.PkgPath] = p
	}
	factCalls := map[string]bool{"ExportObjectFact": true, "ExportPackageFact": true, "ImportObjectFact": true,
		"ImportPackageFact": true, "AllObjectFacts": true, "AllPackageFacts": true}
	for _, a := range allAnalyzers() {
		path, ok := pkgOf[a]
		if !ok {
			continue
		}
		p := byPath[path]
		usesFacts := false
		for _, sel := range p.TypesInfo.Selections {
			if recv, ok := sel.Recv().(*types.Pointer); ok && sel.Kind() == types.FieldVal &&
				recv.Elem().String() == "golang.org/x/tools/go/analysis.Pass" && factCalls[sel.Obj().Name()] {
				usesFacts = true
			}
		}
		if usesFacts && len(a.FactTypes) == 0 {
			t.Errorf("%s: package %s uses facts but the analyzer declares no FactTypes", a.Name, path)
		}
		for _, f := range a.FactTypes {
			T := reflect.TypeOf(f)
			if T.Kind() != reflect.Pointer || T.Elem().Kind() != reflect.Struct {
				t.Errorf("%s: fact type %s is not a pointer to a struct", a.Name, T)
				continue
			}
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(f); err != nil {
				t.Errorf("%s: fact type %s does not gob-encode: %v", a.Name, T, err)
			}
		}
	}

	dir, err := filepath.Abs("../../runtime/sarif/testdata/vetmod")
	if err != nil {
		t.Fatal(err)
	}
	roots, err := load.Packages(dir, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(suite.Analyzers(), roots, &checker.Options{SanityCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]int{}
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		if act.Package.PkgPath == "example.com/vetmod/lib" {
			for _, f := range act.AllPackageFacts() {
				exported[reflect.TypeOf(f.Fact).String()]++
			}
			for _, f := range act.AllObjectFacts() {
				exported[reflect.TypeOf(f.Fact).String()]++
			}
		}
	}
	// lib's facts reached app, encoded and decoded: the lock orders and
	// the summaries.
	for _, want := range []string{"*lockorder.Edges", "*summary.Fact"} {
		if exported[want] == 0 {
			t.Errorf("no %s fact of package lib went through gob (facts seen: %v)", want, exported)
		}
	}
}

// TestNogoDoc checks that the nogo target of docs/CI.md lists every
// diagnostic analyzer of the suite (all but deps, which reports
// nothing), and that its configuration names them.
func TestNogoDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/CI.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	_, nogo, _ := strings.Cut(text, "nogo(\n")
	nogo, _, _ = strings.Cut(nogo, "\n)\n")
	_, config, _ := strings.Cut(text, "```json\n")
	config, _, _ = strings.Cut(config, "```")
	var listed []string
	for _, m := range regexp.MustCompile(`"@com_github_depcon_depcon//analyzers/(\w+)"`).FindAllStringSubmatch(nogo, -1) {
		listed = append(listed, m[1])
	}
	var want []string
	for _, a := range suite.Analyzers() {
		want = append(want, a.Name)
		if !strings.Contains(config, `"`+a.Name+`": {`) {
			t.Errorf("the nogo configuration of docs/CI.md does not configure %s", a.Name)
		}
	}
	if !slices.Equal(listed, want) {
		t.Errorf("the nogo target of docs/CI.md lists %v, want the suite's diagnostic analyzers %v", listed, want)
	}
}
