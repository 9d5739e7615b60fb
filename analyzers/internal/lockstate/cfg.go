package lockstate

import (
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
