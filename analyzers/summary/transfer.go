package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// The walker is the must-held analysis's lockstate.Ops: the engine reads
// the function's lock operations, calls and defer statements, and the
// walker applies them to the held set and records the summary's
// accesses and acquisitions.

// Instr records the accesses of instr (lockstate.Ops), and the locks
// held at a send and at a call.
func (w *walker) Instr(st *state, instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.UnOp:
		switch in.Op {
		case token.MUL:
			if isCell(in.X) {
				return
			}
			w.accessAll(st, w.r.Paths(in.X), location, false, 0, in)
		case token.ARROW:
			ps := w.r.Paths(in.X)
			w.accessAll(st, ps, location, false, Chan, in)
			w.takeHandoff(st, in, ps)
		}
	case *ssa.Store:
		if isCell(in.Addr) {
			return
		}
		w.accessAll(st, w.r.Paths(in.Addr), location, true, 0, in)
	case *ssa.MapUpdate:
		w.accessAll(st, w.r.Paths(in.Map), elements, true, Map, in)
	case *ssa.Lookup:
		if _, ok := in.X.Type().Underlying().(*types.Map); ok {
			w.accessAll(st, w.r.Paths(in.X), elements, false, Map, in)
		}
	case *ssa.Next:
		if rng, ok := in.Iter.(*ssa.Range); ok && !in.IsString {
			w.accessAll(st, w.r.Paths(rng.X), elements, false, Map, in)
		}
	case *ssa.Send:
		ps := w.r.Paths(in.Chan)
		if w.record && w.b.sendHeld != nil && len(st.held) > 0 && w.consts.IsZero() {
			w.b.sendHeld[in] = withoutEntry(heldNow(st))
		}
		w.accessAll(st, ps, location, false, Chan, in)
		signalHandoff(st, ps)
	case *ssa.Select:
		for _, s := range in.States {
			w.accessAll(st, w.r.Paths(s.Chan), location, false, Chan, in)
		}
	case *ssa.Call:
		if w.record && w.consts.IsZero() {
			w.recordHeld(in, st)
			delete(w.b.callOps, in) // an earlier round's
		}
	}
}

// Lock applies a lock event (lockstate.Ops). A lock with several paths
// is an acquisition event (for DS) but is not known to be held (see
// lockPaths); one without a path is held by the name of its SSA value
// (acquireAnon). A lock taken on a branch (a TryLock that succeeded, a
// select's case) makes no acquisition event: the TryLock never blocks,
// and the select's is recorded at the select (Attempt).
func (w *walker) Lock(st *state, instr ssa.Instruction, ev lockstate.Event) {
	if ev.Chan {
		w.chanLock(st, instr, ev)
		return
	}
	switch ev.Kind {
	case lockstate.Acquire, lockstate.Release:
		acquire := ev.Kind == lockstate.Acquire
		ps := w.r.Paths(ev.Lock)
		if len(ps) == 0 {
			if acquire {
				w.acquireAnon(st, instr, ev.Lock, ev.Mode)
			} else {
				releaseAnon(st, ev.Lock)
			}
			return
		}
		w.lockPaths(st, instr, ev.Lock, ps, acquire, ev.Mode)
	case lockstate.Taken:
		saved := w.record
		w.record = false
		for _, p := range w.r.Paths(ev.Lock) {
			w.acquire(st, instr, 0, p.Location(), lockClass(p, ev.Lock), ev.Mode, false)
		}
		w.record = saved
	case lockstate.HandOff:
		for _, p := range w.r.Paths(ev.Lock) {
			w.handOff(st, instr, p.Location())
		}
	}
	// MayAcquire: a lock that may be held is not known to be.
}

// chanLock applies a lock event on a channel used as a mutex: its paths
// that are such channels, as paths of their fields.
func (w *walker) chanLock(st *state, instr ssa.Instruction, ev lockstate.Event) {
	locks := lockstate.ChanLockPaths(w.b.chanLocks, w.r.Paths(ev.Lock))
	if len(locks) == 0 {
		return
	}
	switch ev.Kind {
	case lockstate.Acquire, lockstate.Release:
		w.lockPaths(st, instr, ev.Lock, locks, ev.Kind == lockstate.Acquire, ev.Mode)
	case lockstate.Attempt:
		for _, p := range locks {
			if sel, ok := instr.(*ssa.Select); ok && len(sel.States) > 1 {
				setAdd(&w.selected, p.Location())
			}
			w.acquire(st, instr, 0, p.Location(), lockClass(p, ev.Lock), ev.Mode, true)
		}
	case lockstate.Taken:
		saved := w.record
		w.record = false
		w.lockPaths(st, instr, ev.Lock, locks, true, ev.Mode)
		w.record = saved
	}
}

// lockPaths acquires (or releases) the lock v, whose paths are ps
// (one, or several it may be). A lock that may be one of several is an
// acquisition event (for DS) but is not known to be held. A release of a
// lock the function does not hold makes it one the function is entered
// holding, unless it acquires it too (entrySeed).
func (w *walker) lockPaths(st *state, instr ssa.Instruction, v ssa.Value, ps []lockstate.Path, acquire bool, mode lockstate.Mode) {
	for _, p := range ps {
		loc := p.Location()
		if acquire {
			w.acquire(st, instr, 0, loc, lockClass(p, v), mode, len(ps) > 1)
			continue
		}
		if len(ps) == 1 {
			w.enteredHolding(st, loc, lockClass(p, v), mode)
		}
		w.release(st, instr, loc)
	}
}

// enteredHolding records, before a release of lock, that the function
// is entered holding it when it does not hold it here (see entrySeed).
// An exported function is not entered holding a lock that other
// packages cannot name (lockstate.Private), unless its receiver's type
// lets them take its lock (a Lock method): its callers there cannot
// hold it, and one that releases it is a defect, or a helper of its
// package's own callers that the package documents.
func (w *walker) enteredHolding(st *state, lock, class string, mode lockstate.Mode) {
	if heldIn(st.held, lock) || w.exported() && lockstate.Private(lock) && !w.recvLocker() {
		return
	}
	if w.entryRel == nil {
		w.entryRel = map[string]Held{}
	}
	if _, ok := w.entryRel[lock]; !ok {
		w.entryRel[lock] = Held{Lock: lock, Class: class, Mode: mode, Site: entrySite,
			Pos: w.fn.Pos(), Where: w.b.where(w.fn.Pos())}
	}
}

// handOff applies the release of lock by a goroutine the function
// starts: from the go statement on, the function no longer holds it for
// sure. A lock it does not hold is the goroutine's own business.
func (w *walker) handOff(st *state, instr ssa.Instruction, lock string) {
	if heldIn(st.held, lock) {
		w.release(st, instr, lock)
	}
}

// Call applies a call that makes no lock operation (lockstate.Ops).
func (w *walker) Call(st *state, instr ssa.Instruction, c *ssa.CallCommon, how lockstate.How) {
	if how == lockstate.Goroutine {
		w.call(st, instr, c, callGo)
		return
	}
	w.call(st, instr, c, callNormal)
}

// Defer records that the i-th defer statement ran (lockstate.Ops).
func (w *walker) Defer(st *state, i int, _ *ssa.Defer) {
	if i >= 0 && i < maxDefers {
		st.deferred |= 1 << i
	}
}

// Runs reports whether the i-th deferred call runs at a return reached
// in st (lockstate.Ops): those deferred on every path to it, or all of
// them when the function has more than maxDefers.
func (w *walker) Runs(st *state, i int) bool {
	return len(w.e.Defers()) > maxDefers || st.deferred&(1<<i) != 0
}

// exported reports whether code of other packages may call the function
// by name: an exported function or method, not a closure.
func (w *walker) exported() bool {
	obj, ok := w.fn.Object().(*types.Func)
	return ok && obj.Exported() && w.fn.Parent() == nil
}

// recvLocker reports whether the function is a method of a type with an
// exported Lock or RLock method: callers of other packages may hold its
// lock.
func (w *walker) recvLocker() bool {
	recv := w.fn.Signature.Recv()
	if recv == nil {
		return false
	}
	ms := types.NewMethodSet(recv.Type())
	if _, ok := recv.Type().(*types.Pointer); !ok {
		ms = types.NewMethodSet(types.NewPointer(recv.Type()))
	}
	return ms.Lookup(nil, "Lock") != nil || ms.Lookup(nil, "RLock") != nil
}
