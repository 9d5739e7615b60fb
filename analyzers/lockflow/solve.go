package lockflow

import (
	"go/constant"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// solve computes the State at the entry of each block of the function.
func (f *Flow) solve() {
	blocks := f.Fn.Blocks
	in := make([]*State, len(blocks))
	in[0] = newState()
	for _, b := range blocks[1:] {
		in[b.Index] = deadState()
	}
	if r := f.Fn.Recover; r != nil && r != blocks[0] {
		in[r.Index] = newState() // entered from a panic: unknown
	}
	lockstate.Solve(f.Fn, in, transfer{f})
	for _, b := range blocks {
		f.in[b] = in[b.Index]
	}
}

// transfer is the lockstate.Transfer of a Flow.
type transfer struct{ f *Flow }

func (t transfer) Block(b *ssa.BasicBlock, s *State) *State { return t.f.eng.Block(b, s) }

// Edge returns the State on the i-th out-edge of b, as the engine's Edge
// does. A loop entered on that edge whose test holds on the first trip
// (see firstTrip) runs its body at least once (for i := 0; i < 2; i++):
// the State goes on to the body, not to the loop's exit.
func (t transfer) Edge(b *ssa.BasicBlock, i int, out *State) (*ssa.BasicBlock, *State) {
	succ, s := t.f.eng.Edge(b, i, out)
	if firstTrip(b, succ) {
		_, s = t.f.eng.Edge(succ, 0, t.f.eng.Block(succ, s.Clone()))
		succ = succ.Succs[0]
	}
	return succ, s
}

// firstTrip reports whether the edge from b enters a loop whose header,
// h, tests a condition that holds for the values its φ-nodes take on
// that edge (i := 0; i < n with a constant n > 0): control goes on to
// the header's true branch. The header has no effect on locks but its
// test.
func firstTrip(b, h *ssa.BasicBlock) bool {
	if len(h.Instrs) == 0 || h.Dominates(b) {
		return false // not a loop header, or a back edge
	}
	ifi, ok := h.Instrs[len(h.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cmp, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || cmp.Block() != h {
		return false
	}
	j := slices.Index(h.Preds, b)
	loop := false
	for _, p := range h.Preds {
		loop = loop || h.Dominates(p)
	}
	if j < 0 || !loop {
		return false
	}
	for _, instr := range h.Instrs[:len(h.Instrs)-1] {
		switch instr.(type) {
		case *ssa.Phi, *ssa.BinOp:
		default:
			return false
		}
	}
	value := func(v ssa.Value) constant.Value {
		if phi, ok := v.(*ssa.Phi); ok && phi.Block() == h {
			v = phi.Edges[j]
		}
		if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Int {
			return c.Value
		}
		return nil
	}
	x, y := value(cmp.X), value(cmp.Y)
	if x == nil || y == nil {
		return false
	}
	switch cmp.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return constant.Compare(x, cmp.Op, y)
	}
	return false
}

// out returns the State at the end of b along its i'th edge.
func (f *Flow) out(b *ssa.BasicBlock, i int) *State {
	_, s := f.eng.Edge(b, i, f.eng.Block(b, f.in[b].Clone()))
	return s
}
