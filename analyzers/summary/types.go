package summary

import (
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// MaxMethods bounds the methods of a type that are listed with their
// summaries: beyond it, the unexported methods are left out (a type with
// hundreds of internal methods, such as a type checker, would make the
// pairs of its plan blow up).
const MaxMethods = 64

// types returns the named types of pkg with methods, with their methods'
// summaries: the exported methods of *T, and the unexported ones that the
// package declares (within MaxMethods).
func (b *builder) types(pkg *ssa.Package) []*Type {
	var out []*Type
	prog := pkg.Prog
	scope := pkg.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || types.IsInterface(named) {
			continue
		}
		t := &Type{Obj: tn}
		if b.doc != nil {
			t.Doc = b.doc(tn)
		}
		var unexported []*types.Func
		var fns []*ssa.Function
		add := func(m *types.Func, fn *ssa.Function) {
			if fn == nil {
				return
			}
			if !m.Exported() {
				unexported = append(unexported, m)
				fns = append(fns, fn)
				return
			}
			t.Methods = append(t.Methods, b.method(m, fn))
		}
		if named.TypeParams().Len() > 0 {
			// A generic type: its declared methods, with their generic
			// bodies (promoted methods need an instantiation).
			for i := 0; i < named.NumMethods(); i++ {
				m := named.Method(i)
				add(m, prog.FuncValue(m))
			}
		} else {
			mset := prog.MethodSets.MethodSet(types.NewPointer(named))
			for i := 0; i < mset.Len(); i++ {
				sel := mset.At(i)
				m := sel.Obj().(*types.Func)
				if fromSync(m) || !m.Exported() && m.Pkg() != pkg.Pkg {
					// Lock of an embedded sync.Mutex; the internals
					// of an embedded type of another package.
					continue
				}
				add(m, prog.MethodValue(sel))
			}
		}
		if len(t.Methods)+len(unexported) > MaxMethods {
			t.Omitted = len(unexported)
		} else {
			for i, m := range unexported {
				t.Unexported = append(t.Unexported, b.method(m, fns[i]))
			}
		}
		if len(t.Methods)+len(t.Unexported)+t.Omitted > 0 {
			byName := func(ms []*Method) {
				sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
			}
			byName(t.Methods)
			byName(t.Unexported)
			out = append(out, t)
		}
	}
	return out
}

// method returns the method m of a type, implemented by fn, with its
// summary.
func (b *builder) method(m *types.Func, fn *ssa.Function) *Method {
	sum := b.summary(fn)
	if sum == nil {
		sum = new(Summary)
	}
	return &Method{Name: m.Name(), Exported: m.Exported(), Func: fn, Summary: sum, Params: ParamNames(fn)}
}
