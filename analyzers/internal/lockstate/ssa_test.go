package lockstate

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// The tests build small packages from source text: example.com/p, which
// may import sync (the compiler's export data, no network).

const testPkgPath = "example.com/p"

// build type-checks src as package example.com/p and builds it to SSA.
func build(t *testing.T, src string) (*ssa.Package, *token.FileSet) {
	t.Helper()
	return buildAt(t, testPkgPath, src)
}

// buildAt is build with the package at import path path.
func buildAt(t *testing.T, path, src string) (*ssa.Package, *token.FileSet) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	conf := &types.Config{Importer: importer.Default()}
	pkg, _, err := ssautil.BuildPackage(conf, fset, types.NewPackage(path, "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	return pkg, fset
}

// function returns the function of pkg named name relative to the
// package: "f", "(*T).m", "T.m", "(*T).m$1" for a closure.
func function(t *testing.T, pkg *ssa.Package, name string) *ssa.Function {
	t.Helper()
	for _, fn := range functions(pkg) {
		if fn.RelString(pkg.Pkg) == name {
			return fn
		}
	}
	t.Fatalf("no function %s in %s", name, pkg.Pkg.Path())
	return nil
}

// functions returns the functions declared in pkg, methods and closures
// included.
func functions(pkg *ssa.Package) []*ssa.Function {
	var out []*ssa.Function
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil || fn.Pkg != pkg || fn.Synthetic != "" {
			return
		}
		out = append(out, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, m := range pkg.Members {
		switch m := m.(type) {
		case *ssa.Function:
			add(m)
		case *ssa.Type:
			for _, t := range []types.Type{m.Type(), types.NewPointer(m.Type())} {
				for sel := range pkg.Prog.MethodSets.MethodSet(t).Methods() {
					if fn := pkg.Prog.MethodValue(sel); !slices.Contains(out, fn) {
						add(fn)
					}
				}
			}
		}
	}
	return out
}

// calls returns the calls of fn to the function (or method) named name,
// in the order of the function's blocks and instructions.
func calls(fn *ssa.Function, name string) []*ssa.Call {
	var out []*ssa.Call
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(*ssa.Call); ok && calleeName(&c.Call) == name {
				out = append(out, c)
			}
		}
	}
	return out
}

// calleeName names a call's callee: "use", "Lock" for a method (static
// or invoked).
func calleeName(c *ssa.CallCommon) string {
	if c.IsInvoke() {
		return c.Method.Name()
	}
	if fn := c.StaticCallee(); fn != nil {
		return fn.Name()
	}
	return ""
}

// used returns the values fn passes to use(x any), in order, with their
// conversion to an interface removed.
func used(fn *ssa.Function) []ssa.Value {
	var out []ssa.Value
	for _, c := range calls(fn, "use") {
		v := c.Call.Args[0]
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = mi.X
		}
		out = append(out, v)
	}
	return out
}

// showPaths renders paths for comparison: "$0.x" for an address,
// "$0.x (loaded)" for a value read from memory, joined with " | ";
// "none" for nil.
func showPaths(ps []Path) string {
	if ps == nil {
		return "none"
	}
	var s []string
	for _, p := range ps {
		if p.Loaded {
			s = append(s, p.Str+" (loaded)")
		} else {
			s = append(s, p.Str)
		}
	}
	return strings.Join(s, " | ")
}
