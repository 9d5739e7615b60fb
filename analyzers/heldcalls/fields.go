package heldcalls

// A function value or interface value loaded from a field is resolved
// from what the package stores in that field: closures and method values
// made with the field's own object, functions wrapped by sync.OnceFunc,
// adapters holding the object. Their free variables or fields then name
// the object the value was loaded from.

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// stores returns the package's stores into a field of class.
func (a *analyzer) stores(class string) []*ssa.Store {
	if a.fieldStores == nil {
		a.fieldStores = map[string][]*ssa.Store{}
		for _, fn := range a.res.SSA.SrcFuncs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					st, ok := instr.(*ssa.Store)
					if !ok {
						continue
					}
					if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
						_, c := lockstate.FieldOf(fa.X.Type(), fa.Field)
						a.fieldStores[c] = append(a.fieldStores[c], st)
					}
				}
			}
		}
	}
	return a.fieldStores[class]
}

// ownerOf splits the path of a function value loaded from a field
// ("$0.onFire", "$0.t->onFire") into the object holding it and the
// field's name.
func ownerOf(fnval []lockstate.Path) (lockstate.Path, string) {
	if len(fnval) != 1 || !fnval[0].Loaded {
		return lockstate.Path{}, ""
	}
	s := fnval[0].Str
	i := strings.LastIndexAny(s, ".>")
	if i <= 0 || lockstate.Root(s) == s { // a parameter or a package variable itself: no owner
		return lockstate.Path{}, ""
	}
	name := s[i+1:]
	if s[i] == '>' {
		if s[i-1] != '-' {
			return lockstate.Path{}, ""
		}
		return lockstate.Path{Str: s[:i-1], Loaded: true}, name
	}
	if strings.HasSuffix(s[:i], "]") {
		return lockstate.Path{}, ""
	}
	return lockstate.Path{Str: s[:i]}, name
}

// ownerBinds returns the bindings of t when every closure of t in the
// package is stored in field of the very object one of its free
// variables holds (s.onChange = func() { s.mu.Lock() … }, or a method
// value s.handle stored in s.onEvent): that free variable is the object
// the function value is loaded from.
func (a *analyzer) ownerBinds(t *ssa.Function, field string, owner lockstate.Path) ([][]lockstate.Path, []bool) {
	if a.closures == nil {
		a.closures = map[*ssa.Function][]*ssa.MakeClosure{}
		for _, fn := range a.res.SSA.SrcFuncs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if mc, ok := instr.(*ssa.MakeClosure); ok {
						f := mc.Fn.(*ssa.Function)
						a.closures[f] = append(a.closures[f], mc)
					}
				}
			}
		}
	}
	mcs := a.closures[t]
	if len(mcs) == 0 {
		return nil, nil
	}
	idx := -1
	cell := false
	// match finds the binding of mc that holds owner, the object whose
	// field receives the closure.
	match := func(mc *ssa.MakeClosure, owner ssa.Value) bool {
		found := -1
		for i, b := range mc.Bindings {
			if b == owner {
				found, cell = i, false
			} else if c, ok := b.(*ssa.Alloc); ok && holds(c, owner) {
				found, cell = i, true
			}
		}
		if found < 0 || idx >= 0 && found != idx {
			return false
		}
		idx = found
		return true
	}
	for _, mc := range mcs {
		stored := false
		// The closure, and its conversions to a named func type.
		vals := []ssa.Value{mc}
		var refs []ssa.Instruction
		for _, ref := range *mc.Referrers() {
			if ct, ok := ref.(*ssa.ChangeType); ok {
				vals = append(vals, ct)
				refs = append(refs, *ct.Referrers()...)
				continue
			}
			refs = append(refs, ref)
		}
		for _, ref := range refs {
			switch ref := ref.(type) {
			case *ssa.Store:
				if !slices.Contains(vals, ref.Val) {
					continue
				}
				fa, ok := ref.Addr.(*ssa.FieldAddr)
				if !ok {
					return nil, nil
				}
				if name, _ := lockstate.FieldOf(fa.X.Type(), fa.Field); name != field || !match(mc, fa.X) {
					return nil, nil
				}
				stored = true
			case *ssa.Call:
				if onceFunc(ref) {
					// sync.OnceValue(func() { x.… }) stored in a field
					// of x.
					owner := storedIn(ref, field)
					if owner == nil || !match(mc, owner) {
						return nil, nil
					}
					stored = true
					continue
				}
				// A setter: x.SetHook(func() { x.… }) storing its
				// parameter in a field of its receiver.
				owner := setterOwner(ref, vals, field)
				if owner == nil || !match(mc, owner) {
					return nil, nil
				}
				stored = true
			default:
				return nil, nil
			}
		}
		if !stored {
			return nil, nil
		}
	}
	binds := make([][]lockstate.Path, len(t.FreeVars))
	cells := make([]bool, len(t.FreeVars))
	binds[idx], cells[idx] = []lockstate.Path{owner}, cell
	return binds, cells
}

// setterOwner returns the argument of call whose field the callee stores
// the closure (one of vals) in (a setter storing its parameter in a field of
// another parameter), or nil.
func setterOwner(call *ssa.Call, vals []ssa.Value, field string) ssa.Value {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Blocks == nil {
		return nil
	}
	k := slices.IndexFunc(call.Call.Args, func(v ssa.Value) bool { return slices.Contains(vals, v) })
	if k < 0 || k >= len(callee.Params) {
		return nil
	}
	var owner ssa.Value
	for _, ref := range *callee.Params[k].Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != callee.Params[k] {
			continue
		}
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok {
			return nil
		}
		param, ok := fa.X.(*ssa.Parameter)
		if !ok {
			return nil
		}
		name, _ := lockstate.FieldOf(fa.X.Type(), fa.Field)
		r := slices.Index(callee.Params, param)
		if name != field || r < 0 || r >= len(call.Call.Args) {
			return nil
		}
		owner = call.Call.Args[r]
	}
	return owner
}

// onceFunc reports whether call makes a function that calls its argument
// once: sync.OnceFunc, sync.OnceValue, sync.OnceValues.
func onceFunc(call *ssa.Call) bool {
	switch lockstate.SyncMethod(call.Call.StaticCallee()) {
	case "sync.OnceFunc", "sync.OnceValue", "sync.OnceValues":
		return len(call.Call.Args) == 1
	}
	return false
}

// storedIn returns the object in whose field the result of call is
// stored, when that is all that is done with it.
func storedIn(call *ssa.Call, field string) ssa.Value {
	var owner ssa.Value
	for _, ref := range *call.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != call {
			return nil
		}
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok {
			return nil
		}
		if name, _ := lockstate.FieldOf(fa.X.Type(), fa.Field); name != field || owner != nil {
			return nil
		}
		owner = fa.X
	}
	return owner
}

// onceTargets returns the functions that the package wraps with
// sync.OnceFunc, OnceValue or OnceValues and stores in field (of class).
func (a *analyzer) onceTargets(field, class string) []*ssa.Function {
	var out []*ssa.Function
	for _, st := range a.stores(class) {
		fa := st.Addr.(*ssa.FieldAddr)
		if name, _ := lockstate.FieldOf(fa.X.Type(), fa.Field); name != field {
			continue
		}
		call, ok := st.Val.(*ssa.Call)
		if !ok || !onceFunc(call) {
			continue
		}
		var t *ssa.Function
		switch f := call.Call.Args[0].(type) {
		case *ssa.Function:
			t = f
		case *ssa.MakeClosure:
			t = f.Fn.(*ssa.Function)
		}
		if t != nil && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if len(out) > maxTargets {
		return nil
	}
	return out
}

// wrapped returns what the fields of t's receiver hold when t is called
// through an interface value loaded from field (of class) of the object
// owner: when every value stored in that field in the package whose
// type is t's receiver type is an adapter struct made with the very
// object whose field receives it in one of its fields (s.handler =
// recorder{s}, p.notify = &pool{p: p}), that field holds owner. It
// returns nil when no such store is found, when a store gives the
// adapter another object or in another field, or when a value of unknown
// dynamic type is stored in the field (a setter's parameter).
func (a *analyzer) wrapped(t *ssa.Function, field, class string, owner lockstate.Path) map[string][]lockstate.Path {
	recv := t.Signature.Recv()
	if recv == nil || t.Synthetic != "" {
		return nil
	}
	rt := lockstate.Deref(recv.Type())
	if _, ok := rt.Underlying().(*types.Struct); !ok {
		return nil
	}
	held := ""
	for _, st := range a.stores(class) {
		fa := st.Addr.(*ssa.FieldAddr)
		if name, _ := lockstate.FieldOf(fa.X.Type(), fa.Field); name != field {
			continue
		}
		x := st.Val
		for {
			if mi, ok := x.(*ssa.MakeInterface); ok {
				x = mi.X
			} else if ci, ok := x.(*ssa.ChangeInterface); ok {
				x = ci.X
			} else {
				break
			}
		}
		if types.IsInterface(x.Type()) {
			return nil // of unknown dynamic type
		}
		if !types.Identical(lockstate.Deref(x.Type()), rt) {
			continue // another implementation
		}
		g := holder(x, fa.X)
		if g == "" || held != "" && g != held {
			return nil
		}
		held = g
	}
	if held == "" {
		return nil
	}
	return map[string][]lockstate.Path{held: {owner}}
}

// holder returns the field of the struct that x is (or points to), made
// in its function, that holds obj: stored once, with obj itself or with a
// variable that holds it. It returns "" when there is none, or several.
func holder(x, obj ssa.Value) string {
	if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
		x = u.X
	}
	al, ok := x.(*ssa.Alloc)
	if !ok {
		return ""
	}
	found := ""
	stores := map[int]int{}
	for _, ref := range *al.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		for _, use := range *fa.Referrers() {
			st, ok := use.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			stores[fa.Field]++
			if sameObject(st.Val, obj) {
				name, _ := lockstate.FieldOf(al.Type(), fa.Field)
				if found != "" && found != name {
					return ""
				}
				found = name
				if stores[fa.Field] > 1 {
					return ""
				}
			}
		}
	}
	for f, n := range stores {
		if n > 1 {
			if name, _ := lockstate.FieldOf(al.Type(), f); name == found {
				return ""
			}
		}
	}
	return found
}

// sameObject reports whether a and b are the same value, or loads of one
// variable assigned once (a receiver captured by a closure).
func sameObject(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ua, ok1 := a.(*ssa.UnOp)
	ub, ok2 := b.(*ssa.UnOp)
	if !ok1 || !ok2 || ua.Op != token.MUL || ub.Op != token.MUL || ua.X != ub.X {
		return false
	}
	cell, ok := ua.X.(*ssa.Alloc)
	return ok && holds(cell, a)
}

// holds reports whether x is the value of the cell, which is assigned
// once: x is loaded from it, or is the value stored.
func holds(cell *ssa.Alloc, x ssa.Value) bool {
	var stored []ssa.Value
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == cell {
			stored = append(stored, st.Val)
		}
	}
	if len(stored) != 1 {
		return false
	}
	if u, ok := x.(*ssa.UnOp); ok && u.X == cell {
		return true
	}
	return stored[0] == x
}
