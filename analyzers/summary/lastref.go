package summary

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// lastRefBlocks returns the blocks of fn that run only once it has
// dropped the last reference to an object: the true branch of a test
// that an atomic decrement of a reference count reached zero
// (if atomic.AddInt32(&x.refs, -1) == 0 { x.reset(); pool.Put(x) }), and
// the blocks that branch dominates. No other goroutine holds the object
// there, so their accesses need no lock (flagged LastRef).
func lastRefBlocks(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	var out map[*ssa.BasicBlock]bool
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL {
			continue
		}
		if zeroed := decrement(cmp.X) && isZero(cmp.Y) || decrement(cmp.Y) && isZero(cmp.X); !zeroed {
			continue
		}
		then := b.Succs[0]
		if len(then.Preds) != 1 {
			continue
		}
		for _, d := range fn.Blocks {
			if then.Dominates(d) {
				if out == nil {
					out = map[*ssa.BasicBlock]bool{}
				}
				out[d] = true
			}
		}
	}
	return out
}

// decrement reports whether v is the result of an atomic decrement by
// one: atomic.AddInt32(p, -1), atomic.AddUint64(p, ^uint64(0)),
// x.Add(-1) on an atomic.Int32 or Int64.
func decrement(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) != 2 {
		return false
	}
	// minusOne is -1 in the type added to: ^uint32(0) and ^uint64(0)
	// for the unsigned ones.
	var minusOne constant.Value
	switch lockstate.SyncMethod(call.Call.StaticCallee()) {
	case "sync/atomic.AddInt32", "sync/atomic.AddInt64", "(*sync/atomic.Int32).Add", "(*sync/atomic.Int64).Add":
		minusOne = constant.MakeInt64(-1)
	case "sync/atomic.AddUint32", "(*sync/atomic.Uint32).Add":
		minusOne = constant.MakeUint64(1<<32 - 1)
	case "sync/atomic.AddUint64", "(*sync/atomic.Uint64).Add":
		minusOne = constant.MakeUint64(1<<64 - 1)
	default:
		return false
	}
	c, ok := call.Call.Args[1].(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Compare(c.Value, token.EQL, minusOne)
}

// isZero reports whether v is the constant 0.
func isZero(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0
}
