package deps

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/summary"
)

// InterfaceCalls returns, by method, an access for each call it makes
// of a method of an interface that a field of its receiver holds, when
// the interface is its package's own (or one of an internal package it
// may import): recv.store.Put(k, v) on a field of type Store. What the
// implementation does is unknown to the summaries, but it is the
// receiver's state, used through the package's own abstraction; the call
// counts as a write of "recv.store->(impl)" with the locks held at the
// call (summary.Result.HeldAt). Two methods calling into the store, one
// with the lock and one without, are then dependent, as if they touched
// a field of it (a sync.Locker around a Store).
func InterfaceCalls(res *summary.Result) map[*ssa.Function][]summary.Access {
	out := map[*ssa.Function][]summary.Access{}
	for _, t := range res.Types {
		pkg := t.Obj.Pkg()
		for _, m := range append(append([]*summary.Method(nil), t.Methods...), t.Unexported...) {
			fn := m.Func
			if fn == nil || fn.Synthetic != "" || len(fn.Params) == 0 || out[fn] != nil {
				continue
			}
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(*ssa.Call)
					if !ok || !call.Call.IsInvoke() {
						continue
					}
					f := loadedField(call.Call.Value, fn.Params[0])
					if f == nil || !ownInterface(f.Type(), pkg) {
						continue
					}
					out[fn] = append(out[fn], summary.Access{Loc: "$0." + f.Name() + "->(impl)", Write: true,
						Held: res.HeldAt(call), Pos: call.Pos(), Where: fn.Prog.Fset.Position(call.Pos()).String()})
				}
			}
		}
	}
	return out
}

// loadedField returns the field of the receiver recv that v is loaded
// from (*recv.f), or nil.
func loadedField(v ssa.Value, recv *ssa.Parameter) *types.Var {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	return recvField(load.X, recv)
}

// ownInterface reports whether t is a non-empty interface declared in
// pkg or in an internal package pkg may import.
func ownInterface(t types.Type, pkg *types.Package) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	iface, ok := n.Underlying().(*types.Interface)
	if !ok || iface.Empty() {
		return false
	}
	p := n.Obj().Pkg()
	return p == pkg || internalTo(p.Path(), pkg.Path())
}
