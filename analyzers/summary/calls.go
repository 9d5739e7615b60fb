package summary

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// A callKind is how a callee runs: in the caller's goroutine, in a new
// one, or as a sync.Once's initialisation.
type callKind int

const (
	callNormal callKind = iota
	callGo              // the callee runs in a new goroutine
	callOnce            // the callee is a sync.Once's initialisation
)

// call applies the effect of a call that makes no lock operation (the
// engine applies those, see lockstate.LockCall) to the state.
//
// The model, in order:
//   - sync and sync/atomic primitives are modelled (atomic and sync.Map
//     accesses, the functions that sync.Once and sync.WaitGroup run);
//   - a call whose callee is known applies the callee's summary, computed
//     from its body in this package or imported as a fact from another,
//     mapped onto the caller's locations;
//   - any other call through an interface or a function value is unknown
//     code: following DepCon, it counts as a write (flagged Indirect) of
//     every location passed to it by reference, the receiver included.
//
// A goroutine started by the function does not hold the caller's locks.
func (w *walker) call(st *state, instr ssa.Instruction, c *ssa.CallCommon, how callKind) {
	if b, ok := c.Value.(*ssa.Builtin); ok {
		w.builtin(st, instr, b.Name(), c.Args)
		return
	}
	callee := c.StaticCallee()
	if c.IsInvoke() {
		args := append([]ssa.Value{c.Value}, c.Args...)
		if !w.dynamicCall(st, instr, args, how) {
			w.unknown(st, instr, args)
		}
		return
	}
	if callee == nil {
		if !w.dynamicCall(st, instr, c.Args, how) {
			w.unknown(st, instr, c.Args)
		}
		return
	}
	if w.modelled(st, instr, callee, c, how) {
		return
	}
	sum := w.b.summary(callee)
	if sum == nil {
		return
	}
	var bindings []ssa.Value
	if mc, ok := c.Value.(*ssa.MakeClosure); ok {
		bindings = mc.Bindings
	}
	via := callee.Name()
	if origin(callee) == w.fn {
		// The function calls itself: say so in messages.
		via += ", a recursive call"
	}
	w.apply(st, instr, callee, sum, c.Args, bindings, how, via, true)
}

// maxDynamic bounds the callees of a dynamic call that are followed.
const maxDynamic = 8

// dynamicCall applies the summaries of the possible callees of a call
// through an interface or a function value, when the builder resolves
// dynamic calls (whole-program how) to at most maxDynamic callees. It
// reports false when the call stays unknown code.
func (w *walker) dynamicCall(st *state, instr ssa.Instruction, args []ssa.Value, how callKind) bool {
	ci, ok := instr.(ssa.CallInstruction)
	if w.b.dynamic == nil || !ok {
		return false
	}
	callees := w.b.dynamic(ci)
	if len(callees) == 0 || len(callees) > maxDynamic {
		return false
	}
	for _, callee := range callees {
		if sum := w.b.summary(callee); sum != nil {
			// Only a sole callee's net lock effects are certain.
			w.apply(st, instr, callee, sum, args, nil, how, callee.Name(), len(callees) == 1)
		}
	}
	return true
}

// modelled handles the calls into sync and sync/atomic.
func (w *walker) modelled(st *state, instr ssa.Instruction, callee *ssa.Function, c *ssa.CallCommon, how callKind) bool {
	name := lockstate.SyncMethod(callee)
	if name == "" {
		return false
	}
	obj := callee.Object().(*types.Func)
	recv := ""
	if sig := obj.Signature(); sig.Recv() != nil {
		recv = lockstate.TypeClass(sig.Recv().Type())
	}
	switch recv {
	case "sync.Mutex", "sync.RWMutex":
		return true // lock operations are the engine's (LockCall)
	case "sync.Once":
		if obj.Name() == "Do" && len(c.Args) == 2 {
			// Do reads the Once's state (synchronised): a plain
			// write of the Once (a reset) conflicts with it.
			w.atomicAccess(st, instr, c.Args[0], false, Atomic, how)
			if how == callNormal {
				how = callOnce
			}
			w.callValue(st, instr, c.Args[1], how)
		}
		return true
	case "sync.WaitGroup":
		if obj.Name() == "Go" && len(c.Args) == 2 {
			w.callValue(st, instr, c.Args[1], callGo)
		}
		if obj.Name() == "Done" && how == callNormal {
			signalHandoff(st, w.r.Paths(c.Args[0]))
		}
		return true
	case "sync.Map":
		write := true
		switch obj.Name() {
		case "Load", "Range":
			write = false
		}
		w.atomicAccess(st, instr, c.Args[0], write, SyncMap, how)
		if obj.Name() == "Range" && len(c.Args) == 2 {
			w.callValue(st, instr, c.Args[1], how)
		}
		return true
	case "":
		if obj.Pkg().Path() == "sync/atomic" && len(c.Args) > 0 {
			// atomic.AddInt64(&x, 1) and friends.
			w.atomicAccess(st, instr, c.Args[0], !strings.HasPrefix(obj.Name(), "Load"), Atomic, how)
		}
		return true
	}
	if obj.Pkg().Path() == "sync/atomic" {
		// Methods of atomic.Int64, atomic.Value, atomic.Pointer[T], …
		w.atomicAccess(st, instr, c.Args[0], obj.Name() != "Load", Atomic, how)
		return true
	}
	return true // other sync types: no shared effect
}

func (w *walker) atomicAccess(st *state, instr ssa.Instruction, addr ssa.Value, write bool, flags Flags, how callKind) {
	if how == callGo {
		flags |= Goroutine
	}
	w.accessAll(st, w.r.Paths(addr), location, write, flags, instr)
}

// lockPaths acquires (or releases) in how the lock v, whose paths are ps
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
		if !slices.ContainsFunc(st.held, func(h Held) bool { return h.Lock == loc }) && len(ps) == 1 {
			if w.entryRel == nil {
				w.entryRel = map[string]Held{}
			}
			if _, ok := w.entryRel[loc]; !ok {
				w.entryRel[loc] = Held{Lock: loc, Class: lockClass(p, v), Mode: mode, Site: entrySite,
					Pos: w.fn.Pos(), Where: w.b.where(w.fn.Pos())}
			}
		}
		w.release(st, instr, loc)
	}
}

// callValue applies a call of the function value f (sync.Once.Do(f)).
func (w *walker) callValue(st *state, instr ssa.Instruction, f ssa.Value, how callKind) {
	var bindings []ssa.Value
	var callee *ssa.Function
	switch f := f.(type) {
	case *ssa.Function:
		callee = f
	case *ssa.MakeClosure:
		callee, bindings = f.Fn.(*ssa.Function), f.Bindings
	}
	if callee == nil {
		return
	}
	if sum := w.b.summary(callee); sum != nil {
		w.apply(st, instr, callee, sum, nil, bindings, how, callee.Name(), true)
	}
}

// unknown models a call of unknown code.
func (w *walker) unknown(st *state, instr ssa.Instruction, args []ssa.Value) {
	for _, a := range args {
		if !isReference(a.Type()) || isCell(a) {
			continue
		}
		w.accessAll(st, w.r.Paths(a), location, true, Indirect, instr)
	}
}

// isReference reports whether values of t refer to other memory.
func isReference(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Interface, *types.Signature:
		return true
	}
	return false
}

func (w *walker) builtin(st *state, instr ssa.Instruction, name string, args []ssa.Value) {
	elems := func(v ssa.Value, write bool, flags Flags) {
		w.accessAll(st, w.r.Paths(v), elements, write, flags, instr)
	}
	switch name {
	case "append":
		elems(args[0], true, 0)
		if len(args) > 1 {
			if _, ok := args[1].Type().Underlying().(*types.Slice); ok {
				elems(args[1], false, 0)
			}
		}
	case "copy":
		elems(args[0], true, 0)
		elems(args[1], false, 0)
	case "delete":
		elems(args[0], true, Map)
	case "clear":
		flags := Flags(0)
		if _, ok := args[0].Type().Underlying().(*types.Map); ok {
			flags = Map
		}
		elems(args[0], true, flags)
	case "close":
		w.accessAll(st, w.r.Paths(args[0]), location, true, Chan|Close, instr)
	}
}

// apply applies the summary sum of callee at a call site. args are the
// values of the callee's parameters, bindings those of its free
// variables; net tells whether the callee's net lock effects (locks held
// on return, released) apply.
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
	// releases, then holds again on return).
	for _, r := range sum.Released {
		for _, l := range m.loc(r) {
			w.release(st, instr, l)
		}
	}
	for _, h := range sum.Exit {
		for _, l := range m.loc(h.Lock) {
			w.acquire(st, instr, h.Site, l, h.Class, h.Mode, false)
		}
	}
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
