package lockflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// The lock State of one lock at a program point is a set of the ways it
// may be, over the paths that reach the point: untouched since the
// function's entry (E), held (H), or released (N). A lock is definitely
// held where its set is exactly H; where paths disagree ({H, N}, a lock
// taken on one branch only) nothing is certain and nothing is reported.
const (
	Untouched uint8 = 1 << iota
	Held
	Released
)

// Deferred operations on a lock, as a set over paths: none (dE), a
// deferred release (dR), a deferred acquisition (dA).
const (
	dE uint8 = 1 << iota
	dR
	dA
)

// An Acq is an acquisition: the lock, where it was acquired (a Lock call,
// or a call of a function that returns holding it) and in which mode.
type Acq struct {
	Path lockstate.ExactPath
	Pos  token.Pos
	Read bool
	Via  string // the callee that acquires it, if not a direct Lock
}

// State is the lock State at a program point.
type State struct {
	held map[string]uint8
	def  map[string]uint8
	site map[string]Acq
	dead bool // no path reaches the point
}

func newState() *State {
	return &State{held: map[string]uint8{}, def: map[string]uint8{}, site: map[string]Acq{}}
}

func deadState() *State {
	s := newState()
	s.dead = true
	return s
}

// Clone returns a copy of s.
func (s *State) Clone() *State {
	c := &State{held: make(map[string]uint8, len(s.held)), def: make(map[string]uint8, len(s.def)), site: make(map[string]Acq, len(s.site)), dead: s.dead}
	for k, v := range s.held {
		c.held[k] = v
	}
	for k, v := range s.def {
		c.def[k] = v
	}
	for k, v := range s.site {
		c.site[k] = v
	}
	return c
}

func (s *State) get(k string) uint8 {
	if v, ok := s.held[k]; ok {
		return v
	}
	return Untouched
}

func (s *State) getDef(k string) uint8 {
	if v, ok := s.def[k]; ok {
		return v
	}
	return dE
}

// Join merges t into s and reports whether s changed.
func (s *State) Join(t *State) bool {
	if t.dead {
		return false
	}
	if s.dead {
		*s = *t.Clone()
		return true
	}
	changed := false
	keys := map[string]bool{}
	for k := range s.held {
		keys[k] = true
	}
	for k := range t.held {
		keys[k] = true
	}
	for k := range keys {
		v := s.get(k) | t.get(k)
		if v != s.get(k) {
			s.held[k] = v
			changed = true
		}
	}
	keys = map[string]bool{}
	for k := range s.def {
		keys[k] = true
	}
	for k := range t.def {
		keys[k] = true
	}
	for k := range keys {
		v := s.getDef(k) | t.getDef(k)
		if v != s.getDef(k) {
			s.def[k] = v
			changed = true
		}
	}
	for k, a := range t.site {
		if b, ok := s.site[k]; !ok || a.Pos < b.Pos {
			if !ok {
				changed = true
			}
			s.site[k] = a
		}
	}
	return changed
}

// exit returns the State of lock k once the deferred calls have run.
func (s *State) exit(k string) uint8 {
	d := s.getDef(k)
	var v uint8
	if d&dE != 0 {
		v |= s.get(k)
	}
	if d&dR != 0 {
		v |= Released
	}
	if d&dA != 0 {
		v |= Held
	}
	return v
}

// A Summary is the net effect of a function on the locks its caller can
// name (through its parameters, free variables and package variables):
// for each lock, the set of its states at the function's returns.
type Summary struct {
	Effects  map[string]uint8
	Paths    map[string]lockstate.ExactPath
	Read     map[string]bool
	NoReturn bool
	// EntryReleased lists the locks the function releases while they
	// may be held on entry (its caller's lock), as opposed to those it
	// acquires and releases itself: both end released (Released).
	EntryReleased map[string]bool
}

// Program holds the lock flows of a package's functions. It is safe for
// concurrent use: the analyzers that read it may run in parallel, and
// flows are computed on demand.
type Program struct {
	mu       sync.Mutex // guards the flows, and every Flow's paths and namer
	pkg      *ssa.Package
	noReturn func(*ssa.Function) bool
	flows    map[*ssa.Function]*Flow
	busy     map[*ssa.Function]bool
	// recv maps the position of a method call to the source text of
	// its receiver, to name local locks in messages.
	recv map[token.Pos]string
}

// NewProgram returns an empty Program for pkg; noReturn tells calls that
// never return (os.Exit, log.Fatal...).
func NewProgram(pkg *ssa.Package, files []*ast.File, noReturn func(*ssa.Function) bool) *Program {
	p := &Program{pkg: pkg, noReturn: noReturn, flows: map[*ssa.Function]*Flow{}, busy: map[*ssa.Function]bool{}, recv: map[token.Pos]string{}}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
					p.recv[c.Lparen] = types.ExprString(sel.X)
				}
			}
			return true
		})
	}
	return p
}

// Flow is the lock dataflow of one function.
type Flow struct {
	Fn    *ssa.Function
	namer *lockstate.Namer
	prog  *Program
	in    map[*ssa.BasicBlock]*State
	paths map[string]lockstate.ExactPath
	// entryHeld lists locks the function releases while they may be
	// held on entry: it works on its caller's lock.
	entryHeld map[string]bool
	// entryReleased lists those it releases while they are held on
	// entry for sure: directly, or through a callee that releases its
	// caller's lock (not one that locks and unlocks it itself). Under
	// leaves them out; entryHeld, wider, decides what lockleak reports.
	entryReleased map[string]bool
	// handedOff lists locks that a goroutine or an escaping function
	// value releases.
	handedOff map[string]bool
	// releasers are closures made in the function that release locks;
	// a dynamic call may call one of them.
	releasers []string
	summary   *Summary
}

// flow returns the lock flow of fn, computing it if needed, or nil when
// fn has no body or is being computed (recursion).
func (p *Program) flow(fn *ssa.Function) *Flow {
	if f, ok := p.flows[fn]; ok {
		return f
	}
	if p.busy[fn] || len(fn.Blocks) == 0 {
		return nil
	}
	p.busy[fn] = true
	f := &Flow{Fn: fn, namer: lockstate.NewNamer(fn), prog: p, in: map[*ssa.BasicBlock]*State{}, paths: map[string]lockstate.ExactPath{},
		entryHeld: map[string]bool{}, entryReleased: map[string]bool{}, handedOff: map[string]bool{}}
	f.prescan()
	f.solve()
	f.summarize()
	delete(p.busy, fn)
	p.flows[fn] = f
	return f
}

// summaryOf returns the summary of a callee, or nil when it has none:
// functions outside the package (other than the wrappers of bound
// methods, which are synthesized) are assumed to leave locks alone.
func (p *Program) summaryOf(fn *ssa.Function) *Summary {
	if fn == nil {
		return nil
	}
	if fn.Pkg != p.pkg && fn.Synthetic == "" {
		return nil
	}
	f := p.flow(fn)
	if f == nil {
		return nil
	}
	return f.summary
}

// prescan finds the closures that release locks they may be entered
// holding, and those of them that escape (returned, stored, passed on,
// run by a go statement: the lock is handed to whoever calls them).
func (f *Flow) prescan() {
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			fn, _ := mc.Fn.(*ssa.Function)
			s := f.prog.summaryOf(fn)
			if s == nil {
				continue
			}
			var released []string
			for k := range s.EntryReleased {
				// A lock it may be entered holding: one it takes and
				// releases itself is not its caller's to release.
				if p, ok := f.mapPath(s, k, nil, mc.Bindings); ok {
					released = append(released, p.Key())
					f.paths[p.Key()] = p
				}
			}
			if len(released) == 0 {
				continue
			}
			f.releasers = append(f.releasers, released...)
			if escapes(mc) {
				for _, k := range released {
					f.handedOff[k] = true
				}
			}
		}
	}
}

// escapes reports whether a closure is used other than by calling it.
func escapes(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Call:
			if r.Call.Value != v {
				return true
			}
		case *ssa.Defer:
			if r.Call.Value != v {
				return true
			}
		case *ssa.DebugRef:
		default:
			return true
		}
	}
	return false
}

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

func (t transfer) Block(b *ssa.BasicBlock, s *State) *State { return t.f.transfer(b, s, nil) }

// Edge returns the State on the i-th out-edge of b. A loop entered on
// that edge whose test holds on the first trip (see firstTrip) runs its
// body at least once (for i := 0; i < 2; i++): the State goes on to the
// body, not to the loop's exit.
func (t transfer) Edge(b *ssa.BasicBlock, i int, out *State) (*ssa.BasicBlock, *State) {
	s, succ := t.f.edge(b, i, out), b.Succs[i]
	if firstTrip(b, succ) {
		s = t.f.edge(succ, 0, t.f.transfer(succ, s.Clone(), nil))
		succ = succ.Succs[0]
	}
	return succ, s
}

// Reachable reports whether some path reaches the point.
func (s *State) Reachable() bool { return !s.dead }

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

// Out returns the State at the end of b along its i'th edge.
func (f *Flow) out(b *ssa.BasicBlock, i int) *State {
	return f.edge(b, i, f.transfer(b, f.in[b].Clone(), nil))
}

// edge refines the State at the end of b for its i'th successor: the
// true branch of TryLock holds the lock.
func (f *Flow) edge(b *ssa.BasicBlock, i int, s *State) *State {
	if s.dead {
		return s
	}
	call, op, ok := lockstate.TryLockEdge(b, i)
	if !ok {
		return s
	}
	p, ok := f.namer.Exact(op.Lock)
	if !ok {
		return s
	}
	s = s.Clone()
	f.acquire(s, p, Acq{Path: p, Pos: call.Pos(), Read: op.Mode == lockstate.R})
	return s
}

// visit is called for each instruction with the State before it.
type visit func(instr ssa.Instruction, s *State)

// transfer runs the instructions of b over s.
func (f *Flow) transfer(b *ssa.BasicBlock, s *State, fn visit) *State {
	for _, instr := range b.Instrs {
		if s.dead {
			return s
		}
		if fn != nil {
			fn(instr, s)
		}
		f.step(instr, s)
	}
	return s
}

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

// step applies one instruction to s.
func (f *Flow) step(instr ssa.Instruction, s *State) {
	switch instr := instr.(type) {
	case *ssa.Call:
		f.call(&instr.Call, instr, s)
	case *ssa.Defer:
		f.deferred(&instr.Call, s)
	case *ssa.Go:
		f.goStmt(&instr.Call, s)
	case *ssa.Panic:
		s.dead = true
	}
}

func (f *Flow) call(c *ssa.CallCommon, instr *ssa.Call, s *State) {
	op := lockstate.LockCall(c)
	if op.Kind != lockstate.OpNone {
		p, ok := f.namer.Exact(op.Lock)
		if !ok {
			if op.Kind == lockstate.OpUnlock {
				f.weaken(s, "", "")
			}
			return
		}
		if p.Local() {
			if text, ok := f.prog.recv[instr.Pos()]; ok {
				p.Display = text
			}
		}
		switch op.Kind {
		case lockstate.OpLock:
			f.acquire(s, p, Acq{Path: p, Pos: instr.Pos(), Read: op.Mode == lockstate.R})
		case lockstate.OpUnlock:
			f.release(s, p)
		case lockstate.OpTryLock:
			// Held on the true branch of an if on the result (see
			// edge); otherwise unknown.
			if !onlyIfs(instr) {
				k := p.Key()
				f.paths[k] = p
				s.held[k] = s.get(k) | Held
				if _, ok := s.site[k]; !ok {
					s.site[k] = Acq{Path: p, Pos: instr.Pos(), Read: op.Mode == lockstate.R}
				}
			}
		}
		return
	}
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
	if f.prog.noReturn != nil && f.prog.noReturn(callee) {
		s.dead = true
		return
	}
	sum := f.prog.summaryOf(callee)
	if sum == nil {
		return
	}
	if sum.NoReturn {
		s.dead = true
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

// effects returns the net effect of a call (a lock operation or a call
// of a summarized function) as paths of the caller with their bits.
func (f *Flow) effects(c *ssa.CallCommon) map[string]uint8 {
	out := map[string]uint8{}
	op := lockstate.LockCall(c)
	if op.Kind != lockstate.OpNone {
		if p, ok := f.namer.Exact(op.Lock); ok {
			f.paths[p.Key()] = p
			switch op.Kind {
			case lockstate.OpLock:
				out[p.Key()] = Held
			case lockstate.OpUnlock:
				out[p.Key()] = Released
			}
		}
		return out
	}
	callee, bindings := staticCallee(c)
	sum := f.prog.summaryOf(callee)
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

func (f *Flow) deferred(c *ssa.CallCommon, s *State) {
	for k, bits := range f.effects(c) {
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
func (f *Flow) goStmt(c *ssa.CallCommon, s *State) {
	for k := range f.handsOff(c) {
		f.handedOff[k] = true
		s.held[k] = s.get(k) | Released
	}
}

// handsOff returns the locks that the goroutine a go statement starts
// with c releases: go mu.Unlock(), or a function that releases a lock it
// may be entered holding. A goroutine that locks and unlocks a lock
// itself releases none of its starter's.
func (f *Flow) handsOff(c *ssa.CallCommon) map[string]bool {
	out := map[string]bool{}
	if op := lockstate.LockCall(c); op.Kind != lockstate.OpNone {
		if p, ok := f.namer.Exact(op.Lock); ok && op.Kind == lockstate.OpUnlock {
			f.paths[p.Key()] = p
			out[p.Key()] = true
		}
		return out
	}
	callee, bindings := staticCallee(c)
	sum := f.prog.summaryOf(callee)
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

// summarize computes the function's net effect from its returns.
func (f *Flow) summarize() {
	s := &Summary{Effects: map[string]uint8{}, Paths: map[string]lockstate.ExactPath{}, Read: map[string]bool{}, NoReturn: true,
		EntryReleased: map[string]bool{}}
	for k := range f.entryReleased {
		if !f.paths[k].Local() {
			s.EntryReleased[k] = true
		}
	}
	for _, r := range f.Returns() {
		st := f.before(r)
		if st == nil || st.dead {
			continue
		}
		s.NoReturn = false
		for k, p := range f.paths {
			if p.Local() {
				continue
			}
			v := st.exit(k)
			if v == Untouched {
				continue
			}
			if st.getDef(k)&dR != 0 && st.get(k)&Untouched != 0 {
				// A deferred release of a lock it may be entered
				// holding.
				s.EntryReleased[k] = true
			}
			s.Effects[k] |= v
			s.Paths[k] = p
			if a, ok := st.site[k]; ok && a.Read {
				s.Read[k] = true
			}
		}
	}
	// A lock changed on some returns only is untouched on the others.
	for k := range s.Effects {
		for _, r := range f.Returns() {
			st := f.before(r)
			if st == nil || st.dead {
				continue
			}
			if st.exit(k) == Untouched {
				s.Effects[k] |= Untouched
			}
		}
	}
	f.summary = s
}

// Returns lists the function's return instructions, but for the one
// reached only by recovering from a panic.
func (f *Flow) Returns() []*ssa.Return {
	var out []*ssa.Return
	for _, b := range f.Fn.Blocks {
		if len(b.Instrs) == 0 || b == f.Fn.Recover {
			continue
		}
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			out = append(out, r)
		}
	}
	return out
}

// before returns the State before instr, or nil if instr is unreachable.
func (f *Flow) before(instr ssa.Instruction) *State {
	b := instr.Block()
	in, ok := f.in[b]
	if !ok {
		return nil
	}
	var res *State
	f.transfer(b, in.Clone(), func(i ssa.Instruction, s *State) {
		if i == instr {
			res = s.Clone()
		}
	})
	if res == nil {
		return deadState()
	}
	return res
}

// heldAt returns the locks definitely held before instr, by key, with
// their acquisitions. Locks held on entry are not known.
func (f *Flow) heldAt(instr ssa.Instruction) map[string]Acq {
	s := f.before(instr)
	out := map[string]Acq{}
	if s == nil || s.dead {
		return out
	}
	for k, v := range s.held {
		if v == Held {
			out[k] = s.site[k]
		}
	}
	return out
}

// releases reports whether instr releases (or may release) lock k.
func (f *Flow) releases(instr ssa.Instruction, k string) bool {
	switch instr := instr.(type) {
	case *ssa.Call:
		op := lockstate.LockCall(&instr.Call)
		if op.Kind == lockstate.OpUnlock {
			p, ok := f.namer.Exact(op.Lock)
			return !ok || p.Key() == k || p.Weak && p.Class == f.paths[k].Class
		}
		if op.Kind != lockstate.OpNone {
			return false
		}
		if callee, _ := staticCallee(&instr.Call); callee == nil && !instr.Call.IsInvoke() {
			for _, r := range f.releasers {
				if r == k {
					return true
				}
			}
			return false
		}
		return f.effects(&instr.Call)[k]&Released != 0
	case *ssa.Defer:
		return f.effects(&instr.Call)[k]&Released != 0
	case *ssa.Go:
		return f.handsOff(&instr.Call)[k]
	}
	return false
}

// releasedAfter reports whether some path from instr (excluded) may
// release lock k before acquiring it again.
func (f *Flow) releasedAfter(instr ssa.Instruction, k string) bool {
	b := instr.Block()
	rest := b.Instrs[slices.Index(b.Instrs, instr)+1:]
	released, stop := f.scanRelease(rest, k)
	if released || stop {
		return released
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		released, stop := f.scanRelease(b.Instrs, k)
		if released {
			return true
		}
		if !stop {
			work = append(work, b.Succs...)
		}
	}
	return false
}

// scanRelease reports whether instrs release lock k before acquiring it
// (released), or acquire it first (stop).
func (f *Flow) scanRelease(instrs []ssa.Instruction, k string) (released, stop bool) {
	for _, x := range instrs {
		if f.releases(x, k) {
			return true, false
		}
		if f.acquires(x, k) {
			return false, true
		}
	}
	return false, false
}

// acquires reports whether instr acquires lock k.
func (f *Flow) acquires(instr ssa.Instruction, k string) bool {
	c, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	op := lockstate.LockCall(&c.Call)
	if op.Kind == lockstate.OpLock {
		p, ok := f.namer.Exact(op.Lock)
		return ok && p.Key() == k
	}
	if op.Kind != lockstate.OpNone {
		return false
	}
	return f.effects(&c.Call)[k] == Held
}

// A Lock is a lock as seen at one instruction by another analyzer.
type Lock struct {
	Path lockstate.ExactPath
	// Held reports that the lock is held on every path to the
	// instruction; otherwise it was acquired on every path and may
	// have been released since.
	Held bool
	// Acq is the acquisition (for a held lock).
	Acq Acq
}

// under returns the locks that every path to instr has acquired since
// the function's entry, held or released since, by key.
func (f *Flow) under(instr ssa.Instruction) map[string]Lock {
	s := f.before(instr)
	out := map[string]Lock{}
	if s == nil || s.dead {
		return out
	}
	for k, v := range s.held {
		if v&Untouched != 0 || f.entryReleased[k] || v&(Held|Released) == 0 {
			continue
		}
		out[k] = Lock{Path: f.paths[k], Held: v == Held, Acq: s.site[k]}
	}
	return out
}

// reachable reports whether some path of the function reaches instr.
func (f *Flow) reachable(instr ssa.Instruction) bool {
	s := f.before(instr)
	return s != nil && !s.dead
}
