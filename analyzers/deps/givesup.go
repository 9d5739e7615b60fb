package deps

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// givesUp reports whether fn gives up when a compare-and-swap fails: on
// the branch where a sync/atomic CompareAndSwap returned false, it
// returns false for a bool result at once, instead of trying again (a
// lock-free queue's Put(v) (ok bool, n uint32) that lost the race for a
// slot). Such a method says, as a Try... method does by its name, that
// it may fail under contention by design (Method.GivesUp). A method that
// returns anything else on that branch (the value it read, which another
// caller got too) does not say it gave up.
func givesUp(fn *ssa.Function) bool {
	if fn == nil || fn.Signature.Results().Len() == 0 {
		return false
	}
	if fn.Synthetic != "" {
		if inner := promotedFrom(fn); inner != nil {
			fn = inner // a promoted method's wrapper
		}
	}
	for _, b := range fn.Blocks {
		ifc, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || len(b.Succs) != 2 || !isCAS(ifc.Cond) {
			continue
		}
		if ret := returnOf(b.Succs[1]); ret != nil && reportsFalse(ret) {
			return true
		}
	}
	return false
}

// isCAS reports whether v is the result of a sync/atomic compare-and-swap
// (a function, or a method of an atomic type).
func isCAS(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	callee := call.Common().StaticCallee()
	if callee == nil {
		return false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return false
	}
	return strings.HasPrefix(obj.Name(), "CompareAndSwap")
}

// returnOf returns the return that block b reaches without a branch
// (through at most two plain jumps), or nil.
func returnOf(b *ssa.BasicBlock) *ssa.Return {
	for range 3 {
		if len(b.Instrs) == 0 {
			return nil
		}
		switch last := b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return:
			return last
		case *ssa.Jump:
			b = b.Succs[0]
		default:
			return nil
		}
	}
	return nil
}

// reportsFalse reports whether ret returns the constant false for a
// bool result.
func reportsFalse(ret *ssa.Return) bool {
	for _, r := range ret.Results {
		c, ok := r.(*ssa.Const)
		if ok && c.Value != nil && c.Value.Kind() == constant.Bool && !constant.BoolVal(c.Value) {
			return true
		}
	}
	return false
}
