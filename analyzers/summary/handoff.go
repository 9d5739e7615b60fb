package summary

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// Lock handoff.
//
// A method may hold a lock, wake a goroutine of its type through a
// channel, and wait for it before unlocking:
//
//	func (p *Pool) Put(x int) {
//		p.mu.Lock()
//		defer p.mu.Unlock()
//		p.wg.Add(1)
//		p.wake <- x
//		p.wg.Wait() // or <-p.done
//	}
//
//	func (p *Pool) waiter() {
//		for x := range p.wake {
//			p.items = append(p.items, x) // runs while Put holds p.mu
//			p.wg.Done()                  // or p.done <- struct{}{}
//		}
//	}
//
// The goroutine's accesses between its receive and its signal run while
// the sender holds the lock: they hold it too. A channel is a handoff
// channel when every send on it in the package (a field of an object)
// holds a lock of that object in write mode and, on every path from the
// send to a release of the lock or a return, waits for a signal of that
// object first: a WaitGroup.Wait, or a receive from another of its
// channels; and when every Done of that WaitGroup (every send on that
// reply channel) in the package is made by a function that receives from
// the handoff channel. The summaries then hold the lock at the accesses
// (not at the acquisitions or calls) that follow a receive from the
// handoff channel until the signal.

// A handoff describes a handoff channel, by the class of the channel's
// field. The lock and the signal are fields of the same object as the
// channel, named relative to it.
type handoff struct {
	lock  string // the lock's field ("mu")
	class string // the lock's class
	// signal is the WaitGroup's field ("wg", wg set) or the reply
	// channel's ("done").
	signal string
	wg     bool
	// sigClass is the signal's class.
	sigClass string
}

// A heldHandoff is a lock held by handoff, with the location of the
// signal that ends it.
type heldHandoff struct {
	Held
	signal string
}

// ownerPrefix returns the path of the object whose field p is, with the
// step to its fields ("$0." for "$0.wake", "$0.in->" for "$0.in->wake"),
// or "" when p is not a field of an object (its class is not a field's).
func ownerPrefix(p lockstate.Path) string {
	i := strings.LastIndexByte(p.Class, '.')
	if i < 0 {
		return ""
	}
	name := p.Class[i+1:]
	prefix, ok := strings.CutSuffix(p.Str, name)
	if !ok || !strings.HasSuffix(prefix, ".") && !strings.HasSuffix(prefix, "->") || lockstate.Root(p.Str) == p.Str {
		return ""
	}
	return prefix
}

// field reports whether rel is one field name, without further steps.
func oneField(rel string) bool {
	return rel != "" && !strings.ContainsAny(rel, ".[-")
}

// findHandoffs returns the handoff channels of funcs, by class.
func (b *builder) findHandoffs(funcs []*ssa.Function) map[string]*handoff {
	found := map[string]*handoff{}
	bad := map[string]bool{}
	// receivers lists, by channel class, the functions that receive
	// from a channel of that class.
	receivers := map[string]map[*ssa.Function]bool{}
	type signalOp struct {
		fn    *ssa.Function
		class string
		wg    bool
	}
	var signals []signalOp
	for _, fn := range funcs {
		if len(fn.Blocks) == 0 {
			continue
		}
		r := lockstate.NewNamer(fn)
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				switch in := instr.(type) {
				case *ssa.UnOp:
					if in.Op == token.ARROW {
						for _, p := range r.Paths(in.X) {
							if p.Class != "" {
								if receivers[p.Class] == nil {
									receivers[p.Class] = map[*ssa.Function]bool{}
								}
								receivers[p.Class][fn] = true
							}
						}
					}
				case *ssa.Call:
					if lockstate.SyncMethod(in.Call.StaticCallee()) == "(*sync.WaitGroup).Done" {
						for _, p := range r.Paths(in.Call.Args[0]) {
							signals = append(signals, signalOp{fn: fn, class: p.Class, wg: true})
						}
					}
				case *ssa.Send:
					ps := r.Paths(in.Chan)
					for _, p := range ps {
						signals = append(signals, signalOp{fn: fn, class: p.Class})
					}
					if len(ps) != 1 || ps[0].Class == "" {
						continue
					}
					class := ps[0].Class
					if bad[class] {
						continue
					}
					h := b.sendHandoff(fn, r, in, ps[0])
					if h == nil || found[class] != nil && *found[class] != *h {
						bad[class] = true
						delete(found, class)
						continue
					}
					found[class] = h
				}
			}
		}
	}
	// The signals must be the handoff's goroutines' own.
	for class, h := range found {
		for _, s := range signals {
			if s.class == h.sigClass && s.wg == h.wg && !receivers[class][s.fn] {
				delete(found, class)
				break
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	return found
}

// sendHandoff returns the handoff that the send s on the channel at p
// makes, or nil: the lock of p's object held in write mode at the send,
// and the signal waited for on every path from the send to a release of
// the lock or a return.
func (b *builder) sendHandoff(fn *ssa.Function, r *lockstate.Namer, s *ssa.Send, p lockstate.Path) *handoff {
	prefix := ownerPrefix(p)
	if prefix == "" {
		return nil
	}
	var lock Held
	for _, h := range b.sendHeld[s] {
		if h.Mode == lockstate.W && strings.HasPrefix(h.Lock, prefix) && oneField(h.Lock[len(prefix):]) {
			lock = h
			break
		}
	}
	if lock.Lock == "" {
		return nil
	}
	var sig *handoff
	// wait reports the signal instr waits for, if it is one of the
	// object's: a WaitGroup.Wait, or a receive from another channel.
	wait := func(instr ssa.Instruction) (*handoff, bool) {
		var q []lockstate.Path
		wg := false
		switch in := instr.(type) {
		case *ssa.Call:
			if lockstate.SyncMethod(in.Call.StaticCallee()) != "(*sync.WaitGroup).Wait" {
				return nil, false
			}
			q, wg = r.Paths(in.Call.Args[0]), true
		case *ssa.UnOp:
			if in.Op != token.ARROW {
				return nil, false
			}
			q = r.Paths(in.X)
		default:
			return nil, false
		}
		if len(q) != 1 || q[0].Str == p.Str || !strings.HasPrefix(q[0].Str, prefix) || !oneField(q[0].Str[len(prefix):]) {
			return nil, false
		}
		return &handoff{lock: lock.Lock[len(prefix):], class: lock.Class, signal: q[0].Str[len(prefix):], wg: wg, sigClass: q[0].Class}, true
	}
	// releases reports whether instr may release the lock.
	releases := func(instr ssa.Instruction) bool {
		switch in := instr.(type) {
		case *ssa.Return, *ssa.RunDefers:
			return true
		case *ssa.Call:
			c := &in.Call
			if op := lockstate.LockCall(c); op.Kind != lockstate.OpNone {
				if op.Kind != lockstate.OpUnlock || op.Mode != lockstate.W {
					return false
				}
				if c.IsInvoke() {
					return true
				}
				qs := r.Paths(op.Lock)
				for _, q := range qs {
					if q.Location() == lock.Lock {
						return true
					}
				}
				return len(qs) == 0
			}
			callee := c.StaticCallee()
			if c.IsInvoke() || callee == nil || lockstate.SyncMethod(callee) != "" {
				return false
			}
			sum := b.sums[origin(callee)]
			if sum == nil {
				return false
			}
			m := mapper{lockstate.CallFrame(r, c.Args, nil)}
			for _, rel := range sum.Released {
				if slices.Contains(m.loc(rel), lock.Lock) {
					return true
				}
			}
		}
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	type item struct {
		b    *ssa.BasicBlock
		from int
	}
	work := []item{{s.Block(), slices.Index(s.Block().Instrs, ssa.Instruction(s)) + 1}}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		stop := false
		for _, instr := range it.b.Instrs[it.from:] {
			if h, ok := wait(instr); ok {
				if sig != nil && *sig != *h {
					return nil
				}
				sig, stop = h, true
				break
			}
			if releases(instr) {
				return nil
			}
			if _, ok := instr.(*ssa.Panic); ok {
				stop = true
				break
			}
		}
		if stop {
			continue
		}
		for _, succ := range it.b.Succs {
			if !seen[succ] {
				seen[succ] = true
				work = append(work, item{succ, 0})
			}
		}
	}
	return sig
}

// receivesHandoff reports whether fn receives from a handoff channel.
func (b *builder) receivesHandoff(fn *ssa.Function) bool {
	r := lockstate.NewNamer(fn)
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.ARROW {
				for _, p := range r.Paths(u.X) {
					if b.handoffs[p.Class] != nil {
						return true
					}
				}
			}
		}
	}
	return false
}

// takeHandoff adds to the state the lock handed off through the receive
// from the channel at ps, if it is a handoff channel.
func (w *walker) takeHandoff(st *state, instr ssa.Instruction, ps []lockstate.Path) {
	if w.b.handoffs == nil || len(ps) != 1 {
		return
	}
	h := w.b.handoffs[ps[0].Class]
	prefix := ownerPrefix(ps[0])
	if h == nil || prefix == "" {
		return
	}
	lock := prefix + h.lock
	if heldIn(st.held, lock) || slices.ContainsFunc(st.handoff, func(x heldHandoff) bool { return x.Lock == lock }) {
		return
	}
	pos := lockstate.InstrPos(instr, w.fn)
	st.handoff = append(st.handoff, heldHandoff{
		Held:   Held{Lock: lock, Class: h.class, Mode: lockstate.W, Site: w.site(instr, 0), Pos: pos, Where: w.b.where(pos)},
		signal: prefix + h.signal,
	})
}

// signalHandoff ends the handoffs whose signal is at ps.
func signalHandoff(st *state, ps []lockstate.Path) {
	if len(st.handoff) == 0 {
		return
	}
	st.handoff = slices.DeleteFunc(st.handoff, func(x heldHandoff) bool {
		return slices.ContainsFunc(ps, func(p lockstate.Path) bool { return p.Str == x.signal })
	})
}

// withHandoff returns hs with the locks held by handoff added (a new
// slice, sorted by Lock).
func withHandoff(hs []Held, st *state) []Held {
	if len(st.handoff) == 0 {
		return hs
	}
	out := slices.Clone(hs)
	for _, x := range st.handoff {
		if !heldIn(out, x.Lock) {
			out = append(out, x.Held)
		}
	}
	slices.SortFunc(out, func(a, b Held) int { return strings.Compare(a.Lock, b.Lock) })
	return out
}
