package load

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/analyzers/suite"
)

// A Diagnostic is a diagnostic of one of the suite's analyzers, with the
// methods it concerns: what a generated test of a method pair needs to
// confirm it.
type Diagnostic struct {
	Analyzer string
	Package  string // import path
	Pos, End token.Position
	Message  string
	Related  []Related
	// Type is the receiver type of the method the diagnostic is in (""
	// when it is in a function); Methods are the methods of Type that
	// its position and its related positions are in, sorted.
	Type    string
	Methods []string
	// Elsewhere names the functions and the methods of other types that
	// its related positions are in ("Pool.Close", "Register"), sorted:
	// the other half of a deadlock between two types, for example.
	Elsewhere []string
}

// A Related is a position a diagnostic refers to.
type Related struct {
	Pos, End token.Position
	Message  string
}

// Analysis is the result of the suite's analyzers over root packages.
type Analysis struct {
	Plans       map[string]*deps.Plan // by package path
	Diagnostics []*Diagnostic         // of every root package, by position
	// Errors holds the failures of analyzers other than deps (whose
	// failure fails Analyze): their diagnostics are missing.
	Errors []error
}

// Analyze runs the suite's analyzers over pkgs and returns the plan and
// the diagnostics of each root package.
func Analyze(pkgs []*packages.Package) (*Analysis, error) {
	graph, err := checker.Analyze(suite.WithPlans(), pkgs, nil)
	if err != nil {
		return nil, err
	}
	a := &Analysis{Plans: map[string]*deps.Plan{}}
	index := map[*packages.Package]*funcIndex{}
	for _, act := range graph.Roots {
		pkg := act.Package
		if act.Err != nil {
			if act.Analyzer == deps.Analyzer {
				return nil, fmt.Errorf("%s: %w", pkg.PkgPath, act.Err)
			}
			a.Errors = append(a.Errors, fmt.Errorf("%s: %s: %w", pkg.PkgPath, act.Analyzer.Name, act.Err))
			continue
		}
		if act.Analyzer == deps.Analyzer {
			a.Plans[pkg.PkgPath] = planOf(act)
		}
		if len(act.Diagnostics) == 0 {
			continue
		}
		idx := index[pkg]
		if idx == nil {
			idx = newFuncIndex(pkg)
			index[pkg] = idx
		}
		for _, d := range act.Diagnostics {
			a.Diagnostics = append(a.Diagnostics, diagnosticOf(pkg, act.Analyzer, d, idx))
		}
	}
	slices.SortStableFunc(a.Diagnostics, func(x, y *Diagnostic) int {
		return cmp.Or(cmp.Compare(x.Pos.Filename, y.Pos.Filename), cmp.Compare(x.Pos.Line, y.Pos.Line),
			cmp.Compare(x.Pos.Column, y.Pos.Column), cmp.Compare(x.Analyzer, y.Analyzer))
	})
	return a, nil
}

// diagnosticOf converts an analyzer's diagnostic.
func diagnosticOf(pkg *packages.Package, a *analysis.Analyzer, d analysis.Diagnostic, idx *funcIndex) *Diagnostic {
	fset := pkg.Fset
	out := &Diagnostic{Analyzer: a.Name, Package: pkg.PkgPath, Pos: fset.Position(d.Pos), Message: d.Message}
	if d.End.IsValid() {
		out.End = fset.Position(d.End)
	}
	methods, elsewhere := map[string]bool{}, map[string]bool{}
	if typ, meth := idx.enclosing(d.Pos); typ != "" {
		out.Type = typ
		methods[meth] = true
	}
	for _, r := range d.Related {
		rel := Related{Pos: fset.Position(r.Pos), Message: r.Message}
		if r.End.IsValid() {
			rel.End = fset.Position(r.End)
		}
		out.Related = append(out.Related, rel)
		switch typ, fn := idx.enclosing(r.Pos); {
		case fn == "":
		case typ != "" && typ == out.Type:
			methods[fn] = true
		case typ != "":
			elsewhere[typ+"."+fn] = true
		default:
			elsewhere[fn] = true
		}
	}
	out.Methods = slices.Sorted(maps.Keys(methods))
	if len(elsewhere) > 0 {
		out.Elsewhere = slices.Sorted(maps.Keys(elsewhere))
	}
	return out
}

// String renders the diagnostic as go vet does: "file:line:col: message".
func (d *Diagnostic) String() string { return fmt.Sprintf("%s: %s", d.Pos, d.Message) }

// Concerns reports whether a test of the method pair m1 ∥ m2 of the
// diagnostic's type, dependent by evidence ev, can confirm it: both
// methods are among those the diagnostic and its related positions are
// in, or one of the evidence's positions is on the line of one of them.
// It is the one rule that ties a static diagnostic to a generated test.
func (d *Diagnostic) Concerns(m1, m2 string, ev []deps.Evidence) bool {
	if d.Type == "" {
		return false
	}
	if slices.Contains(d.Methods, m1) && slices.Contains(d.Methods, m2) {
		return true
	}
	lines := []token.Position{d.Pos}
	for _, r := range d.Related {
		lines = append(lines, r.Pos)
	}
	for _, e := range ev {
		for _, s := range []string{e.Pos1, e.Pos2} {
			p, ok := ParsePosition(s)
			if !ok {
				continue
			}
			for _, l := range lines {
				if l.Line == p.Line && l.Filename == p.Filename {
					return true
				}
			}
		}
	}
	return false
}

// ParsePosition parses "file:line:col" or "file:line" (the file may
// hold colons).
func ParsePosition(s string) (token.Position, bool) {
	var p token.Position
	rest, last, ok := cutLast(s)
	if !ok {
		return p, false
	}
	n, err := strconv.Atoi(last)
	if err != nil || n <= 0 {
		return p, false
	}
	if file, line, ok := cutLast(rest); ok {
		if l, err := strconv.Atoi(line); err == nil && l > 0 {
			return token.Position{Filename: file, Line: l, Column: n}, true
		}
	}
	return token.Position{Filename: rest, Line: n}, true
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// A funcIndex tells the method a position is in.
type funcIndex struct{ funcs []funcSpan }

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
				span.recv = ReceiverName(fd.Recv.List[0].Type)
			}
			idx.funcs = append(idx.funcs, span)
		}
	}
	return idx
}

// enclosing returns the receiver type and the name of the method that
// declares pos, "" and the name of the function, or "", "" when pos is
// in no declared function.
func (idx *funcIndex) enclosing(pos token.Pos) (typ, fn string) {
	for _, f := range idx.funcs {
		if f.start <= pos && pos < f.end {
			return f.recv, f.name
		}
	}
	return "", ""
}

// ReceiverName returns the name of the type of a method's receiver
// expression: T for T, *T, T[K] and *T[K]; "" for anything else.
func ReceiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
