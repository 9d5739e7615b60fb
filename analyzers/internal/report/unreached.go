package report

import (
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// A Reach says which methods of a pass's package are out of its users'
// reach (see Unreached), from an index of the package's references built
// once, on first use.
type Reach struct {
	pass    *analysis.Pass
	named   map[*types.Func]bool          // methods (origins) that non-test code names
	onType  map[typeMethod]bool           // the same, by the type they are selected on
	ifaces  map[string][]*types.Interface // interfaces the package uses, by method name
	exposed map[*types.TypeName]bool      // whether an exported name mentions the type
}

// NewReach returns the Reach of pass's package.
func NewReach(pass *analysis.Pass) *Reach {
	return &Reach{pass: pass, exposed: map[*types.TypeName]bool{}}
}

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
func (r *Reach) Unreached(m *types.Func) bool {
	pass := r.pass
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
	r.build()
	if r.named[m.Origin()] {
		return false
	}
	return r.outOfReach(named, m.Name())
}

// UnreachedPromoted is Unreached for method m promoted to the unexported
// type named from a type it embeds: it is out of reach when no code of
// the package's non-test files selects it on named (calls of m on the
// embedded type, or on other types that embed it, do not reach named's),
// no interface the package uses has it, and no exported name mentions
// named (a logger copied into an unexported io.Writer wrapper, whose
// promoted SetLevel nothing can call).
func (r *Reach) UnreachedPromoted(named *types.Named, m *types.Func) bool {
	pass := r.pass
	if named.Obj().Exported() || named.Obj().Parent() != pass.Pkg.Scope() || InTestFile(pass, named.Obj().Pos()) {
		return false
	}
	r.build()
	if r.onType[typeMethod{named.Origin().Obj(), m.Name()}] {
		return false
	}
	return r.outOfReach(named, m.Name())
}

// A typeMethod is a method name selected on a type.
type typeMethod struct {
	t    *types.TypeName
	name string
}

// outOfReach reports whether no interface the package uses has a method
// name that named fulfils, and no exported name mentions named.
func (r *Reach) outOfReach(named *types.Named, name string) bool {
	ptr := types.NewPointer(named)
	for _, iface := range r.ifaces[name] {
		if types.Implements(named, iface) || types.Implements(ptr, iface) {
			return false
		}
	}
	obj := named.Obj()
	e, ok := r.exposed[obj]
	if !ok {
		e = exposed(r.pass, obj)
		r.exposed[obj] = e
	}
	return !e
}

// build indexes the methods non-test code names and the interfaces the
// package uses.
func (r *Reach) build() {
	if r.named != nil {
		return
	}
	pass := r.pass
	r.named, r.ifaces, r.onType = map[*types.Func]bool{}, map[string][]*types.Interface{}, map[typeMethod]bool{}
	for id, obj := range pass.TypesInfo.Uses {
		if f, ok := obj.(*types.Func); ok && !InTestFile(pass, id.Pos()) {
			r.named[f.Origin()] = true
		}
	}
	for sel, s := range pass.TypesInfo.Selections {
		if f, ok := s.Obj().(*types.Func); ok && !InTestFile(pass, sel.Pos()) {
			r.named[f.Origin()] = true
			if n, ok := types.Unalias(lockstate.Deref(s.Recv())).(*types.Named); ok {
				r.onType[typeMethod{n.Origin().Obj(), f.Name()}] = true
			}
		}
	}
	seen := map[*types.Interface]bool{}
	for _, tv := range pass.TypesInfo.Types {
		iface, ok := tv.Type.Underlying().(*types.Interface)
		if !ok || iface.NumMethods() == 0 || seen[iface] {
			continue
		}
		seen[iface] = true
		for i := range iface.NumMethods() {
			name := iface.Method(i).Name()
			r.ifaces[name] = append(r.ifaces[name], iface)
		}
	}
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
		if t.Origin().Obj() == tn {
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
