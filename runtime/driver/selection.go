package driver

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/testgen"
	"golang.org/x/tools/go/packages"
)

// confirming returns the view of tp restricted to the pairs whose tests
// can confirm one of diags (the methods stay: prefixes call them).
func confirming(tp *deps.TypePlan, diags []*load.Diagnostic) *deps.TypePlan {
	v := *tp
	v.Pairs = nil
	for _, p := range tp.Pairs {
		if slices.ContainsFunc(diags, func(d *load.Diagnostic) bool { return d.Concerns(p.M1, p.M2, p.Evidence) }) {
			v.Pairs = append(v.Pairs, p)
		}
	}
	return &v
}

// selectTypes returns the subjects of the types of plan that cfg selects,
// and reports for the selected types that cannot be tested. Without
// -type, the types meant for concurrent use are selected (Concurrent)
// that a user can obtain: the exported ones, and the unexported ones that
// an exported function or method returns, as themselves or behind an
// interface of any package (see returnedTypes and behindInterfaces), each
// with its exported methods; with -unexported (the default in package
// main), every type and its unexported methods too. Iterators are
// left out (see isIterator). A type that -type names is selected with
// all its methods. When only is not nil (Config.Confirm), the types it
// has diagnostics for are selected as if named, each with the pairs
// that can confirm them, and no other.
//
// hidden lists the unexported types with synchronisation left out for
// want of -unexported.
func selectTypes(pkg *packages.Package, plan *deps.Plan, cfg Config, only map[string][]*load.Diagnostic) (
	subjects []*testgen.Subject, skipped []*typeResult, hidden []string) {
	re := cfg.TypeRE
	unexported := cfg.Unexported || pkg.Name == "main"
	behind := behindInterfaces(pkg.Types)
	waits := signalledWaits(pkg.Syntax, pkg.TypesInfo)
	isIterator := func(name string) bool { return isIterator(pkg.Types, name, waits) }
	for name := range returnedTypes(pkg) {
		behind[name] = true
	}
	var facts *packageFacts // read once, for the first subject
	for _, tp := range plan.All {
		named := re != nil && re.MatchString(tp.Name)
		if only != nil && len(only[tp.Name]) == 0 {
			continue
		}
		wanted := named || only != nil // iterators are left out all the same
		switch {
		case re == nil && tp.NotShared != "" && tp.Exported:
			tr := newTypeReport(pkg.PkgPath, tp.ExportedOnly())
			tr.Skipped = fmt.Sprintf("meant for one goroutine at a time (%s); -type '^%s$' tests it",
				tp.NotShared, tp.Name)
			skipped = append(skipped, tr)
			continue
		case re != nil && !named, re == nil && !tp.Concurrent && !wanted:
			continue
		case !tp.Exported && !unexported && !wanted && !behind[tp.Name]:
			if tp.Concurrent && re == nil && only == nil && !isIterator(tp.Name) {
				hidden = append(hidden, tp.Name)
			}
			continue
		case !named && tp.Exported && isIterator(tp.Name):
			// One consumer at a time, by convention: sharing it is misuse.
			tr := newTypeReport(pkg.PkgPath, tp.ExportedOnly())
			tr.Skipped = fmt.Sprintf("an iterator (one consumer at a time); -type '^%s$' tests it",
				tp.Name)
			skipped = append(skipped, tr)
			continue
		case !named && isIterator(tp.Name):
			continue
		}
		// Naming a type selects it; it does not make its unexported
		// methods, helpers that may expect their caller's locks, entry
		// points (-unexported does).
		view := tp
		if !unexported {
			view = tp.ExportedOnly()
		}
		if only != nil {
			view = confirming(view, only[tp.Name])
		}
		if len(view.Methods) == 0 {
			continue
		}
		s, err := testgen.NewSubject(pkg.Types, view)
		if err != nil {
			tr := newTypeReport(pkg.PkgPath, view)
			tr.Skipped = err.Error()
			skipped = append(skipped, tr)
			continue
		}
		if facts == nil {
			facts = readPackage(pkg)
		}
		facts.describe(pkg, s, tp.Name)
		subjects = append(subjects, s)
	}
	return subjects, skipped, hidden
}

// behindInterfaces returns the unexported types of pkg that may be
// returned by an exported function of the package behind an interface
// the package declares (NewSet() Set returning a *threadSafeSet).
func behindInterfaces(pkg *types.Package) map[string]bool {
	scope := pkg.Scope()
	var ifaces []*types.Interface
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		res := fn.Type().(*types.Signature).Results()
		if res.Len() == 0 {
			continue
		}
		n, ok := res.At(0).Type().(*types.Named)
		if !ok || n.Obj().Pkg() != pkg {
			continue
		}
		if iface, ok := n.Underlying().(*types.Interface); ok && !iface.Empty() {
			ifaces = append(ifaces, iface)
		}
	}
	out := map[string]bool{}
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.Exported() || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		t := tn.Type()
		if n, ok := t.(*types.Named); ok && n.TypeParams().Len() > 0 {
			// Check the generic type's methods by name: instantiating it
			// against an instantiated interface is not needed here.
			t = n.Origin()
		}
		for _, iface := range ifaces {
			if implementsByName(t, iface) {
				out[name] = true
				break
			}
		}
	}
	return out
}

// returnedTypes returns the unexported named types of pkg that an
// exported function, or an exported method of an exported type (a
// builder's Build), returns: the static type of an expression of one of
// its return statements is the type or a pointer to it, whatever the
// declared result (NewFlusher() io.WriteCloser returning &flusher{}).
func returnedTypes(pkg *packages.Package) map[string]bool {
	out := map[string]bool{}
	if pkg.TypesInfo == nil {
		return out
	}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !fd.Name.IsExported() || !exportedRecv(fd) {
				continue
			}
			returned(fd.Body, pkg, out)
		}
	}
	return out
}

// returned adds to out the unexported named types of pkg that the
// return statements of body return, and those of the function literals
// it returns in turn: a middleware's constructor returning a func that
// returns the type (func(next Runner) Runner { return &breaker{…} }).
// Other function literals' returns are their own.
func returned(body *ast.BlockStmt, pkg *packages.Package, out map[string]bool) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
					returned(lit.Body, pkg, out)
					continue
				}
				if tn := unexportedNamed(pkg.TypesInfo.TypeOf(e), pkg.Types); tn != "" {
					out[tn] = true
				}
			}
		}
		return true
	})
}

// exportedRecv reports whether fd is a function, or a method of an
// exported type.
func exportedRecv(fd *ast.FuncDecl) bool {
	return fd.Recv == nil || len(fd.Recv.List) == 0 || token.IsExported(load.ReceiverName(fd.Recv.List[0].Type))
}

// unexportedNamed returns the name of the unexported named type of pkg
// that t is, or points to; "" otherwise.
func unexportedNamed(t types.Type, pkg *types.Package) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != pkg || n.Obj().Exported() || types.IsInterface(n) {
		return ""
	}
	return n.Obj().Name()
}

// implementsByName reports whether *t has a method of every name of
// iface (generic types and interfaces are compared by method names).
func implementsByName(t types.Type, iface *types.Interface) bool {
	mset := types.NewMethodSet(types.NewPointer(t))
	for i := range iface.NumMethods() {
		m := iface.Method(i)
		if mset.Lookup(m.Pkg(), m.Name()) == nil {
			return false
		}
	}
	return true
}
