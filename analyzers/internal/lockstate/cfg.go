package lockstate

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// InstrPos returns the position the summaries give an instruction's
// accesses: its own, its first operand's that has one, or fn's.
func InstrPos(instr ssa.Instruction, fn *ssa.Function) token.Pos {
	if p := instr.Pos(); p.IsValid() {
		return p
	}
	var ops [4]*ssa.Value
	for _, op := range instr.Operands(ops[:0]) {
		if op == nil || *op == nil {
			continue
		}
		if i, ok := (*op).(ssa.Instruction); ok {
			if p := i.Pos(); p.IsValid() {
				return p
			}
		}
	}
	return fn.Pos()
}

// Reaches reports whether a path of one or more edges leads from block
// from to block to; Reaches(b, b) reports whether b is in a loop.
func Reaches(from, to *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), from.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == to {
			return true
		}
		if !seen[b] {
			seen[b] = true
			work = append(work, b.Succs...)
		}
	}
	return false
}

// branch returns the if that ends b when i is its true branch (b's
// first out-edge), or nil.
func branch(b *ssa.BasicBlock, i int) *ssa.If {
	if i != 0 || len(b.Instrs) == 0 {
		return nil
	}
	ifi, _ := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	return ifi
}

// TryLockEdge returns the TryLock or TryRLock call that succeeded when
// control takes the i-th out-edge of b (the true branch of an if on the
// call's result), with its operation; false for another edge.
func TryLockEdge(b *ssa.BasicBlock, i int) (*ssa.Call, LockOp, bool) {
	ifi := branch(b, i)
	if ifi == nil {
		return nil, LockOp{}, false
	}
	call, ok := ifi.Cond.(*ssa.Call)
	if !ok {
		return nil, LockOp{}, false
	}
	op := LockCall(&call.Call)
	if op.Kind != OpTryLock {
		return nil, LockOp{}, false
	}
	return call, op, true
}

// SelectCaseEdge returns the select, and the index of its case, that ran
// that case when control takes the i-th out-edge of b (the true branch
// of an if that tests the select's index == k); false for another edge.
func SelectCaseEdge(b *ssa.BasicBlock, i int) (*ssa.Select, int, bool) {
	ifi := branch(b, i)
	if ifi == nil {
		return nil, 0, false
	}
	cmp, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL {
		return nil, 0, false
	}
	ext, ok := cmp.X.(*ssa.Extract)
	if !ok || ext.Index != 0 {
		return nil, 0, false
	}
	sel, ok := ext.Tuple.(*ssa.Select)
	k, ok2 := cmp.Y.(*ssa.Const)
	if !ok || !ok2 || k.Value == nil || k.Value.Kind() != constant.Int {
		return nil, 0, false
	}
	n, exact := constant.Int64Val(k.Value)
	if !exact || n < 0 || int(n) >= len(sel.States) {
		return nil, 0, false
	}
	return sel, int(n), true
}
