package lsp

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/analyzers/suite"
	"github.com/depcon/depcon/runtime/driver"
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

// A staticDiag is a diagnostic of an analyzer, with the methods it
// concerns, so that a test's violation can confirm it.
type staticDiag struct {
	uri  protocol.DocumentURI
	diag protocol.Diagnostic
	// typ is the receiver type of the method the diagnostic is in ("" if
	// it is in a function); methods are the methods of typ that its
	// position and its related positions are in.
	typ     string
	methods map[string]bool
	// lines holds "file:line" of its position and related positions.
	lines map[string]bool
}

// A typeInfo is a type of the package that has dependent method pairs.
type typeInfo struct {
	name  string
	loc   protocol.Location // the type's name in its declaration
	pairs int               // dependent pairs of the plan's full view
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
	graph, err := checker.Analyze(suite.Analyzers(), pkgs, nil)
	if err != nil {
		return nil, err
	}
	pkg := pkgs[0]
	a := &pkgResult{dir: dir, pkgPath: pkg.PkgPath, files: pkg.GoFiles}
	m := newMapper()
	idx := newFuncIndex(pkg)
	var errs []error
	for _, act := range graph.Roots {
		if act.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", act.Analyzer.Name, act.Err))
			continue
		}
		if act.Analyzer == deps.Analyzer {
			var plan deps.Plan
			if act.PackageFact(act.Package.Types, &plan) {
				a.types = typeInfos(pkg, &plan, m)
			}
		}
		for _, d := range act.Diagnostics {
			a.static = append(a.static, staticOf(pkg.Fset, act.Analyzer, d, m, idx))
		}
	}
	sort.SliceStable(a.static, func(i, j int) bool {
		x, y := a.static[i], a.static[j]
		if x.uri != y.uri {
			return x.uri < y.uri
		}
		return x.diag.Range.Start.Line < y.diag.Range.Start.Line
	})
	return a, errors.Join(errs...)
}

// staticOf converts an analyzer's diagnostic.
func staticOf(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic, m *mapper, idx *funcIndex) *staticDiag {
	start := fset.Position(d.Pos)
	var end token.Position
	if d.End.IsValid() {
		end = fset.Position(d.End)
	}
	sd := &staticDiag{
		uri: fileURI(start.Filename),
		diag: protocol.Diagnostic{
			Range:           m.rangeOf(start, end),
			Severity:        protocol.DiagnosticSeverityWarning,
			Code:            a.Name,
			CodeDescription: &protocol.CodeDescription{Href: protocol.URI(docBase + analyzerPackage(a))},
			Source:          "depcon",
			Message:         d.Message,
		},
		methods: map[string]bool{},
		lines:   map[string]bool{lineKey(start): true},
	}
	if typ, meth := idx.enclosing(d.Pos); typ != "" {
		sd.typ = typ
		sd.methods[meth] = true
	}
	for _, r := range d.Related {
		p := fset.Position(r.Pos)
		var e token.Position
		if r.End.IsValid() {
			e = fset.Position(r.End)
		}
		sd.diag.RelatedInformation = append(sd.diag.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: fileURI(p.Filename), Range: m.rangeOf(p, e)},
			Message:  r.Message,
		})
		sd.lines[lineKey(p)] = true
		if typ, meth := idx.enclosing(r.Pos); typ != "" && typ == sd.typ {
			sd.methods[meth] = true
		}
	}
	return sd
}

func lineKey(p token.Position) string { return fmt.Sprintf("%s:%d", p.Filename, p.Line) }

// analyzerPackage returns the import path of the package that declares
// the analyzer (that of its Run function), or its name under
// github.com/depcon/depcon/analyzers when that cannot be told.
func analyzerPackage(a *analysis.Analyzer) string {
	if a.Run != nil {
		if f := runtime.FuncForPC(reflect.ValueOf(a.Run).Pointer()); f != nil {
			name := f.Name() // path/to/pkg.run or path/to/pkg.(*T).run
			slash := strings.LastIndexByte(name, '/')
			if dot := strings.IndexByte(name[slash+1:], '.'); dot > 0 {
				return name[:slash+1+dot]
			}
		}
	}
	return "github.com/depcon/depcon/analyzers/" + a.Name
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
		t := &typeInfo{name: tp.Name, loc: m.location(pkg.Fset.Position(obj.Pos())), pairs: len(tp.Pairs),
			concurrent: tp.Concurrent, methods: map[string]protocol.Location{}}
		mset := types.NewMethodSet(types.NewPointer(obj.Type()))
		for _, meth := range tp.Methods {
			if p, ok := parsePos(meth.Pos); ok {
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

// A funcIndex tells the method a position is in.
type funcIndex struct {
	funcs []funcSpan
}

type funcSpan struct {
	start, end token.Pos
	recv, name string
}

func newFuncIndex(pkg *packages.Package) *funcIndex {
	idx := &funcIndex{}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			span := funcSpan{start: fd.Pos(), end: fd.End(), name: fd.Name.Name}
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				span.recv = driver.ReceiverName(fd.Recv.List[0].Type)
			}
			idx.funcs = append(idx.funcs, span)
		}
	}
	return idx
}

// enclosing returns the receiver type and the name of the method that
// declares pos ("", "" when pos is not in a method).
func (idx *funcIndex) enclosing(pos token.Pos) (typ, method string) {
	for _, f := range idx.funcs {
		if f.start <= pos && pos < f.end && f.recv != "" {
			return f.recv, f.name
		}
	}
	return "", ""
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
