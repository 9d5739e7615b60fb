package driver

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/runtime/testgen"
)

// maxLiterals bounds the string constants taken from a package.
const maxLiterals = 64

// stringLiterals returns the string constants of pkg's non-test files that
// could be arguments: the names and keys the package compares with, up to
// 32 bytes, printable, without newlines, in the order of the source,
// without repeats; at most maxLiterals.
func stringLiterals(pkg *packages.Package) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.CallExpr:
				// A message (errors.New, fmt.Errorf, panic) is no key.
				if fn := calleeName(n.Fun); fn == "New" || fn == "Errorf" || fn == "panic" || strings.HasSuffix(fn, "f") {
					return false
				}
			case *ast.BasicLit:
				if n.Kind != token.STRING || len(out) >= maxLiterals {
					return true
				}
				v, err := strconv.Unquote(n.Value)
				if err != nil || v == "" || len(v) > 32 || seen[v] || strings.ContainsAny(v, "\n\r\t%") || !printable(v) {
					return true
				}
				seen[v] = true
				out = append(out, v)
			}
			return true
		})
	}
	return out
}

func calleeName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

func printable(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// assertedTypes returns the types of the package, other than interfaces,
// that its code asserts interface values to (x.(T), x.(*T), a case of a
// type switch), in the order of the source, without repeats: the
// values an `any` parameter of its API must hold to get past its first
// check (a registry that keeps only the package's own metrics).
func assertedTypes(pkg *packages.Package) []types.Type {
	if pkg.TypesInfo == nil || pkg.Types == nil {
		return nil
	}
	var out []types.Type
	add := func(e ast.Expr) {
		t := pkg.TypesInfo.TypeOf(e)
		if t == nil || types.IsInterface(t) {
			return
		}
		base := t
		if p, ok := base.(*types.Pointer); ok {
			base = p.Elem()
		}
		n, ok := types.Unalias(base).(*types.Named)
		if !ok || n.Obj().Pkg() != pkg.Types || n.TypeParams().Len() > 0 {
			return
		}
		for _, o := range out {
			if types.Identical(o, t) {
				return
			}
		}
		out = append(out, t)
	}
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeAssertExpr:
				if n.Type != nil {
					add(n.Type)
				}
			case *ast.TypeSwitchStmt:
				for _, c := range n.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						add(e)
					}
				}
			}
			return true
		})
	}
	return out
}

// sharedGetters returns the package's functions that hand out a
// process-wide instance rather than build one: every return of the
// function returns a package-level variable, its address, or a field of
// one (GetDefaultSet returning defaultSet). The objects they return are
// shared by every test and iteration, so they are no constructors.
func sharedGetters(pkg *packages.Package) map[string]bool {
	out := map[string]bool{}
	if pkg.TypesInfo == nil {
		return out
	}
	global := func(e ast.Expr) bool {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.UnaryExpr:
				if x.Op != token.AND {
					return false
				}
				e = x.X
			case *ast.SelectorExpr:
				e = x.X
			case *ast.Ident:
				v, ok := pkg.TypesInfo.Uses[x].(*types.Var)
				return ok && !v.IsField() && v.Pkg() == pkg.Types && v.Parent() == pkg.Types.Scope()
			default:
				return false
			}
		}
	}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Body == nil || fd.Type.Results == nil {
				continue
			}
			returns, all := 0, true
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.ReturnStmt:
					returns++
					if len(n.Results) == 0 || !global(n.Results[0]) {
						all = false
					}
				}
				return true
			})
			if returns > 0 && all {
				out[fd.Name.Name] = true
			}
		}
	}
	return out
}

// packageFacts are what the driver reads from a package's source once,
// for all the subjects of the package.
type packageFacts struct {
	doc      string // the package's doc comment
	literals []string
	asserted []types.Type
	shared   map[string]bool
	clock    map[*types.Func]bool
}

func readPackage(pkg *packages.Package) *packageFacts {
	return &packageFacts{doc: contract.PackageDoc(pkg.Syntax), literals: stringLiterals(pkg), asserted: assertedTypes(pkg),
		shared: sharedGetters(pkg), clock: clockFuncs(pkg)}
}

// describe fills in what the source says of subject s, type typ of pkg:
// its documentation and its package's, the methods reading the clock, the package's
// literals and asserted types, and its constructors without the getters
// of a process-wide instance (moved to s.Shared).
func (f *packageFacts) describe(pkg *packages.Package, s *testgen.Subject, typ string) {
	s.Docs = contract.MethodDocs(pkg.Syntax, pkg.Types, pkg.TypesInfo, typ)
	s.TypeDoc, s.WrappedDoc = contract.TypeDoc(pkg.Syntax, typ), contract.WrappedDocs(pkg.Syntax, pkg.Types, typ)
	s.PkgDoc = f.doc
	s.Clock = methodsIn(pkg, typ, f.clock)
	s.Compared = comparedValues(pkg, typ)
	s.Literals, s.Asserted = f.literals, f.asserted
	s.Ctors = slices.DeleteFunc(s.Ctors, func(c *testgen.Func) bool {
		if f.shared[c.Name] {
			s.Shared = append(s.Shared, c.Name)
			return true
		}
		return false
	})
}
