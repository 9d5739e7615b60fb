package lockleak

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/lockflow"
)

// loops reports the continue, break and loop-body ends that leave a
// lock held while other iterations release it.
func (r *reporter) loops() {
	fn := r.f.Fn
	seen := map[*loopSyntax]bool{}
	var later []func()
	defer func() {
		for _, report := range later {
			report()
		}
	}()
	for _, h := range fn.Blocks {
		var backs []*ssa.BasicBlock
		for _, p := range h.Preds {
			if h.Dominates(p) {
				backs = append(backs, p)
			}
		}
		if len(backs) == 0 {
			continue
		}
		in := naturalLoop(h, backs)
		var pos []token.Pos
		for b := range in {
			for _, instr := range b.Instrs {
				if _, ok := instr.(*ssa.Phi); ok {
					continue
				}
				if p := instr.Pos(); p.IsValid() {
					pos = append(pos, p)
				}
			}
		}
		l := r.sx.loopOf(pos)
		if l == nil || r.funcBody(l) {
			continue
		}
		seen[l] = true
		// The edges that start the next iteration: into the loop's
		// continue block (the post statement of a three-clause loop)
		// or into the header.
		var conts []edge
		for _, x := range backs {
			if (len(x.Preds) >= 2 || isPost(l, x)) && len(x.Succs) == 1 && !r.hasLockOps(x) {
				for _, p := range x.Preds {
					conts = append(conts, edge{p, succIndex(p, x)})
				}
				continue
			}
			conts = append(conts, edge{x, succIndex(x, h)})
		}
		exits := exitEdges(in)
		for _, k := range r.keys() {
			if !r.acquiredIn(in, k) || !r.invariant(in, k) {
				continue
			}
			var leak []edge
			released := false
			for _, e := range conts {
				s := r.f.Out(e.b, e.i)
				if s.Dead() {
					continue
				}
				switch v := s.Get(k); {
				case v == lockflow.Held:
					leak = append(leak, e)
				case lockflow.Releasing(v):
					released = true
				}
			}
			// A continue statement that holds the lock, with the next
			// iteration locking it again, blocks whether or not other
			// iterations release it; the end of the body counts only
			// when they do (a loop left by a break after its first
			// acquisition ends its body holding the lock by design).
			if len(leak) > 0 {
				relock, ok := r.relock(h, in, k)
				if ok {
					for _, e := range leak {
						c, ok := r.sx.edgeStmt(l, e.b, e.i)
						if !ok || c.brk || c.end && !released {
							continue
						}
						a := r.f.Out(e.b, e.i).Site(k)
						where := "continues to the next iteration"
						if c.end {
							where = "reaches the end of the loop body"
						}
						why := "but other iterations release it; "
						report := func() {
							r.report(c.pos,
								fmt.Sprintf("%s is still locked (%s) when the loop %s, %sthe next iteration locks it again at %s",
									a.Path.Display, r.acqText(a), where, why, r.short(relock)),
								analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"},
								analysis.RelatedInformation{Pos: relock, Message: "locked again here"})
						}
						if !released {
							// Last: an inner loop's rules say more
							// of a labeled continue (see breaks).
							why = "and no iteration releases it before "
							later = append(later, report)
							continue
						}
						report()
					}
				}
			}
			r.breaks(l, in, k, exits, released)
		}
	}
	// A loop whose every iteration ends in a break or a return has no
	// back edge (for { mu.Lock(); if c { break }; mu.Unlock(); break }):
	// its blocks are those of its body, and its breaks are checked as
	// any loop's.
	for _, l := range r.sx.loops {
		if seen[l] || r.funcBody(l) {
			continue
		}
		in := map[*ssa.BasicBlock]bool{}
		for _, b := range fn.Blocks {
			if p := minPos(b); p.IsValid() && within(p, l.body) {
				in[b] = true
			}
		}
		if len(in) == 0 {
			continue
		}
		exits := exitEdges(in)
		for _, k := range r.keys() {
			if r.acquiredIn(in, k) {
				r.breaks(l, in, k, exits, false)
			}
		}
	}
}

// isPost reports whether b is the post statement of the three-clause
// loop l (i++), which every continue goes through.
func isPost(l *loopSyntax, b *ssa.BasicBlock) bool {
	fs, ok := l.stmt.(*ast.ForStmt)
	return ok && fs.Post != nil && within(minPos(b), fs.Post)
}

// funcBody reports whether l ranges over a function: its body is a
// function of its own.
func (r *reporter) funcBody(l *loopSyntax) bool {
	rs, ok := l.stmt.(*ast.RangeStmt)
	if !ok {
		return false
	}
	_, isFunc := r.pass.TypesInfo.TypeOf(rs.X).Underlying().(*types.Signature)
	return isFunc
}

// exitEdges returns the edges from the blocks of in to blocks outside
// it, in block order.
func exitEdges(in map[*ssa.BasicBlock]bool) []edge {
	var exits []edge
	for b := range in {
		for i, s := range b.Succs {
			if !in[s] {
				exits = append(exits, edge{b, i})
			}
		}
	}
	sort.Slice(exits, func(i, j int) bool {
		if exits[i].b.Index != exits[j].b.Index {
			return exits[i].b.Index < exits[j].b.Index
		}
		return exits[i].i < exits[j].i
	})
	return exits
}

// breaks reports a break that leaves the loop holding lock k, when no
// path after it releases k and another way out of the loop (or a
// return) does, or when, other iterations releasing k (iterReleased),
// the paths after it come back to an acquisition of k before releasing
// it (an enclosing loop that enters the loop again).
func (r *reporter) breaks(l *loopSyntax, in map[*ssa.BasicBlock]bool, k string, exits []edge, iterReleased bool) {
	released := false
	var leak []int
	for j, e := range exits {
		s := r.f.Out(e.b, e.i)
		if s.Dead() {
			continue
		}
		v := s.Get(k)
		if v == lockflow.Held && s.Undeferred(k) {
			leak = append(leak, j)
		} else if lockflow.Releasing(v) {
			released = true
		}
	}
	if len(leak) == 0 || !released && !iterReleased {
		return
	}
	for _, j := range leak {
		e := exits[j]
		c, ok := r.sx.edgeStmt(l, e.b, e.i)
		if !ok || !c.brk {
			continue
		}
		after, relock := r.afterExit(e.b.Succs[e.i], k)
		if after || !released && !relock.IsValid() {
			continue
		}
		a := r.f.Out(e.b, e.i).Site(k)
		stmt := "break"
		if c.outer {
			stmt = "continue"
		}
		if relock.IsValid() && iterReleased {
			// An enclosing loop comes back to the acquisition.
			r.report(c.pos,
				fmt.Sprintf("%s is still locked (%s) when this %s leaves the loop, and the enclosing loop locks it again at %s before releasing it",
					a.Path.Display, r.acqText(a), stmt, r.short(relock)),
				analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"},
				analysis.RelatedInformation{Pos: relock, Message: "locked again here"})
			continue
		}
		r.report(c.pos,
			fmt.Sprintf("%s is still locked (%s) when this %s leaves the loop, and no path after the loop releases it, while the loop's other exits do",
				a.Path.Display, r.acqText(a), stmt),
			analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"})
	}
}

// An edge is the i'th outgoing edge of block b.
type edge struct {
	b *ssa.BasicBlock
	i int
}

func (r *reporter) hasLockOps(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		switch instr.(type) {
		case *ssa.Call, *ssa.Defer, *ssa.Go:
			return true
		}
	}
	return false
}

func succIndex(b, s *ssa.BasicBlock) int {
	for i, x := range b.Succs {
		if x == s {
			return i
		}
	}
	return -1
}

// naturalLoop returns the blocks of the loop with header h.
func naturalLoop(h *ssa.BasicBlock, backs []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	in := map[*ssa.BasicBlock]bool{h: true}
	work := append([]*ssa.BasicBlock(nil), backs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if in[b] {
			continue
		}
		in[b] = true
		work = append(work, b.Preds...)
	}
	return in
}

func (r *reporter) acquiredIn(in map[*ssa.BasicBlock]bool, k string) bool {
	for b := range in {
		for _, instr := range b.Instrs {
			if r.f.Acquires(instr, k) {
				return true
			}
		}
	}
	return false
}

// invariant reports whether lock k names the same object in every
// iteration: its values are defined outside the loop, or are loads of
// locations the loop does not store to.
func (r *reporter) invariant(in map[*ssa.BasicBlock]bool, k string) bool {
	p := r.f.Path(k)
	if p.Weak {
		return false
	}
	for _, v := range p.Values {
		instr, ok := v.(ssa.Instruction)
		if !ok || !in[instr.Block()] {
			continue
		}
		load, ok := v.(*ssa.UnOp)
		if !ok {
			return false
		}
		addr, ok := r.f.Name(load.X)
		if !ok {
			return false
		}
		for b := range in {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if a, ok := r.f.Name(st.Addr); !ok || a.Key() == addr.Key() {
					return false
				}
			}
		}
	}
	return true
}

// relock returns the first acquisition of k reachable from the loop
// header without releasing it first.
func (r *reporter) relock(h *ssa.BasicBlock, in map[*ssa.BasicBlock]bool, k string) (token.Pos, bool) {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{h}
	best := token.NoPos
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		if seen[b] || !in[b] {
			continue
		}
		seen[b] = true
		stop := false
		for _, instr := range b.Instrs {
			if r.f.Acquires(instr, k) {
				if c := instr.Pos(); c.IsValid() && (!best.IsValid() || c < best) {
					best = c
				}
				stop = true
				break
			}
			if r.f.Releases(instr, k) {
				stop = true
				break
			}
		}
		if !stop {
			work = append(work, b.Succs...)
		}
	}
	return best, best.IsValid()
}

// afterExit follows the paths from b: released reports whether one of
// them may release k; relock is the first acquisition of k that a path
// reaches before releasing it (an enclosing loop that comes back to it).
func (r *reporter) afterExit(b *ssa.BasicBlock, k string) (released bool, relock token.Pos) {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{b}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		stop := false
		for _, instr := range b.Instrs {
			if r.f.Releases(instr, k) {
				return true, token.NoPos
			}
			if r.f.Acquires(instr, k) {
				if p := instr.Pos(); p.IsValid() && (!relock.IsValid() || p < relock) {
					relock = p
				}
				stop = true
				break
			}
		}
		if !stop {
			work = append(work, b.Succs...)
		}
	}
	return false, relock
}
