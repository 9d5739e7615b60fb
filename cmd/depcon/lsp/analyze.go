package lsp

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/analyzers/suite"
	"github.com/depcon/depcon/runtime/load"
)

// A pkgResult is the result of running the analyzer suite over the
// package of one directory.
type pkgResult struct {
	dir     string
	pkgPath string
	files   []string // the package's Go files
	static  []*staticDiag
	types   []*typeInfo // the types of the plan with dependent pairs
}

// A staticDiag is a diagnostic of an analyzer, as published, with the
// analysis's own (src), which a test's violation may confirm.
type staticDiag struct {
	uri  protocol.DocumentURI
	diag protocol.Diagnostic
	src  *load.Diagnostic
}

// A typeInfo is a type of the package that has dependent method pairs.
type typeInfo struct {
	name string
	loc  protocol.Location // the type's name in its declaration
	// pairs are the dependent pairs of the plan's full view (a test of
	// one may confirm a diagnostic).
	pairs []deps.Pair
	// concurrent is set when the type looks meant for concurrent use
	// (deps.TypePlan.Concurrent): depcon test tests it by default.
	concurrent bool
	methods    map[string]protocol.Location
}

// method returns the declaration of the named method, or the type's.
func (t *typeInfo) method(name string) protocol.Location {
	if loc, ok := t.methods[name]; ok {
		return loc
	}
	return t.loc
}

// typeInfo returns the named type, or nil.
func (a *pkgResult) typeInfo(name string) *typeInfo {
	for _, t := range a.types {
		if t.name == name {
			return t
		}
	}
	return nil
}

// docBase is the pkg.go.dev page analyzers' packages are documented on.
const docBase = "https://pkg.go.dev/"

// analyze loads the package in dir and runs the suite of analyzers over
// it (and, for their facts, over its dependencies).
func analyze(dir string) (*pkgResult, error) {
	pkgs, err := load.Packages(dir, []string{"."})
	if err != nil {
		return nil, err
	}
	res, err := load.Analyze(pkgs)
	if err != nil {
		return nil, err
	}
	pkg := pkgs[0]
	a := &pkgResult{dir: dir, pkgPath: pkg.PkgPath, files: pkg.GoFiles}
	m := newMapper()
	if plan := res.Plans[pkg.PkgPath]; plan != nil {
		a.types = typeInfos(pkg, plan, m)
	}
	x := newSyntaxIndex(pkg.Fset, pkg.Syntax)
	for _, d := range res.Diagnostics {
		a.static = append(a.static, staticOf(d, m, x))
	}
	return a, errors.Join(res.Errors...)
}

// staticOf converts an analyzer's diagnostic. Its ranges, and those of
// its related positions, that have no end are those of the expressions
// they name in the package's syntax x (see syntaxRange).
func staticOf(d *load.Diagnostic, m *mapper, x *syntaxIndex) *staticDiag {
	sd := &staticDiag{
		uri: fileURI(d.Pos.Filename),
		diag: protocol.Diagnostic{
			Range:           syntaxRange(m, x, d.Pos, d.End),
			Severity:        protocol.DiagnosticSeverityWarning,
			Code:            d.Analyzer,
			CodeDescription: &protocol.CodeDescription{Href: protocol.URI(docBase + analyzerPackage(d.Analyzer))},
			Source:          "depcon",
			Message:         d.Message,
		},
		src: d,
	}
	for _, r := range d.Related {
		sd.diag.RelatedInformation = append(sd.diag.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: fileURI(r.Pos.Filename), Range: syntaxRange(m, x, r.Pos, r.End)},
			Message:  r.Message,
		})
	}
	return sd
}

// syntaxRange returns the range from start to end or, when end is
// missing or not after start, that of the call or expression start
// names in x (syntaxIndex.span), or else the word at start
// (mapper.rangeOf).
func syntaxRange(m *mapper, x *syntaxIndex, start, end token.Position) protocol.Range {
	if !hasEnd(start, end) {
		if s, e, ok := x.span(start); ok {
			return m.rangeOf(s, e)
		}
	}
	return m.rangeOf(start, end)
}

// analyzerPackage returns the import path of the package that declares
// the suite's analyzer name (that of its Run function), or its name
// under github.com/depcon/depcon/analyzers when that cannot be told.
func analyzerPackage(name string) string {
	for _, a := range suite.Analyzers() {
		if a.Name != name || a.Run == nil {
			continue
		}
		if f := runtime.FuncForPC(reflect.ValueOf(a.Run).Pointer()); f != nil {
			fn := f.Name() // path/to/pkg.run or path/to/pkg.(*T).run
			slash := strings.LastIndexByte(fn, '/')
			if dot := strings.IndexByte(fn[slash+1:], '.'); dot > 0 {
				return fn[:slash+1+dot]
			}
		}
	}
	return "github.com/depcon/depcon/analyzers/" + name
}

// typeInfos returns the types of plan with dependent pairs, in the
// order of their declarations.
func typeInfos(pkg *packages.Package, plan *deps.Plan, m *mapper) []*typeInfo {
	var out []*typeInfo
	for _, tp := range plan.All {
		if len(tp.Pairs) == 0 {
			continue
		}
		obj, ok := pkg.Types.Scope().Lookup(tp.Name).(*types.TypeName)
		if !ok {
			continue
		}
		t := &typeInfo{name: tp.Name, loc: m.location(pkg.Fset.Position(obj.Pos())), pairs: tp.Pairs,
			concurrent: tp.Concurrent, methods: map[string]protocol.Location{}}
		mset := types.NewMethodSet(types.NewPointer(obj.Type()))
		for _, meth := range tp.Methods {
			if p, ok := load.ParsePosition(meth.Pos); ok {
				t.methods[meth.Name] = m.location(p)
			} else if sel := mset.Lookup(obj.Pkg(), meth.Name); sel != nil && sel.Obj().Pos().IsValid() {
				t.methods[meth.Name] = m.location(pkg.Fset.Position(sel.Obj().Pos()))
			}
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].loc, out[j].loc
		if a.URI != b.URI {
			return a.URI < b.URI
		}
		return a.Range.Start.Line < b.Range.Start.Line
	})
	return out
}

// stamp returns a fingerprint of the Go files of dir and of the go.mod
// and go.sum above it: when it is unchanged, so is the analysis (as far
// as the package itself goes).
func stamp(dir string) string {
	var b strings.Builder
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") {
			if fi, err := e.Info(); err == nil {
				fmt.Fprintf(&b, "%s %d %d\n", e.Name(), fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	for d := dir; ; {
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			fmt.Fprintf(&b, "go.mod %d %d\n", fi.Size(), fi.ModTime().UnixNano())
			if fi, err := os.Stat(filepath.Join(d, "go.sum")); err == nil {
				fmt.Fprintf(&b, "go.sum %d %d\n", fi.Size(), fi.ModTime().UnixNano())
			}
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return b.String()
}
