package lockstate

import "golang.org/x/tools/go/ssa"

// A State is the dataflow fact of a lock-state analysis at a program
// point: an element of its lattice, such as the locks that must be held
// there (package summary) or the ways each lock may be (package
// lockflow).
type State[S any] interface {
	// Reachable reports whether some path reaches the point.
	Reachable() bool
	// End makes the point one that no path reaches: the path that
	// reached it has ended (a panic).
	End()
	// Clone returns a copy that a Transfer may modify.
	Clone() S
	// Join merges the fact of other paths into the receiver and
	// reports whether it changed.
	Join(S) bool
}

// A Transfer applies a function's instructions to States.
type Transfer[S any] interface {
	// Block applies the instructions of b to s, a copy of the State at
	// its entry, and returns the State at its end.
	Block(b *ssa.BasicBlock, s S) S
	// Edge returns the State on the i-th out-edge of b, out being the
	// State at b's end (which it must not modify), and the block that
	// the State enters (b.Succs[i], or a block beyond it).
	Edge(b *ssa.BasicBlock, i int, out S) (*ssa.BasicBlock, S)
}

// MaxRounds bounds the rounds of Solve.
const MaxRounds = 50

// Solve computes the State at the entry of every block of fn, by block
// index: in holds the States the blocks are entered with (the entry
// block's, that of the block that recovers from a panic, unreachable
// ones for the others) and receives the solution. Solve runs t over the
// reachable blocks in order, round after round, until no State changes
// or MaxRounds rounds have run.
func Solve[S State[S]](fn *ssa.Function, in []S, t Transfer[S]) {
	for changed, rounds := true, 0; changed && rounds < MaxRounds; rounds++ {
		changed = false
		for _, b := range fn.Blocks {
			if !in[b.Index].Reachable() {
				continue
			}
			out := t.Block(b, in[b.Index].Clone())
			for i := range b.Succs {
				succ, s := t.Edge(b, i, out)
				if in[succ.Index].Join(s) {
					changed = true
				}
			}
		}
	}
}
