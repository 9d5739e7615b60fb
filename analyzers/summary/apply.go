package summary

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// apply applies the summary sum of callee at a call site, with the
// function values it calls (applyFuncCalls). args are the values of the
// callee's parameters, bindings those of its free variables; net tells
// whether the callee's net lock effects (locks held on return, released)
// apply.
func (w *walker) apply(st *state, instr ssa.Instruction, callee *ssa.Function, sum *Summary, args, bindings []ssa.Value, how callKind, via string, net bool) {
	m := mapper{lockstate.CallFrame(w.r, args, bindings)}
	// The callee's locks recur at most of its accesses: map each once.
	var lockMemo map[string][]string
	mapLock := func(l string) []string {
		if ls, ok := lockMemo[l]; ok {
			return ls
		}
		if lockMemo == nil {
			lockMemo = map[string][]string{}
		}
		ls := m.loc(l)
		lockMemo[l] = ls
		return ls
	}
	mapHeld := func(hs []Held) []Held {
		var out []Held
		for _, h := range hs {
			for _, l := range mapLock(h.Lock) {
				h.Lock = l
				if h.Site != entrySite {
					h.Site = w.site(instr, h.Site)
				}
				if h.Via == "" {
					h.Via = via
				}
				if !w.b.local(h.Pos) {
					h.Pos = lockstate.InstrPos(instr, w.fn)
					if h.Where == "" {
						h.Where = w.b.where(h.Pos)
					}
				}
				out = append(out, h)
			}
		}
		return out
	}
	// A callee that releases a lock its caller holds (to block, or to
	// upgrade a read lock) may do so before any of its own acquisitions
	// and accesses: the caller's lock counts as held only for those that
	// the callee's summary marks as made under the lock it was entered
	// holding (entrySite), before releasing it (callerAll).
	callerAll := heldNow(st)
	callerHeld := slices.Clone(callerAll)
	for _, r := range sum.Released {
		for _, l := range m.loc(r) {
			callerHeld = slices.DeleteFunc(callerHeld, func(h Held) bool { return h.Lock == l })
		}
	}
	// held returns the locks held at an access or acquisition of the
	// callee: the caller's too, unless it happens in another goroutine.
	//
	// The callee's accesses mostly share a few held sets: the result is
	// computed once per set and shared (summaries never modify a held
	// set in place).
	var heldMemo map[string][]Held
	var heldBuf []byte
	held := func(own []Held, goroutine bool) []Held {
		heldBuf = heldKey(append(heldBuf[:0], flag(goroutine)), own)
		if hs, ok := heldMemo[string(heldBuf)]; ok {
			return hs
		}
		var out []Held
		if goroutine || how == callGo {
			out = mapHeld(own)
		} else {
			out = append([]Held(nil), callerHeld...)
			for _, h := range mapHeld(own) {
				if h.Site == entrySite {
					// Held by the callee's caller on entry, and not
					// yet released by the callee (or taken again
					// since, in the same place of a loop): the
					// caller's lock, if it holds it.
					if i := slices.IndexFunc(callerAll, func(c Held) bool { return c.Lock == h.Lock }); i >= 0 && !heldIn(out, h.Lock) {
						c := callerAll[i]
						c.Broken = c.Broken || h.Broken
						out = append(out, c)
					} else if i < 0 && w.handedOver(h.Lock) && !heldIn(out, h.Lock) {
						h.Site = w.site(instr, handedSite)
						out = append(out, h)
					}
					continue
				}
				// A lock the caller holds already (a recursive read
				// lock, a self-deadlock) is held in the caller's
				// critical section.
				if !heldIn(callerHeld, h.Lock) {
					// Released after an earlier access of the caller
					// and acquired again in the callee: another
					// critical section.
					if st.relAfter[h.Lock] {
						h.Broken = true
					}
					out = append(out, h)
				}
			}
		}
		if heldMemo == nil {
			heldMemo = map[string][]Held{}
		}
		heldMemo[string(heldBuf)] = out
		return out
	}
	if !w.record {
		// The fixed-point rounds only need the state: whether an access
		// happened, the locks released after one, the net effects.
		w.applyState(st, instr, &m, sum, how, net)
		w.applyFuncCalls(st, instr, sum.FuncCalls, args, bindings, how)
		return
	}
	if sum.Truncated && !w.sum.Truncated && w.reaches(&m, callee) {
		// What the callee's summary lost at its size limit is lost to
		// this summary too, when it may be the caller's memory.
		w.sum.Truncated = true
	}
	if sum.Foreign && how != callOnce {
		st.accessed, w.sum.Foreign = true, true
	}
	pos := lockstate.InstrPos(instr, w.fn)
	where := w.b.where(pos)
	accesses := sum.Accesses
	if w.accessesFull() {
		// No room for the callee's accesses: only whether one happens
		// matters now.
		if len(accesses) > 0 {
			w.sum.Truncated = true
		}
		w.markAccessed(st, &m, sum, how)
		for _, a := range accesses {
			if how != callOnce && w.foreign(a.Loc) {
				w.sum.Foreign = true
				break
			}
		}
		accesses = nil
	}
	for _, a := range accesses {
		if how == callOnce && strings.HasPrefix(a.Loc, "@") {
			// Package variables initialised under a sync.Once are
			// published by it: not shared mutable state.
			continue
		}
		for _, l := range m.loc(a.Loc) {
			st.accessed = true
			if w.foreign(l) {
				w.sum.Foreign = true
				continue
			}
			b := a
			b.Loc = l
			if how == callGo {
				b.Flags |= Goroutine
			}
			if how == callOnce {
				b.Flags |= OnceInit
			}
			b.Held = held(a.Held, a.Flags&Goroutine != 0)
			if a.Flags&Goroutine == 0 && how != callGo {
				b.Held = withHandoff(b.Held, st)
			}
			b.Pos, b.Where = pos, where
			if b.Via == "" {
				b.Via = via
			}
			w.addAccess(b)
		}
	}
	for _, a := range sum.Acquires {
		for _, l := range mapLock(a.Lock) {
			if w.record {
				b := a
				b.Lock = l
				b.Held = withoutEntry(held(a.Held, a.Goroutine))
				b.Goroutine = a.Goroutine || how == callGo
				b.Pos, b.Where = pos, where
				if b.Via == "" {
					b.Via = via
				}
				w.addAcquire(b)
				if !b.Goroutine {
					w.recordOp(instr, l, true)
				}
			}
			if how != callGo && !a.Goroutine && st.accessed && !heldIn(sum.Exit, a.Lock) {
				setAdd(&st.relAfter, l) // acquired and released inside the callee
			}
		}
	}
	w.netEffects(st, instr, &m, sum, how, net)
	w.applyFuncCalls(st, instr, sum.FuncCalls, args, bindings, how)
}

// applyState applies a callee's summary to the state only, as apply does
// while the fixed point is computed (nothing is recorded).
func (w *walker) applyState(st *state, instr ssa.Instruction, m *mapper, sum *Summary, how callKind, net bool) {
	w.markAccessed(st, m, sum, how)
	if how != callGo && st.accessed {
		for _, a := range sum.Acquires {
			if a.Goroutine || heldIn(sum.Exit, a.Lock) {
				continue
			}
			for _, l := range m.loc(a.Lock) {
				setAdd(&st.relAfter, l)
			}
		}
	}
	w.netEffects(st, instr, m, sum, how, net)
}

// markAccessed records in the state whether the callee's summary
// accesses a location of the caller.
func (w *walker) markAccessed(st *state, m *mapper, sum *Summary, how callKind) {
	if st.accessed {
		return
	}
	if sum.Foreign && how != callOnce {
		st.accessed = true
		return
	}
	for _, a := range sum.Accesses {
		if how == callOnce && strings.HasPrefix(a.Loc, "@") {
			continue
		}
		if len(m.loc(a.Loc)) > 0 {
			st.accessed = true
			return
		}
	}
}

// netEffects applies the locks a callee releases and those it holds on
// return.
func (w *walker) netEffects(st *state, instr ssa.Instruction, m *mapper, sum *Summary, how callKind, net bool) {
	if how == callGo {
		// A goroutine that releases a lock the function holds takes the
		// lock over (lock, then go func() { …; mu.Unlock() }()): from
		// the go statement on, the function no longer holds it for
		// sure. The goroutine's other effects are its own.
		for _, r := range sum.Released {
			for _, l := range m.loc(r) {
				w.handOff(st, instr, l)
			}
		}
		return
	}
	if !net {
		return
	}
	// Net effects: the releases first (an unlock-and-relock callee
	// releases, then holds again on return). A callee that releases a
	// lock its caller was entered holding makes the caller a function
	// entered holding it too (entrySeed): writeLocked() { …; unlock() }
	// runs under its own caller's lock up to the call.
	for _, r := range sum.Released {
		ls := m.loc(r)
		for _, l := range ls {
			if h, ok := entryHeld(sum, r); ok && len(ls) == 1 {
				w.enteredHolding(st, l, h.Class, h.Mode)
			}
			w.release(st, instr, l)
		}
	}
	for _, h := range sum.Exit {
		for _, l := range m.loc(h.Lock) {
			w.acquire(st, instr, h.Site, l, h.Class, h.Mode, false)
		}
	}
}

// handedOver reports whether the function, at a call of a callee entered
// holding lock where it does not hold it for sure, had the lock handed
// over: it tries to take lock, a channel used as a mutex, in a select
// whose other cases lead to the call too. Another holder passes the
// lock through one of them instead of releasing it
//
//	select {
//	case s.lockC <- struct{}{}: // acquired
//	case s.mergeC <- req:
//		if <-s.merged { return } // else the lock is handed over
//	}
//	s.writeLocked() // releases s.lockC
//
// and the callee's accesses made before it releases the lock are the
// function's own critical section.
func (w *walker) handedOver(lock string) bool { return w.selected[lock] }

// entryHeld returns the lock r as sum records it held on entry to its
// function, at an access or acquisition made before releasing it.
func entryHeld(sum *Summary, r string) (Held, bool) {
	find := func(hs []Held) (Held, bool) {
		for _, h := range hs {
			if h.Lock == r && h.Site == entrySite {
				return h, true
			}
		}
		return Held{}, false
	}
	for i := range sum.Accesses {
		if h, ok := find(sum.Accesses[i].Held); ok {
			return h, true
		}
	}
	for i := range sum.Acquires {
		if h, ok := find(sum.Acquires[i].Held); ok {
			return h, true
		}
	}
	return Held{}, false
}

func heldIn(hs []Held, lock string) bool {
	for _, h := range hs {
		if h.Lock == lock {
			return true
		}
	}
	return false
}

// mapper maps locations of a callee onto the caller's.
type mapper struct {
	*lockstate.Frame
}

// reaches reports whether an access of callee, applied through m, may
// be one of the caller's locations, whatever its path: one rooted at a
// parameter or a free variable that refers to memory the caller does
// not own alone (as lockstate.Frame maps them), or at a package variable of the
// caller's package (only a callee of that package lists them: those of
// other packages are foreign). The accesses that a callee's summary lost
// at its size limit matter to the caller only then: a call that is only
// passed values the caller owns (fmt.Sprintf("%d", t.n): a copy of n in
// an interface of a local slice) loses nothing of the caller's.
func (w *walker) reaches(m *mapper, callee *ssa.Function) bool {
	pkg := callee.Pkg
	if pkg == nil && callee.Origin() != nil {
		pkg = callee.Origin().Pkg
	}
	if pkg == nil || w.pkg == "" || pkg.Pkg.Path() == w.pkg {
		return true
	}
	shared := func(v ssa.Value) bool {
		if a := lockstate.LocalStruct(v); a != nil {
			// A wrapper of the caller's values (see lockstate.Frame): through
			// the fields that hold them.
			st := lockstate.Deref(a.Type()).Underlying().(*types.Struct)
			for i := range st.NumFields() {
				if len(m.Namer.FieldContents(v, st.Field(i).Name())) > 0 {
					return true
				}
			}
			return false
		}
		if _, ok := v.(*ssa.Alloc); ok {
			return false // a local variable of the caller
		}
		return len(m.Namer.Paths(v)) > 0
	}
	for _, v := range m.ArgVals {
		if shared(v) {
			return true
		}
	}
	for _, v := range m.BindVals {
		if cell, ok := v.(*ssa.Alloc); ok {
			if len(m.Namer.CellContents(cell)) > 0 {
				return true
			}
			continue
		}
		if shared(v) {
			return true
		}
	}
	return false
}

// maxDerefs bounds the references a location mapped from a callee goes
// through: a recursion over a linked structure (n.inst.orig.inst.orig…)
// would otherwise extend its paths at every call. A deeper location is
// left out, as a local one is.
const maxDerefs = 6

// loc maps a callee location; it returns nothing when the location is
// local to the caller, or too deep (maxDerefs).
func (m *mapper) loc(loc string) []string {
	out := m.Loc(loc)
	for i := 0; i < len(out); i++ {
		if strings.Count(out[i], "->") > maxDerefs {
			out = append(out[:i:i], out[i+1:]...)
			i--
		}
	}
	return out
}
