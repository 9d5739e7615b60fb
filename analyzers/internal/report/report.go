// Package report holds what the diagnostic analyzers share.
//
// That is the functions of a package to report on, and how sites are named
// in messages.
package report

import (
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

// Func is a function of the package with its summary and the names of
// its roots for messages.
type Func struct {
	Fn      *ssa.Function
	Summary *summary.Summary
	Names   []string
}

// Name renders a location of the function for people ("recv.mu").
func (f Func) Name(loc string) string { return lockstate.Display(loc, f.Names) }

// Funcs returns the package's source functions that have a summary, in
// source order. Closures are skipped: their effects are reported in the
// function that calls them.
func Funcs(pass *analysis.Pass) []Func {
	res := pass.ResultOf[summary.Analyzer].(*summary.Result)
	var out []Func
	for _, fn := range res.SSA.SrcFuncs {
		if fn.Parent() != nil {
			continue
		}
		s := res.Of(fn)
		if s == nil {
			continue
		}
		out = append(out, Func{Fn: fn, Summary: s, Names: summary.ParamNames(fn)})
	}
	return out
}

// Short renders a file:line:col position with the file's base name.
func Short(where string) string {
	if where == "" {
		return "another package"
	}
	return filepath.Base(where)
}

// Related returns the related information for a site, or nil when it is
// not in this package.
func Related(pos token.Pos, msg string) []analysis.RelatedInformation {
	if !pos.IsValid() {
		return nil
	}
	return []analysis.RelatedInformation{{Pos: pos, Message: msg}}
}

// Via renders " (through a call of f)" for a lock or access that happens
// in a callee.
func Via(via string) string {
	if via == "" {
		return ""
	}
	return " (in " + via + ")"
}

// InTestFile reports whether pos lies in a _test.go file.
func InTestFile(pass *analysis.Pass, pos token.Pos) bool {
	f := pass.Fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// TestUse reports whether a function declared at pos is test code using
// the package's own types: it lies in a _test.go file while the types
// named by classes ("pkg/path.T.f", see lockstate.TypeClass) are declared
// in the package's other files or in other packages. A test drives the
// package from one goroutine, or through hooks (export_test.go) that only
// tests call: its lock orders and unguarded writes are not the type's.
// Code under test written in a test file (a type declared there) is
// reported as any other.
func TestUse(pass *analysis.Pass, pos token.Pos, classes ...string) bool {
	if !InTestFile(pass, pos) {
		return false
	}
	for _, c := range classes {
		if obj := typeOfClass(pass, c); obj != nil && InTestFile(pass, obj.Pos()) {
			return false
		}
	}
	return true
}

// typeOfClass returns the type name a class of this package names
// ("pkg/path.T" or "pkg/path.T.f…"), nil for another package's.
func typeOfClass(pass *analysis.Pass, class string) *types.TypeName {
	rest, ok := strings.CutPrefix(class, pass.Pkg.Path()+".")
	if !ok {
		return nil
	}
	name, _, _ := strings.Cut(rest, ".")
	obj, _ := pass.Pkg.Scope().Lookup(name).(*types.TypeName)
	return obj
}
