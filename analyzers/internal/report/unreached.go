package report

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Unreached reports whether method m, of an unexported type of the
// package, is out of reach of the package's users: no code of the
// package's non-test files names it, no interface type the package uses
// has a method of its name that its type fulfils (a call through the
// interface could reach it), and no exported name of the package
// mentions its type (an importer could call it). Only tests can call
// such a method (an accessor that reads state for assertions), or none:
// its accesses are no race of the package, though they still say which
// lock guards a field. The answer is the same whether the pass sees the
// package's tests or not. A type declared in a test file is not judged
// so: it is the test's code under test.
func Unreached(pass *analysis.Pass, m *types.Func) bool {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || m.Pkg() != pass.Pkg {
		return false
	}
	recv := sig.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	named, ok := types.Unalias(recv).(*types.Named)
	if !ok || named.Obj().Exported() || named.Obj().Parent() != pass.Pkg.Scope() || InTestFile(pass, named.Obj().Pos()) {
		return false // a type a test file declares is code under test as any other (see TestUse)
	}
	origin := m.Origin()
	for id, obj := range pass.TypesInfo.Uses {
		if f, ok := obj.(*types.Func); ok && f.Origin() == origin && !InTestFile(pass, id.Pos()) {
			return false
		}
	}
	for sel, s := range pass.TypesInfo.Selections {
		if f, ok := s.Obj().(*types.Func); ok && f.Origin() == origin && !InTestFile(pass, sel.Pos()) {
			return false
		}
	}
	if viaInterface(pass, named, m.Name()) || exposed(pass, named.Obj()) {
		return false
	}
	return true
}

// viaInterface reports whether an interface type that the package uses
// has a method named name and is implemented by T or *T (t): a value of
// t converted to it may have the method called through it.
func viaInterface(pass *analysis.Pass, t *types.Named, name string) bool {
	ptr := types.NewPointer(t)
	for _, tv := range pass.TypesInfo.Types {
		iface, ok := tv.Type.Underlying().(*types.Interface)
		if !ok || iface.NumMethods() == 0 {
			continue
		}
		for i := range iface.NumMethods() {
			if iface.Method(i).Name() == name && (types.Implements(t, iface) || types.Implements(ptr, iface)) {
				return true
			}
		}
	}
	return false
}

// exposed reports whether an exported name of the package declares a
// type that mentions tn: an importer may then hold a value of it.
func exposed(pass *analysis.Pass, tn *types.TypeName) bool {
	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() || InTestFile(pass, obj.Pos()) {
			continue
		}
		if mentions(obj.Type(), tn, map[types.Type]bool{}) {
			return true
		}
		if tn2, ok := obj.(*types.TypeName); ok {
			// The exported methods of an exported type.
			if named, ok := types.Unalias(tn2.Type()).(*types.Named); ok {
				for i := range named.NumMethods() {
					if f := named.Method(i); f.Exported() && mentions(f.Type(), tn, map[types.Type]bool{}) {
						return true
					}
				}
			}
		}
	}
	return false
}

// mentions reports whether type t refers to tn through its structure:
// pointers, slices, maps, channels, signatures, exported struct fields.
func mentions(t types.Type, tn *types.TypeName, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if t.Obj() == tn {
			return true
		}
		if t.Obj().Pkg() != tn.Pkg() {
			return false
		}
		return mentions(t.Underlying(), tn, seen)
	case *types.Pointer:
		return mentions(t.Elem(), tn, seen)
	case *types.Slice:
		return mentions(t.Elem(), tn, seen)
	case *types.Array:
		return mentions(t.Elem(), tn, seen)
	case *types.Map:
		return mentions(t.Key(), tn, seen) || mentions(t.Elem(), tn, seen)
	case *types.Chan:
		return mentions(t.Elem(), tn, seen)
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tup.Len() {
				if mentions(tup.At(i).Type(), tn, seen) {
					return true
				}
			}
		}
	case *types.Struct:
		for i := range t.NumFields() {
			if f := t.Field(i); f.Exported() && mentions(f.Type(), tn, seen) {
				return true
			}
		}
	}
	return false
}
