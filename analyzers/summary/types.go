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
// summaries: the exported methods of *T, promoted ones included, and the
// unexported ones that the package declares (within MaxMethods). The
// methods promoted into a generic type are those of an instance of it
// (see instance).
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
		// The methods of *T that are declared elsewhere: promoted
		// through embedded fields (but for those of sync and
		// sync/atomic types, such as the Lock of an embedded
		// sync.Mutex, and the internals of an embedded type of
		// another package). Their functions are wrappers that select
		// the embedded field and call the method, so their summaries
		// are the method's, on the embedding path (recv.common.mu).
		promoted := func(recv types.Type, declared bool) {
			mset := prog.MethodSets.MethodSet(types.NewPointer(recv))
			for i := 0; i < mset.Len(); i++ {
				sel := mset.At(i)
				m := sel.Obj().(*types.Func)
				if declared && len(sel.Index()) == 1 || fromSync(m) || !m.Exported() && m.Pkg() != pkg.Pkg {
					continue
				}
				add(m, prog.MethodValue(sel))
			}
		}
		if named.TypeParams().Len() > 0 {
			// A generic type: its declared methods, with their
			// generic bodies; its promoted methods through an
			// instance, for a method of a generic type has no
			// wrappers (see instance).
			for i := 0; i < named.NumMethods(); i++ {
				m := named.Method(i)
				add(m, prog.FuncValue(m))
			}
			if inst := instance(named); inst != nil {
				promoted(inst, true)
			}
		} else {
			promoted(named, false)
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
	return &Method{Name: m.Name(), Exported: m.Exported(), Func: fn, Summary: sum, Params: ParamNames(fn),
		CallsOut: b.callsOut(fn, sum)}
}

// callsOut reports whether fn takes a lock and calls a function its
// caller gives it (a parameter) with no lock held: what it does before
// and after that call are separate critical sections with the caller's
// code between them, not one atomic step (a circuit breaker's
// Execute(req) counts the request, runs req unlocked, then records its
// outcome). It is false when the locks held at calls are not recorded
// (whole-program summaries).
func (b *builder) callsOut(fn *ssa.Function, sum *Summary) bool {
	if b.callHeld == nil || len(sum.Acquires) == 0 {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() {
				continue
			}
			if p, ok := call.Call.Value.(*ssa.Parameter); ok && p.Parent() == fn && len(b.callHeld[call]) == 0 {
				return true
			}
		}
	}
	return false
}

// typeArgCandidates returns the type arguments tried for a type
// parameter, in order, before the terms of its constraint: new values
// for each call, as passes over several packages run at once.
func typeArgCandidates() []types.Type {
	return []types.Type{types.Typ[types.Int], types.Typ[types.String], types.NewInterfaceType(nil, nil).Complete()}
}

// instance returns an instance of the generic type named whose type
// arguments satisfy their constraints, or nil when none is found.
//
// The methods of a generic type have no wrappers (ssa.Program.MethodValue
// returns nil for them): an instance's have, and a promoted method of an
// instance has the summary of the generic method it calls (its body when
// the program instantiates generics, its generic body otherwise, see
// builder.summary), whatever the type arguments. They are chosen to
// satisfy the constraints all the same, for a program built with
// ssa.InstantiateGenerics builds the callee's body for them.
func instance(named *types.Named) types.Type {
	tps := named.TypeParams()
	args := make([]types.Type, tps.Len())
	for i := range args {
		args[i] = typeArg(tps.At(i))
		if args[i] == nil {
			return nil
		}
	}
	inst, err := types.Instantiate(nil, named, args, true)
	if err != nil {
		return nil
	}
	return inst
}

// typeArg returns a type that satisfies the constraint of tp: int,
// string or any, else the type of the constraint's first term, else the
// interface of the constraint's methods; nil when none does (a
// constraint with both terms and methods). A term that depends on other
// type parameters (S ~[]E) gives a type argument that instance rejects.
func typeArg(tp *types.TypeParam) types.Type {
	iface, _ := tp.Constraint().Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	candidates := typeArgCandidates()
	if t := firstTerm(iface); t != nil {
		candidates = append(candidates, t)
	}
	if iface.NumMethods() > 0 {
		var ms []*types.Func
		for i := 0; i < iface.NumMethods(); i++ {
			ms = append(ms, iface.Method(i))
		}
		candidates = append(candidates, types.NewInterfaceType(ms, nil).Complete())
	}
	for _, c := range candidates {
		if types.Satisfies(c, iface) {
			return c
		}
	}
	return nil
}

// firstTerm returns the type of the first term of a constraint (int of
// ~int | ~int64, []byte of ~[]byte), or nil when it has no terms.
func firstTerm(iface *types.Interface) types.Type {
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			if e.Len() > 0 {
				return e.Term(0).Type()
			}
		default:
			if in, ok := e.Underlying().(*types.Interface); ok {
				if t := firstTerm(in); t != nil {
					return t
				}
				continue
			}
			return e
		}
	}
	return nil
}
