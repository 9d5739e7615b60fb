package summary

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// SyncMethod returns the full name ("(*sync.Mutex).Lock") of fn when it is
// a function or method of sync or sync/atomic, "" otherwise: the calls the
// analyzers model rather than follow.
func SyncMethod(fn *ssa.Function) string { return syncMethod(fn) }

// InstrPos returns the position the summaries give an instruction's
// accesses: its own, its first operand's that has one, or fn's.
func InstrPos(instr ssa.Instruction, fn *ssa.Function) token.Pos { return instrPos(instr, fn) }

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
