package lockstate

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// The Engine is the one transfer function of the lock states: it reads
// each instruction and each branch of a function as lock operations
// (Events), calls and deferred calls, and hands them to the Ops of an
// analysis, which apply them to its lattice: the locks that must be held
// (package summary, joined by intersection) or the ways each lock may be
// (package lockflow, joined by union). Solve runs it.
//
// Its reading of the operations:
//
//   - Lock and RLock acquire their lock (Acquire), Unlock and RUnlock
//     release it (Release), as LockCall tells them apart;
//   - a TryLock holds its lock on the true branch of an if on its result
//     (Taken, see TryLockEdge), and may hold it wherever its result is
//     used otherwise (MayAcquire);
//   - a send on a channel used as a mutex (see FindChanLocks) acquires
//     it, a receive from it releases it; a select without a default case
//     blocks to acquire it in a case that sends on it (Attempt), and the
//     branch that runs that case holds it (Taken, see SelectCaseEdge), as
//     the branch of a select with a default case does;
//   - a panic ends the path: no path reaches the point after it (End);
//   - a goroutine started by a go statement holds none of its starter's
//     locks: its Lock calls are its own, and an Unlock hands the lock
//     over (HandOff: from the go statement on, the lock may be released
//     at any time);
//   - any other call, in the function's goroutine or in a new one, is
//     the analysis's to apply (Ops.Call): through its callee's summary,
//     mapped onto the caller's paths by a Frame, or as unknown code;
//   - a defer statement is the analysis's to record (Ops.Defer); a
//     RunDefers runs, last first, the deferred calls that the analysis
//     says run there (Ops.Runs), as calls made there.

// An EventKind is what a lock operation does to its lock.
type EventKind uint8

const (
	// Acquire: the lock is held from here on (Lock, RLock, a send on a
	// channel used as a mutex).
	Acquire EventKind = iota + 1
	// Release: the lock is not held from here on (Unlock, RUnlock, a
	// receive from a channel used as a mutex).
	Release
	// Taken: the lock is held on this branch, taken without blocking
	// there: the true branch of an if on a TryLock, the branch of a
	// select's case that sent on a channel used as a mutex.
	Taken
	// Attempt: a select without a default case blocks to send on a
	// channel used as a mutex; the branch of that case holds the lock
	// (Taken).
	Attempt
	// MayAcquire: a TryLock whose result is used other than as an if's
	// condition: the lock may be held from here on.
	MayAcquire
	// HandOff: a goroutine started here releases the lock (go
	// mu.Unlock()): from here on, it may be released at any time.
	HandOff
)

// An Event is a lock operation.
type Event struct {
	Kind EventKind
	// Lock is the *sync.Mutex, *sync.RWMutex or interface value a call
	// is made on, or the channel value of a channel used as a mutex
	// (Chan), whose lock is the field it is loaded from (ChanLockPaths,
	// ExactChanLock).
	Lock ssa.Value
	Mode Mode
	Chan bool
	// Pos is the position of the operation: the call, the send or
	// receive, the select's case.
	Pos token.Pos
}

// A How is how a call runs.
type How uint8

const (
	Here      How = iota // in the function's goroutine
	Goroutine            // in a goroutine that a go statement starts
)

// Ops is what an analysis supplies the Engine with: the effect on its
// State S of each lock event, of calls and of defer statements, and what
// it records on the way.
type Ops[S any] interface {
	// Instr applies what instr does besides its lock operations and
	// calls (its accesses); the Engine calls it first, for every
	// instruction.
	Instr(s S, instr ssa.Instruction)
	// Lock applies a lock event made by instr: the call, send, receive
	// or go statement, the select (Attempt, and Taken on the branch of
	// its case), the TryLock call (Taken on the branch where it
	// succeeded) or the defer statement whose deferred call runs.
	Lock(s S, instr ssa.Instruction, ev Event)
	// Call applies a call that makes no lock operation, run as how: by
	// the callee's summary, or as unknown code. instr is the call, the
	// go statement, or the defer statement whose deferred call runs.
	Call(s S, instr ssa.Instruction, c *ssa.CallCommon, how How)
	// Defer records the i-th defer statement of the function (in the
	// order of its blocks and their instructions).
	Defer(s S, i int, d *ssa.Defer)
	// Runs reports whether the i-th deferred call runs at a RunDefers
	// reached in s. An analysis whose State keeps the deferred calls'
	// effects apart, to apply them at the returns, runs none.
	Runs(s S, i int) bool
}

// An Engine applies the instructions and branches of one function to the
// States of an analysis, through its Ops. It is a Transfer.
type Engine[S State[S]] struct {
	fn  *ssa.Function
	ops Ops[S]
	// chanLocks holds the classes of the channel fields used as mutexes
	// (FindChanLocks); nil when there are none.
	chanLocks map[string]bool
	defers    []*ssa.Defer
	// consts are the constant bool arguments assumed (Assume).
	consts Consts
	// noReturn tells the functions whose calls never return (NoReturn).
	noReturn func(*ssa.Function) bool
}

// NoReturn makes the Engine end the paths at the calls of the functions
// f reports to never return (os.Exit, log.Fatal, a helper that always
// panics; see ctrlflow.CFGs.NoReturn): no lock state follows them.
func (e *Engine[S]) NoReturn(f func(*ssa.Function) bool) { e.noReturn = f }

// NewEngine returns the Engine of fn for an analysis's ops, with the
// classes of the channel fields used as mutexes (nil: none).
func NewEngine[S State[S]](fn *ssa.Function, ops Ops[S], chanLocks map[string]bool) *Engine[S] {
	e := &Engine[S]{fn: fn, ops: ops, chanLocks: chanLocks}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				e.defers = append(e.defers, d)
			}
		}
	}
	return e
}

// Assume makes the Engine run the function as specialised for k (see
// BoolArgs): no path takes the branches k rules out.
func (e *Engine[S]) Assume(k Consts) { e.consts = k }

// Defers returns the function's defer statements, in the order of its
// blocks and their instructions.
func (e *Engine[S]) Defers() []*ssa.Defer { return e.defers }

// Block applies the instructions of b to s (Transfer).
func (e *Engine[S]) Block(b *ssa.BasicBlock, s S) S { return e.Walk(b, s, nil) }

// Walk applies the instructions of b to s, calling visit (unless nil)
// with each instruction and the State before it, and returns the State
// at b's end. It stops at an instruction no path reaches (after a call
// that never returns).
func (e *Engine[S]) Walk(b *ssa.BasicBlock, s S, visit func(ssa.Instruction, S)) S {
	for _, instr := range b.Instrs {
		if !s.Reachable() {
			return s
		}
		if visit != nil {
			visit(instr, s)
		}
		e.Instr(instr, s)
	}
	return s
}

// Instr applies one instruction to s.
func (e *Engine[S]) Instr(instr ssa.Instruction, s S) {
	e.ops.Instr(s, instr)
	switch in := instr.(type) {
	case *ssa.Call:
		e.call(s, in, &in.Call, Here)
	case *ssa.Go:
		e.call(s, in, &in.Call, Goroutine)
	case *ssa.Defer:
		e.ops.Defer(s, slices.Index(e.defers, in), in)
	case *ssa.RunDefers:
		for i := len(e.defers) - 1; i >= 0; i-- {
			if e.ops.Runs(s, i) {
				e.call(s, e.defers[i], &e.defers[i].Call, Here)
			}
		}
	case *ssa.Panic:
		s.End()
	case *ssa.Select:
		if e.chanLocks == nil || !in.Blocking {
			return
		}
		for _, st := range in.States {
			if st.Dir == types.SendOnly {
				e.ops.Lock(s, in, Event{Kind: Attempt, Lock: st.Chan, Mode: W, Chan: true, Pos: casePos(in, st)})
			}
		}
	default:
		if ev, ok := e.Direct(instr); ok {
			e.ops.Lock(s, instr, ev)
		}
	}
}

// call applies a call: a lock operation, or a call for the Ops to apply.
func (e *Engine[S]) call(s S, instr ssa.Instruction, c *ssa.CallCommon, how How) {
	ev, lockOp := e.CallEvent(instr, c, how)
	switch {
	case !lockOp:
		if how == Here && e.noReturn != nil {
			if callee := c.StaticCallee(); callee != nil && e.noReturn(callee) {
				s.End()
				return
			}
		}
		e.ops.Call(s, instr, c, how)
	case ev.Kind != 0:
		e.ops.Lock(s, instr, ev)
	}
}

// CallEvent returns the lock event of the call c made by instr (a call,
// a go statement or a defer statement whose deferred call runs), run as
// how, and whether c is a lock operation (LockCall). The event's Kind is
// zero when the operation makes none there: a TryLock tested by an if
// holds its lock on a branch (Edge), a goroutine's Lock is its own.
func (e *Engine[S]) CallEvent(instr ssa.Instruction, c *ssa.CallCommon, how How) (Event, bool) {
	op := LockCall(c)
	if op.Kind == OpNone {
		return Event{}, false
	}
	ev := Event{Lock: op.Lock, Mode: op.Mode, Pos: c.Pos()}
	switch {
	case how == Goroutine:
		if op.Kind == OpUnlock {
			ev.Kind = HandOff
		}
	case op.Kind == OpLock:
		ev.Kind = Acquire
	case op.Kind == OpUnlock:
		ev.Kind = Release
	case op.Kind == OpTryLock:
		if call, ok := instr.(*ssa.Call); ok && !onlyIfs(call) {
			ev.Kind = MayAcquire
		}
	}
	if ev.Kind == 0 {
		return Event{}, true
	}
	return ev, true
}

// Direct returns the lock event that instr makes itself, not through a
// callee nor on a branch: a lock operation called, or handed over by a
// go statement, a send on a channel used as a mutex or a receive from
// it; false when it makes none (a defer statement's call runs later).
func (e *Engine[S]) Direct(instr ssa.Instruction) (Event, bool) {
	var ev Event
	switch in := instr.(type) {
	case *ssa.Call:
		ev, _ = e.CallEvent(in, &in.Call, Here)
	case *ssa.Go:
		ev, _ = e.CallEvent(in, &in.Call, Goroutine)
	case *ssa.Send:
		if e.chanLocks != nil {
			return Event{Kind: Acquire, Lock: in.Chan, Mode: W, Chan: true, Pos: in.Pos()}, true
		}
	case *ssa.UnOp:
		if e.chanLocks != nil && in.Op == token.ARROW && !in.CommaOk {
			return Event{Kind: Release, Lock: in.X, Mode: W, Chan: true, Pos: in.Pos()}, true
		}
	}
	return ev, ev.Kind != 0
}

// Edge returns the State on the i-th out-edge of b (Transfer): the
// branch of a select's case that sent on a channel used as a mutex
// holds it, and so does the true branch of an if on a TryLock; no path
// takes a branch that the constant arguments assumed rule out.
func (e *Engine[S]) Edge(b *ssa.BasicBlock, i int, out S) (*ssa.BasicBlock, S) {
	succ := b.Succs[i]
	if !out.Reachable() {
		return succ, out
	}
	if e.consts.RuledOut(b, i) {
		s := out.Clone()
		s.End()
		return succ, s
	}
	if e.chanLocks != nil {
		if sel, n, ok := SelectCaseEdge(b, i); ok && sel.States[n].Dir == types.SendOnly {
			st := sel.States[n]
			s := out.Clone()
			e.ops.Lock(s, sel, Event{Kind: Taken, Lock: st.Chan, Mode: W, Chan: true, Pos: casePos(sel, st)})
			return succ, s
		}
	}
	if call, op, ok := TryLockEdge(b, i); ok {
		s := out.Clone()
		e.ops.Lock(s, call, Event{Kind: Taken, Lock: op.Lock, Mode: op.Mode, Pos: call.Pos()})
		return succ, s
	}
	return succ, out
}

// casePos returns the position of a select's case: its send or receive,
// or the select's.
func casePos(sel *ssa.Select, st *ssa.SelectState) token.Pos {
	if st.Pos.IsValid() {
		return st.Pos
	}
	return sel.Pos()
}

// onlyIfs reports whether a value is only used as an if's condition.
func onlyIfs(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, r := range *refs {
		if _, ok := r.(*ssa.If); !ok {
			if _, ok := r.(*ssa.DebugRef); !ok {
				return false
			}
		}
	}
	return true
}
