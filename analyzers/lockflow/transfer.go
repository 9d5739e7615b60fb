package lockflow

import (
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// ops is the may-held analysis's lockstate.Ops: the engine reads the
// function's lock operations, calls and defer statements, and ops
// applies them to the States of its Flow.
type ops struct{ *Flow }

// visit is called for each instruction with the State before it.
type visit func(instr ssa.Instruction, s *State)

// transfer runs the instructions of b over s.
func (f *Flow) transfer(b *ssa.BasicBlock, s *State, fn visit) *State {
	return f.eng.Walk(b, s, fn)
}

// Instr applies what an instruction does besides its lock operations
// and calls (lockstate.Ops): nothing, for the lock flows.
func (o ops) Instr(*State, ssa.Instruction) {}

// Lock applies a lock event (lockstate.Ops). An Unlock of a lock without
// a path may release any lock.
func (o ops) Lock(s *State, instr ssa.Instruction, ev lockstate.Event) {
	f := o.Flow
	p, ok := f.lockName(instr, ev)
	if !ok {
		if ev.Kind == lockstate.Release && !ev.Chan {
			f.weaken(s, "", "")
		}
		return
	}
	a := Acq{Path: p, Pos: ev.Pos, Read: ev.Mode == lockstate.R}
	switch ev.Kind {
	case lockstate.Acquire, lockstate.Taken:
		f.acquire(s, p, a)
	case lockstate.Release:
		f.release(s, p)
	case lockstate.MayAcquire:
		k := p.Key()
		f.paths[k] = p
		s.held[k] = s.get(k) | Held
		if _, ok := s.site[k]; !ok {
			s.site[k] = a
		}
	case lockstate.HandOff:
		f.handOff(s, p)
	}
	// Attempt: the lock is held on the branch of the select's case
	// (Taken).
}

// lockName names the lock of an event. A local lock operated on by a
// call is named as the source names its receiver.
func (f *Flow) lockName(instr ssa.Instruction, ev lockstate.Event) (lockstate.ExactPath, bool) {
	if ev.Chan {
		return lockstate.ExactChanLock(f.namer, f.prog.chanLocks, ev.Lock)
	}
	p, ok := f.namer.Exact(ev.Lock)
	if !ok {
		return p, false
	}
	if _, call := instr.(*ssa.Call); call && p.Local() && ev.Kind != lockstate.Taken {
		if text, ok := f.prog.recv[instr.Pos()]; ok {
			p.Display = text
		}
	}
	return p, true
}

// Call applies a call that makes no lock operation (lockstate.Ops).
func (o ops) Call(s *State, instr ssa.Instruction, c *ssa.CallCommon, how lockstate.How) {
	if how == lockstate.Goroutine {
		o.goStmt(instr, c, s)
		return
	}
	o.call(c, instr, s)
}

// Defer records the effects of a deferred call (lockstate.Ops).
func (o ops) Defer(s *State, _ int, d *ssa.Defer) { o.deferred(d, s) }

// Runs reports that no deferred call runs at a return (lockstate.Ops):
// the State keeps their effects apart (State.Exit applies them).
func (o ops) Runs(*State, int) bool { return false }

func (f *Flow) acquire(s *State, p lockstate.ExactPath, a Acq) {
	k := p.Key()
	f.paths[k] = p
	s.held[k] = Held
	s.site[k] = a
}

func (f *Flow) release(s *State, p lockstate.ExactPath) {
	k := p.Key()
	f.paths[k] = p
	if s.get(k)&Untouched != 0 {
		f.entryHeld[k] = true
		f.entryReleased[k] = true
	}
	s.held[k] = Released
	if p.Weak {
		f.weaken(s, p.Class, k)
	}
}

// weaken records that a release of an unknown lock of class cls (any
// class if empty) may have released any held lock.
func (f *Flow) weaken(s *State, cls, except string) {
	for k, v := range s.held {
		if k == except || v&Held == 0 {
			continue
		}
		if cls != "" && f.paths[k].Class != "" && f.paths[k].Class != cls {
			continue
		}
		s.held[k] = v | Released
	}
}

// call applies a call that makes no lock operation: a dynamic call may
// call a closure of the function that releases a lock, a callee that
// never returns ends the path, and a callee of the package has its net
// effect on the locks its caller can name.
func (f *Flow) call(c *ssa.CallCommon, instr ssa.Instruction, s *State) {
	callee, bindings := staticCallee(c)
	if callee == nil {
		if !c.IsInvoke() {
			// A dynamic call may call a closure of this function that
			// releases a lock.
			for _, k := range f.releasers {
				if s.get(k)&Held != 0 {
					s.held[k] = s.get(k) | Released
				}
			}
		}
		return
	}
	sum := f.prog.callSummary(callee, c.Args)
	if sum == nil {
		return
	}
	if sum.NoReturn {
		s.End()
		return
	}
	for k, bits := range sum.Effects {
		p, ok := f.mapPath(sum, k, c.Args, bindings)
		if !ok {
			if bits&Released != 0 {
				f.weaken(s, "", "")
			}
			continue
		}
		if p.Local() && sum.Paths[k].Root == "$0" && callee.Signature.Recv() != nil {
			// A method of a local value: name it as the source does.
			if text, ok := f.prog.recv[instr.Pos()]; ok {
				p.Display = text + sum.Paths[k].Display[len(sum.Paths[k].RootDisplay()):]
			}
		}
		key := p.Key()
		f.paths[key] = p
		old := s.get(key)
		if bits&Released != 0 && old&Untouched != 0 {
			f.entryHeld[key] = true
			if sum.EntryReleased[k] {
				f.entryReleased[key] = true
			}
		}
		var v uint8
		if bits&Untouched != 0 {
			v = old
		}
		v |= bits &^ Untouched
		s.held[key] = v
		if bits&Held != 0 {
			if _, ok := s.site[key]; !ok || bits == Held {
				s.site[key] = Acq{Path: p, Pos: instr.Pos(), Read: sum.Read[k], Via: callee.Name()}
			}
		}
		if bits == Released && p.Weak {
			f.weaken(s, p.Class, key)
		}
	}
}

// effects returns the net effect of the call c that instr makes (a
// deferred call, or a call that makes no lock operation), as the engine
// reads it: a lock operation, or the net effect of a summarized callee,
// as paths of the caller with their bits.
func (f *Flow) effects(instr ssa.Instruction, c *ssa.CallCommon) map[string]uint8 {
	out := map[string]uint8{}
	if ev, lockOp := f.eng.CallEvent(instr, c, lockstate.Here); lockOp {
		if ev.Kind == lockstate.Acquire || ev.Kind == lockstate.Release {
			if p, ok := f.lockName(instr, ev); ok {
				f.paths[p.Key()] = p
				out[p.Key()] = Held
				if ev.Kind == lockstate.Release {
					out[p.Key()] = Released
				}
			}
		}
		return out
	}
	callee, bindings := staticCallee(c)
	sum := f.prog.callSummary(callee, c.Args)
	if sum == nil {
		return out
	}
	for k, bits := range sum.Effects {
		if p, ok := f.mapPath(sum, k, c.Args, bindings); ok {
			f.paths[p.Key()] = p
			out[p.Key()] = bits
		}
	}
	return out
}

// deferred records the effects of the call that in defers, for each lock
// a set over the paths (State.def) that State.Exit applies at returns.
func (f *Flow) deferred(in *ssa.Defer, s *State) {
	for k, bits := range f.effects(in, &in.Call) {
		d := s.getDef(k) &^ dE
		if bits&Released != 0 {
			d |= dR
		}
		if bits&Held != 0 {
			d |= dA
		}
		if bits&Untouched != 0 {
			d |= dE
		}
		s.def[k] = d
	}
}

// goStmt applies a go statement: the goroutine may release a lock the
// function holds (go mu.Unlock(), or a function that releases a lock it
// may be entered holding: the lock is handed to it). A goroutine that
// takes and releases the lock itself changes nothing here: it waits for
// it like any other.
func (f *Flow) goStmt(instr ssa.Instruction, c *ssa.CallCommon, s *State) {
	for k := range f.handsOff(instr, c) {
		f.handOff(s, f.paths[k])
	}
}

// handOff applies the release of lock p by a goroutine the function
// starts: from the go statement on, it may be released.
func (f *Flow) handOff(s *State, p lockstate.ExactPath) {
	k := p.Key()
	f.paths[k] = p
	f.handedOff[k] = true
	s.held[k] = s.get(k) | Released
}

// handsOff returns the locks that the goroutine a go statement starts
// with c releases: go mu.Unlock(), or a function that releases a lock it
// may be entered holding. A goroutine that locks and unlocks a lock
// itself releases none of its starter's.
func (f *Flow) handsOff(instr ssa.Instruction, c *ssa.CallCommon) map[string]bool {
	out := map[string]bool{}
	if ev, lockOp := f.eng.CallEvent(instr, c, lockstate.Goroutine); lockOp {
		if ev.Kind == lockstate.HandOff {
			if p, ok := f.lockName(instr, ev); ok {
				f.paths[p.Key()] = p
				out[p.Key()] = true
			}
		}
		return out
	}
	callee, bindings := staticCallee(c)
	sum := f.prog.callSummary(callee, c.Args)
	if sum == nil {
		return out
	}
	for k := range sum.EntryReleased {
		if p, ok := f.mapPath(sum, k, c.Args, bindings); ok {
			f.paths[p.Key()] = p
			out[p.Key()] = true
		}
	}
	return out
}

// staticCallee returns the function a call statically calls, with the
// values bound to its free variables (a closure called where it is made).
func staticCallee(c *ssa.CallCommon) (*ssa.Function, []ssa.Value) {
	if c.IsInvoke() {
		return nil, nil
	}
	switch v := c.Value.(type) {
	case *ssa.Function:
		return v, nil
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok {
			return fn, v.Bindings
		}
	}
	return nil, nil
}

// mapPath maps a callee's lock path onto the caller's values.
func (f *Flow) mapPath(sum *Summary, k string, args, bindings []ssa.Value) (lockstate.ExactPath, bool) {
	fr := lockstate.Frame{Namer: f.namer, ArgVals: args, BindVals: bindings}
	return fr.Exact(sum.Paths[k])
}
