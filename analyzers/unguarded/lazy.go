package unguarded

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/summary"
)

// lazyInits returns the positions of the accesses of methods that belong
// to a lazy initialisation the constructors make dead: in
//
//	func New() *Registry { return &Registry{m: map[string]int{}} }
//	func (r *Registry) Set(k string, v int) {
//		if r.m == nil {
//			r.m = map[string]int{}
//		}
//		r.mu.Lock() …
//
// the check of r.m and the store under it, when every constructor of the
// type in the package (a function returning T or *T) stores a value
// other than nil in the field. On an object a constructor built, the
// store never runs; the zero value's lazy path is the type's contract,
// not a race of its API.
func lazyInits(res *summary.Result, obj *types.TypeName, methods []*summary.Method) map[token.Pos]bool {
	var ctors []*ssa.Function
	for fn := range res.Funcs {
		if isConstructor(fn, obj) {
			ctors = append(ctors, fn)
		}
	}
	if len(ctors) == 0 {
		return nil
	}
	initialised := func(field int) bool {
		for _, c := range ctors {
			if !storesNonNil(c, obj, field) {
				return false
			}
		}
		return true
	}
	out := map[token.Pos]bool{}
	for _, m := range methods {
		fn := m.Func
		if fn == nil || len(fn.Params) == 0 {
			continue
		}
		recv := fn.Params[0]
		for _, b := range fn.Blocks {
			ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			load, field := nilCheckOf(ifi.Cond, recv)
			if load == nil || !initialised(field) {
				continue
			}
			then := b.Succs[0]
			for _, tb := range fn.Blocks {
				if !then.Dominates(tb) {
					continue
				}
				for _, in := range tb.Instrs {
					st, ok := in.(*ssa.Store)
					if !ok {
						continue
					}
					if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fa.X == recv && fa.Field == field {
						out[st.Pos()] = true
						out[load.Pos()] = true
					}
				}
			}
		}
	}
	return out
}

// nilCheckOf returns the load of recv's field and the field's index when
// cond is recv.f == nil (either way round).
func nilCheckOf(cond ssa.Value, recv *ssa.Parameter) (*ssa.UnOp, int) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL {
		return nil, 0
	}
	x, y := bin.X, bin.Y
	if isNil(x) {
		x, y = y, x
	}
	if !isNil(y) {
		return nil, 0
	}
	load, ok := x.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, 0
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || fa.X != recv {
		return nil, 0
	}
	return load, fa.Field
}

func isNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// isConstructor reports whether fn is a function (not a method) of obj's
// package whose first result is obj's type or a pointer to it.
func isConstructor(fn *ssa.Function, obj *types.TypeName) bool {
	sig := fn.Signature
	if sig.Recv() != nil || sig.Results().Len() == 0 || fn.Pkg == nil || fn.Pkg.Pkg != obj.Pkg() {
		return false
	}
	t := sig.Results().At(0).Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj() == obj
}

// storesNonNil reports whether fn stores a value other than nil in the
// field of a value of obj's type that it allocates.
func storesNonNil(fn *ssa.Function, obj *types.TypeName, field int) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			st, ok := in.(*ssa.Store)
			if !ok || isNil(st.Val) {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || fa.Field != field {
				continue
			}
			alloc, ok := fa.X.(*ssa.Alloc)
			if !ok {
				continue
			}
			if p, ok := alloc.Type().(*types.Pointer); ok {
				if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && n.Obj() == obj {
					return true
				}
			}
		}
	}
	return false
}
