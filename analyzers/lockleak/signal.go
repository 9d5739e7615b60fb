package lockleak

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Result signals: what a bool, error or nilable result says to the
// caller.
const (
	sigUnknown = iota
	sigOK
	sigFail
)

// sigNone is the signal of a result that says nothing: not a bool, an
// error or a nilable value.
const sigNone = -1

// protocol reports whether the leaking return may be a function's way
// of telling its caller that it returns holding the lock: a result
// (bool, error, pointer...) that says success there and failure at some
// releasing return, as in a conditional lock helper
//
//	func (c *Conn) lockOpen() error // returns holding c.mu if nil
func (r *reporter) protocol(leak *ssa.Return, rets []*ssa.Return, rel []int) bool {
	for i, v := range leak.Results {
		s := r.signal(leak, v)
		if s == sigNone {
			continue
		}
		for _, j := range rel {
			t := r.signal(rets[j], rets[j].Results[i])
			switch s {
			case sigOK:
				if t != sigOK {
					return true
				}
			case sigUnknown:
				if t == sigFail {
					return true
				}
			}
		}
	}
	return false
}

func (r *reporter) signal(ret *ssa.Return, v ssa.Value) int {
	v = resultValue(ret, v)
	t := v.Type()
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind() != types.Bool && u.Kind() != types.UntypedBool {
			return sigNone
		}
		if c, ok := v.(*ssa.Const); ok && c.Value != nil {
			if c.Value.String() == "true" {
				return sigOK
			}
			return sigFail
		}
		return sigUnknown
	case *types.Interface:
		if typeIsError(t) {
			if c, ok := v.(*ssa.Const); ok && c.IsNil() {
				return sigOK
			}
			if nonNil(ret, v) {
				return sigFail
			}
			return sigUnknown
		}
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature, *types.Slice:
	default:
		return sigNone
	}
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return sigFail
	}
	switch v.(type) {
	case *ssa.Alloc, *ssa.MakeClosure, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeInterface:
		return sigOK
	}
	return sigUnknown
}

// resultValue returns the value a return's operand holds when it loads a
// named result (a function with defers returns *t0, *t1): the last value
// stored there in the return's block, or v.
func resultValue(ret *ssa.Return, v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	instrs := ret.Block().Instrs
	for i := len(instrs) - 1; i >= 0; i-- {
		if st, ok := instrs[i].(*ssa.Store); ok && st.Addr == slot {
			return st.Val
		}
	}
	return v
}

// nonNil reports whether an error value is certainly not nil: a
// concrete value, a package variable (ErrClosed), a new error, or a
// value checked against nil on the way.
func nonNil(ret *ssa.Return, v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return true
	case *ssa.UnOp:
		if _, ok := v.X.(*ssa.Global); ok {
			return true
		}
	case *ssa.Call:
		if fn, ok := v.Call.Value.(*ssa.Function); ok && fn.Pkg != nil {
			switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
			case "errors.New", "fmt.Errorf":
				return true
			}
		}
	}
	// Dominated by the true branch of v != nil (or the false branch of
	// v == nil).
	b := ret.Block()
	for d := b.Idom(); d != nil; b, d = d, d.Idom() {
		ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || (cmp.Op != token.NEQ && cmp.Op != token.EQL) {
			continue
		}
		var other ssa.Value
		switch {
		case cmp.X == v:
			other = cmp.Y
		case cmp.Y == v:
			other = cmp.X
		default:
			continue
		}
		if c, ok := other.(*ssa.Const); !ok || !c.IsNil() {
			continue
		}
		want := 0 // the true branch for !=
		if cmp.Op == token.EQL {
			want = 1
		}
		s := d.Succs[want]
		if len(s.Preds) == 1 && s.Dominates(ret.Block()) {
			return true
		}
	}
	return false
}

// typeIsError reports whether t is the error interface.
func typeIsError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
