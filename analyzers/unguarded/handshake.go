package unguarded

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/summary"
)

// A handshake on a channel of the receiver orders accesses that no lock
// does: a goroutine that ends by sending on, or closing, a channel has
// made all its accesses before a receive from that channel returns
// (diskqueue's ioLoop ends with exitSyncChan <- 1, and exit reads the
// files after <-exitSyncChan); a method whose deferred close of a
// channel follows its writes has made them before a receive from it
// returns (suture's stopSupervisor and UnstoppedServiceReport's
// <-s.liveness). The access before the handshake must not be reachable
// again after it: a loop that writes and sends at every turn writes
// again while the receiver reads.

// maxHandshakeDepth bounds how deep handshake follows calls on the
// receiver into callees, to find where an access happens.
const maxHandshakeDepth = 3

// handshake reports whether a channel of the receiver orders access u
// with each access of ev it conflicts with: every one of them happens
// before a send on, or close of, the channel, and u after a receive from
// it; or the other way round.
func handshake(res *summary.Result, u use, ev []use) bool {
	var conflicting []use
	for _, v := range ev {
		if u.a.Write || v.a.Write {
			conflicting = append(conflicting, v)
		}
	}
	if len(conflicting) == 0 || u.m.Func == nil || len(u.m.Func.Params) == 0 {
		return false
	}
	h := &shake{res: res, cfgs: map[*ssa.Function]*cfg{}}
	for _, ch := range recvChans(u.m.Func) {
		after := func(x use) bool { return x.m.Func != nil && h.afterReceive(x.m.Func, x.a.Pos, x.a.Loc, ch, 0) }
		before := func(x use) bool { return x.m.Func != nil && h.beforeRelease(x.m.Func, x.a.Pos, x.a.Loc, ch, 0) }
		if after(u) && all(conflicting, before) || before(u) && all(conflicting, after) {
			return true
		}
	}
	return false
}

// A shake answers the ordering questions of handshake, with the cfg of
// each function it looks at built once.
type shake struct {
	res  *summary.Result
	cfgs map[*ssa.Function]*cfg
}

// cfg returns the cfg of fn.
func (h *shake) cfg(fn *ssa.Function) *cfg {
	g := h.cfgs[fn]
	if g == nil {
		g = newCFG(h.res, fn)
		h.cfgs[fn] = g
	}
	return g
}

func all(us []use, ok func(use) bool) bool {
	for _, u := range us {
		if !ok(u) {
			return false
		}
	}
	return true
}

// recvChans returns the channel fields of the struct fn's receiver
// points to.
func recvChans(fn *ssa.Function) []*types.Var {
	p, ok := fn.Params[0].Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []*types.Var
	for i := range st.NumFields() {
		if _, ok := st.Field(i).Type().Underlying().(*types.Chan); ok {
			out = append(out, st.Field(i))
		}
	}
	return out
}

// recvField reports whether v loads field ch of fn's receiver.
func recvField(fn *ssa.Function, v ssa.Value, ch *types.Var) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || !isRecv(fn, fa.X) {
		return false
	}
	st := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	return st.Field(fa.Field) == ch
}

// isRecv reports whether v is fn's receiver: the parameter, or a load
// of the variable it is spilled to when a closure captures it.
func isRecv(fn *ssa.Function, v ssa.Value) bool {
	recv := fn.Params[0]
	if v == recv {
		return true
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	stored := false
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			if st.Val != recv {
				return false
			}
			stored = true
		}
	}
	return stored
}

// afterReceive reports whether the access of loc at pos in fn happens
// after a receive from channel ch of the receiver on every path: the
// receive dominates it, or it happens in a callee on the receiver whose
// accesses of loc all do.
func (h *shake) afterReceive(fn *ssa.Function, pos token.Pos, loc string, ch *types.Var, depth int) bool {
	g := h.cfg(fn)
	at := g.at(pos)
	if len(at) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			if r, ok := instr.(*ssa.UnOp); ok && r.Op == token.ARROW && recvField(fn, r.X, ch) && g.dominatesAll(b, i, at) {
				return true
			}
		}
	}
	return h.inCallees(fn, at, loc, depth, func(callee *ssa.Function, p token.Pos) bool {
		return h.afterReceive(callee, p, loc, ch, depth+1)
	})
}

// beforeRelease reports whether the access of loc at pos in fn happens
// before a send on, or a close of, channel ch of the receiver, after
// which it cannot happen again: fn defers the close, or the send or
// close post-dominates the access and does not lead back to it; or the
// access happens in a callee on the receiver whose accesses of loc all
// do.
func (h *shake) beforeRelease(fn *ssa.Function, pos token.Pos, loc string, ch *types.Var, depth int) bool {
	g := h.cfg(fn)
	at := g.at(pos)
	if len(at) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Defer:
				if isClose(fn, in.Call, ch) {
					return true
				}
			case *ssa.Send:
				if recvField(fn, in.Chan, ch) && g.postDominatesAll(b, i, at) {
					return true
				}
			case *ssa.Call:
				if isClose(fn, in.Call, ch) && g.postDominatesAll(b, i, at) {
					return true
				}
			}
		}
	}
	return h.inCallees(fn, at, loc, depth, func(callee *ssa.Function, p token.Pos) bool {
		return h.beforeRelease(callee, p, loc, ch, depth+1)
	})
}

// isClose reports whether call is close(ch) of fn's receiver's channel.
func isClose(fn *ssa.Function, call ssa.CallCommon, ch *types.Var) bool {
	b, ok := call.Value.(*ssa.Builtin)
	return ok && b.Name() == "close" && len(call.Args) == 1 && recvField(fn, call.Args[0], ch)
}

// inCallees reports whether the instructions at are calls, on fn's
// receiver, of functions whose accesses of loc all satisfy ok, and there
// is at least one.
func (h *shake) inCallees(fn *ssa.Function, at []ssa.Instruction, loc string, depth int,
	ok func(*ssa.Function, token.Pos) bool) bool {
	if depth >= maxHandshakeDepth {
		return false
	}
	some := false
	for _, instr := range at {
		call, isCall := instr.(*ssa.Call)
		if !isCall || len(call.Call.Args) == 0 || !isRecv(fn, call.Call.Args[0]) {
			continue
		}
		callee := call.Call.StaticCallee()
		sum := h.res.Of(callee)
		if callee == nil || sum == nil || len(callee.Params) == 0 {
			return false
		}
		for _, a := range sum.Accesses {
			if a.Loc != loc {
				continue
			}
			if !a.Pos.IsValid() || !ok(callee, a.Pos) {
				return false
			}
			some = true
		}
	}
	return some
}

// dominatesAll reports whether instruction i of block b runs before each
// of the instructions at on every path to it.
func (g *cfg) dominatesAll(b *ssa.BasicBlock, i int, at []ssa.Instruction) bool {
	for _, x := range at {
		xb := x.Block()
		if xb == b {
			if g.index[x] <= i {
				return false
			}
			continue
		}
		if !b.Dominates(xb) {
			return false
		}
	}
	return true
}

// postDominatesAll reports whether instruction i of block b runs after
// each of the instructions at on every path from it to the function's
// end, and none of them can run again after it.
func (g *cfg) postDominatesAll(b *ssa.BasicBlock, i int, at []ssa.Instruction) bool {
	for _, x := range at {
		xb := x.Block()
		if xb == b && g.index[x] >= i {
			return false
		}
		if g.reach[b.Index][xb.Index] {
			return false // the access can happen again after it
		}
		if xb != b && endsAvoiding(xb, b) {
			return false // a path from the access ends without it
		}
	}
	return true
}

// endsAvoiding reports whether a block ending the function (a return;
// not a panic) can be reached from block from without going through
// avoid.
func endsAvoiding(from, avoid *ssa.BasicBlock) bool {
	if len(from.Succs) == 0 {
		return endsFunction(from)
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), from.Succs...)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] || s == avoid {
			continue
		}
		seen[s] = true
		if len(s.Succs) == 0 && endsFunction(s) {
			return true
		}
		stack = append(stack, s.Succs...)
	}
	return false
}

// endsFunction reports whether b returns (rather than panics).
func endsFunction(b *ssa.BasicBlock) bool {
	if len(b.Instrs) == 0 {
		return false
	}
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
	return ok
}
