package summary

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// walker computes the summary of one function: a forward dataflow
// analysis over its SSA control-flow graph, whose state is the set of
// locks that must be held, followed by one recording pass. Both run
// lockstate's Engine, with the walker as its Ops (transfer.go).
type walker struct {
	b      *builder
	fn     *ssa.Function
	r      *lockstate.Namer
	sum    *Summary
	record bool
	// lastRef holds the blocks that run after the function dropped the
	// last reference to an object (lastRefBlocks); inLastRef is set while
	// one of them is recorded.
	lastRef   map[*ssa.BasicBlock]bool
	inLastRef bool

	// e is the lock-state engine that runs the walker's Ops over the
	// function.
	e *lockstate.Engine[*state]
	// consts are the constant bool arguments the summary is
	// specialised for (zero: none); a specialised summary records
	// nothing in the builder's tables of calls and sends, which are the
	// general summary's.
	consts  lockstate.Consts
	pkg     string            // the function's package path ("": unknown)
	sites   map[siteKey]int32 // acquisition sites
	exit    []Held            // intersection of the held sets at returns
	exitSet bool

	// acquired are the locks the function acquires (itself or through a
	// call that returns holding them); entryRel the locks it releases,
	// itself or through a callee, where it does not hold them: held on
	// entry, by its caller or by the function that started it as a
	// goroutine and handed the lock over (see entrySeed). selected are
	// the channel locks it tries to take in a select with other cases
	// (see handedOver).
	acquired map[string]bool
	entryRel map[string]Held
	selected map[string]bool
	// ops lists, by lock, the instructions that acquire (opAcquire) or
	// release (opRelease) it, deferred calls at their defer statement.
	ops map[string]map[ssa.Instruction]uint8
	// starting are the function values being applied as goroutines the
	// function starts through a callee (see startFunc).
	starting []ssa.Value

	// The recording pass keeps the summary's accesses and acquisitions
	// deduplicated as normalize would, and stops adding accesses at the
	// size limit: a caller of large callees would otherwise map and
	// collect thousands of accesses that normalize then drops.
	accSeen map[string]struct{}
	acqSeen map[string]struct{}
	keyBuf  []byte
}

// addAccess adds a to the summary unless it is recorded already or the
// summary is full.
func (w *walker) addAccess(a Access) {
	if w.inLastRef {
		a.Flags |= LastRef
	}
	if len(w.sum.Accesses) >= maxAccesses {
		w.sum.Truncated = true
		return
	}
	w.keyBuf = accessKey(w.keyBuf[:0], &a)
	if _, ok := w.accSeen[string(w.keyBuf)]; ok {
		return
	}
	if w.accSeen == nil {
		w.accSeen = map[string]struct{}{}
	}
	w.accSeen[string(w.keyBuf)] = struct{}{}
	w.sum.Accesses = append(w.sum.Accesses, a)
}

// accessesFull reports whether the summary holds as many accesses as it
// may.
func (w *walker) accessesFull() bool { return len(w.sum.Accesses) >= maxAccesses }

// addAcquire adds a to the summary unless it is recorded already.
func (w *walker) addAcquire(a Acquire) {
	if len(w.sum.Acquires) >= maxAcquires {
		w.sum.Truncated = true
		return
	}
	w.keyBuf = acquireKey(w.keyBuf[:0], &a)
	if _, ok := w.acqSeen[string(w.keyBuf)]; ok {
		return
	}
	if w.acqSeen == nil {
		w.acqSeen = map[string]struct{}{}
	}
	w.acqSeen[string(w.keyBuf)] = struct{}{}
	w.sum.Acquires = append(w.sum.Acquires, a)
}

type siteKey struct {
	instr ssa.Instruction
	site  int32 // callee site, 0 for a direct acquisition
}

// state is the dataflow fact at a program point.
type state struct {
	live     bool
	held     []Held          // must be held, sorted by Lock
	accessed bool            // some access may have happened
	relAfter map[string]bool // locks released after an access (may)
	released map[string]bool // locks released but not acquired here (may)
	relSites map[int32]bool  // acquisition sites whose lock was released (may)
	// anon are the locks held that have no access path (a field of the
	// result of a call: s := find(); s.mu.Lock()), named "?v.f" after
	// the SSA value and field, by class: they are not part of the
	// summary, only of the locks held at calls (Result.CallHeld).
	anon []Held
	// handoff are the locks a sender holds for the function between a
	// receive from a handoff channel and its signal (see handoff.go):
	// held at accesses only.
	handoff []heldHandoff
	// deferred are the defer statements run on every path to here, by
	// their index in the engine's Defers (at most maxDefers): at a
	// return, only those run, last first.
	deferred uint64
}

// maxDefers is the most defer statements of a function whose paths are
// told apart; a function with more runs all its deferred calls at every
// return.
const maxDefers = 64

// Clone returns a copy of s.
func (s *state) Clone() *state {
	c := &state{live: s.live, held: slices.Clone(s.held), anon: slices.Clone(s.anon), handoff: slices.Clone(s.handoff), accessed: s.accessed,
		relAfter: cloneSet(s.relAfter), released: cloneSet(s.released), relSites: cloneSet(s.relSites),
		deferred: s.deferred}
	return c
}

// cloneSet copies a set; the sets of a state are nil while empty (most
// are: they are cloned for every block of every round).
func cloneSet[K comparable](m map[K]bool) map[K]bool {
	if len(m) == 0 {
		return nil
	}
	c := make(map[K]bool, len(m))
	for k := range m {
		c[k] = true
	}
	return c
}

// setAdd adds k to the set *m, allocating it if nil.
func setAdd[K comparable](m *map[K]bool, k K) {
	if *m == nil {
		*m = map[K]bool{}
	}
	(*m)[k] = true
}

// Join merges o into s and reports whether s changed.
func (s *state) Join(o *state) bool {
	if !o.live {
		return false
	}
	if !s.live {
		*s = *o.Clone()
		return true
	}
	changed := false
	var held []Held
	for _, h := range s.held {
		i := slices.IndexFunc(o.held, func(x Held) bool { return x.Lock == h.Lock && x.Mode == h.Mode })
		if i < 0 {
			changed = true
			continue
		}
		x := o.held[i]
		if x.Site < h.Site {
			h.Site, changed = x.Site, true
		}
		if x.Broken && !h.Broken {
			h.Broken, changed = true, true
		}
		if x.Repeat && !h.Repeat {
			h.Repeat, changed = true, true
		}
		held = append(held, h)
	}
	s.held = held
	n := len(s.anon)
	s.anon = slices.DeleteFunc(s.anon, func(h Held) bool {
		return !slices.ContainsFunc(o.anon, func(x Held) bool { return x.Lock == h.Lock && x.Mode == h.Mode })
	})
	changed = changed || len(s.anon) != n
	n = len(s.handoff)
	s.handoff = slices.DeleteFunc(s.handoff, func(h heldHandoff) bool {
		return !slices.ContainsFunc(o.handoff, func(x heldHandoff) bool { return x.Lock == h.Lock && x.signal == h.signal })
	})
	changed = changed || len(s.handoff) != n
	if d := s.deferred & o.deferred; d != s.deferred {
		s.deferred, changed = d, true
	}
	if o.accessed && !s.accessed {
		s.accessed, changed = true, true
	}
	for k := range o.relAfter {
		if !s.relAfter[k] {
			setAdd(&s.relAfter, k)
			changed = true
		}
	}
	for k := range o.released {
		if !s.released[k] {
			setAdd(&s.released, k)
			changed = true
		}
	}
	for k := range o.relSites {
		if !s.relSites[k] {
			setAdd(&s.relSites, k)
			changed = true
		}
	}
	return changed
}

func (w *walker) run() {
	fn := w.fn
	w.e = lockstate.NewEngine(fn, lockstate.Ops[*state](w), w.b.chanLocks)
	w.e.Assume(w.consts)
	in := w.solve(nil)
	seed := w.entrySeed()
	if len(seed) > 0 {
		in = w.solve(seed)
	}
	// Record.
	w.record = true
	w.lastRef = lastRefBlocks(fn)
	released := map[string]bool{}
	for _, b := range fn.Blocks {
		if !in[b.Index].live {
			continue
		}
		st := in[b.Index].Clone()
		w.inLastRef = w.lastRef[b]
		w.e.Block(b, st)
		w.inLastRef = false
		for k := range st.released {
			released[k] = true
		}
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if !w.exitSet {
				w.exit, w.exitSet = slices.Clone(st.held), true
			} else {
				w.exit = slices.DeleteFunc(w.exit, func(h Held) bool {
					return !slices.ContainsFunc(st.held, func(x Held) bool { return x.Lock == h.Lock && x.Mode == h.Mode })
				})
			}
		}
	}
	// The locks held on entry are released for the caller. Those the
	// function never acquires are not held on return, as far as the
	// caller is concerned; one it releases and takes again (to wait) is
	// held on return, on the paths that kept it too.
	for _, h := range seed {
		released[h.Lock] = true
	}
	w.exit = slices.DeleteFunc(w.exit, func(h Held) bool { return h.Site == entrySite && !w.acquired[h.Lock] })
	w.sum.Exit = w.exit
	for k := range released {
		w.sum.Released = append(w.sum.Released, k)
	}
	w.sum.normalize()
}

// solve computes the state at the entry of every block, the function
// entered holding the locks held.
func (w *walker) solve(held []Held) []*state {
	fn := w.fn
	in := make([]*state, len(fn.Blocks))
	for i := range in {
		in[i] = &state{}
	}
	in[0].live = true
	in[0].held = held
	// The lattice is finite (held only shrinks, the flags and sets only
	// grow).
	lockstate.Solve(fn, in, w.e)
	return in
}

// entrySite is the acquisition site of a lock held on entry;
// handedSite, in a callee's site space, that of a lock handed over to
// the function (handedOver).
const (
	entrySite  int32 = -1
	handedSite int32 = -2
)

// withoutEntry returns hs without the locks held on entry (entrySeed):
// they guard the function's accesses, but the function's acquisitions,
// calls and sends are no evidence of an order or of a callback run
// under them (a lock released on one path only, as a counted
// "conceptual" lock is, may not be held at all).
func withoutEntry(hs []Held) []Held {
	if !slices.ContainsFunc(hs, func(h Held) bool { return h.Site == entrySite }) {
		return hs
	}
	return slices.DeleteFunc(slices.Clone(hs), func(h Held) bool { return h.Site == entrySite })
}

// entrySeed returns the locks the function is entered holding, sorted:
// those it releases without ever acquiring them itself, and those that
// some path from its entry releases before any acquisition. A closure
// started by go s.mu.Lock(); go func() { s.flush(); s.mu.Unlock() }()
// runs flush under the lock its starter handed over, a helper that
// unlocks for its caller runs under the caller's lock up to the unlock,
// and a function that waits with the lock released
//
//	for !s.ready { s.mu.Unlock(); <-s.wake; s.mu.Lock() }
//
// holds its caller's lock wherever it holds its own.
func (w *walker) entrySeed() []Held {
	var out []Held
	for lock, h := range w.entryRel {
		if !w.acquired[lock] || w.releasedFirst(lock) {
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b Held) int { return strings.Compare(a.Lock, b.Lock) })
	return out
}

// Operations on a lock, as a set (walker.ops).
const (
	opAcquire uint8 = 1 << iota
	opRelease
)

func (w *walker) addOp(instr ssa.Instruction, lock string, op uint8) {
	if w.ops == nil {
		w.ops = map[string]map[ssa.Instruction]uint8{}
	}
	if w.ops[lock] == nil {
		w.ops[lock] = map[ssa.Instruction]uint8{}
	}
	w.ops[lock][instr] |= op
}

// releasedFirst reports whether some path from the function's entry
// operates on lock first by releasing it. A deferred call operates at
// the function's return, not at its defer statement.
func (w *walker) releasedFirst(lock string) bool {
	ops := w.ops[lock]
	seen := make([]bool, len(w.fn.Blocks))
	work := []*ssa.BasicBlock{w.fn.Blocks[0]}
	seen[0] = true
next:
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Defer); ok {
				continue
			}
			if op := ops[instr]; op != 0 {
				if op&opRelease != 0 {
					return true
				}
				continue next
			}
		}
		for _, s := range b.Succs {
			if !seen[s.Index] {
				seen[s.Index] = true
				work = append(work, s)
			}
		}
	}
	return false
}

// Reachable reports whether some path reaches the point.
func (s *state) Reachable() bool { return s.live }

// End makes s a state that no path reaches (lockstate.State).
func (s *state) End() { s.live = false }

// recordHeld records the locks held before call (Result.CallHeld).
func (w *walker) recordHeld(call *ssa.Call, st *state) {
	if w.b.callHeld == nil {
		return
	}
	if len(st.held) == 0 && len(st.anon) == 0 {
		delete(w.b.callHeld, call) // an earlier round's
		return
	}
	hs := make([]Held, 0, len(st.held)+len(st.anon))
	hs = append(append(hs, withoutEntry(st.held)...), st.anon...)
	if len(st.anon) > 0 {
		slices.SortFunc(hs, func(a, b Held) int { return strings.Compare(a.Lock, b.Lock) })
	}
	w.b.callHeld[call] = hs
}

// acquireAnon adds a lock without an access path to the held set.
func (w *walker) acquireAnon(st *state, instr ssa.Instruction, v ssa.Value, mode lockstate.Mode) {
	key, class := lockstate.UnnamedKey(v)
	if key == "" || slices.ContainsFunc(st.anon, func(h Held) bool { return h.Lock == key }) {
		return
	}
	pos := lockstate.InstrPos(instr, w.fn)
	st.anon = append(st.anon, Held{Lock: key, Class: class, Mode: mode, Pos: pos, Where: w.b.where(pos)})
}

// releaseAnon releases the locks without an access path of v's class:
// the same value, or another load of the same variable.
func releaseAnon(st *state, v ssa.Value) {
	if len(st.anon) == 0 {
		return
	}
	if _, class := lockstate.UnnamedKey(v); class != "" {
		st.anon = slices.DeleteFunc(st.anon, func(h Held) bool { return h.Class == class })
	}
}

// isCell reports whether v is the address of a local variable or of a
// captured one: accessing it is not a shared access.
func isCell(v ssa.Value) bool {
	switch v.(type) {
	case *ssa.Alloc, *ssa.FreeVar:
		return true
	}
	return false
}

// heldNow returns the held set, marking the locks released after an
// earlier access as broken.
func heldNow(st *state) []Held {
	if len(st.held) == 0 {
		return nil
	}
	hs := slices.Clone(st.held)
	for i := range hs {
		if st.relAfter[hs[i].Lock] {
			hs[i].Broken = true
		}
	}
	return hs
}

// Where accessAll finds the location accessed through an address: at the
// address (a load or store), or at its elements.
var (
	location = lockstate.Path.Location
	elements = func(p lockstate.Path) string { return p.Step("[*]") }
)

// accessAll records an access through a value with paths ps: when there
// are several, each is only a possible location (May).
func (w *walker) accessAll(st *state, ps []lockstate.Path, at func(lockstate.Path) string, write bool, flags Flags, instr ssa.Instruction) {
	if len(ps) > 1 {
		flags |= May
	}
	for _, p := range ps {
		w.access(st, at(p), write, flags, instr)
	}
}

func (w *walker) access(st *state, loc string, write bool, flags Flags, instr ssa.Instruction) {
	st.accessed = true
	if !w.record {
		return
	}
	if w.foreign(loc) {
		w.sum.Foreign = true
		return
	}
	if w.accessesFull() {
		w.sum.Truncated = true
		return
	}
	pos := lockstate.InstrPos(instr, w.fn)
	w.addAccess(Access{Loc: loc, Write: write, Flags: flags,
		Held: withHandoff(heldNow(st), st), Pos: pos, Where: w.b.where(pos)})
}

// foreign reports whether loc is a package variable of a package other
// than the function's: the private state of that package, which does not
// make two methods of this one dependent and which its own package
// synchronises (or not). Such accesses are not recorded (Summary.Foreign).
func (w *walker) foreign(loc string) bool {
	if loc == "" || loc[0] != '@' || w.pkg == "" {
		return false
	}
	return lockstate.GlobalPkg(loc) != w.pkg
}

func (w *walker) site(instr ssa.Instruction, callee int32) int32 {
	k := siteKey{instr, callee}
	if s, ok := w.sites[k]; ok {
		return s
	}
	s := int32(len(w.sites) + 1)
	w.sites[k] = s
	return s
}

// acquire records the acquisition of lock in mode and, unless eventOnly,
// adds it to the held set. callee is the site of the acquisition in the
// callee's summary for a lock acquired by a callee, 0 for a direct one.
func (w *walker) acquire(st *state, instr ssa.Instruction, callee int32, lock, class string, mode lockstate.Mode, eventOnly bool) {
	pos := lockstate.InstrPos(instr, w.fn)
	setAdd(&w.acquired, lock)
	w.addOp(instr, lock, opAcquire)
	w.recordOp(instr, lock, true)
	if w.record && callee == 0 {
		w.addAcquire(Acquire{Lock: lock, Class: class, Mode: mode,
			Held: withoutEntry(heldNow(st)), Pos: pos, Where: w.b.where(pos)})
	}
	if eventOnly || slices.ContainsFunc(st.held, func(h Held) bool { return h.Lock == lock }) {
		return // re-acquisition: a self-deadlock or a recursive read lock
	}
	site := w.site(instr, callee)
	h := Held{Lock: lock, Class: class, Mode: mode, Site: site, Repeat: st.relSites[site], Pos: pos, Where: w.b.where(pos)}
	i, _ := slices.BinarySearchFunc(st.held, lock, func(h Held, l string) int { return strings.Compare(h.Lock, l) })
	st.held = slices.Insert(st.held, i, h)
}

func (w *walker) release(st *state, instr ssa.Instruction, lock string) {
	w.recordOp(instr, lock, false)
	w.addOp(instr, lock, opRelease)
	i := slices.IndexFunc(st.held, func(h Held) bool { return h.Lock == lock })
	if i < 0 {
		setAdd(&st.released, lock)
		return
	}
	setAdd(&st.relSites, st.held[i].Site)
	st.held = slices.Delete(st.held, i, i+1)
	if st.accessed {
		setAdd(&st.relAfter, lock)
	}
}

// recordOp records, in the recording pass, that instr acquires (or
// releases) lock, when instr is a call (Result.CallOps): a deferred
// call's operations happen at the function's returns, not at its defer
// statement.
func (w *walker) recordOp(instr ssa.Instruction, lock string, acquire bool) {
	call, ok := instr.(*ssa.Call)
	if !w.record || !ok || w.b.callOps == nil || !w.consts.IsZero() {
		return
	}
	ops := w.b.callOps[call]
	if ops == nil {
		ops = &LockOps{}
		w.b.callOps[call] = ops
	}
	list := &ops.Releases
	if acquire {
		list = &ops.Acquires
	}
	if !slices.Contains(*list, lock) {
		*list = append(*list, lock)
	}
}

// lockClass returns the compatibility class of a lock at path p.
func lockClass(p lockstate.Path, v ssa.Value) string {
	if p.Class != "" {
		return p.Class
	}
	return lockstate.TypeClass(v.Type())
}
