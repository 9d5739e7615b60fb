// Package report holds what the diagnostic analyzers share: the functions
// of a package to report on, and how sites are named in messages.
package report

import (
	"go/token"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

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
func (f Func) Name(loc string) string { return summary.Display(loc, f.Names) }

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
