package heldcalls

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// walker records the calls of a function with the locks held at each:
// the summary analyzer computes those (summary.Result.CallHeld) in its
// own flow-sensitive walk, so one pass over the instructions suffices
// here.
type walker struct {
	a  *analyzer
	fi *funcInfo
}

type state struct {
	held []Lock
}

func (w *walker) run() {
	for _, b := range w.fi.fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				w.call(w.heldAt(call), call)
			}
		}
	}
}

// heldAt returns the locks held before call, as the summary analyzer
// computed them.
func (w *walker) heldAt(call *ssa.Call) *state {
	hs := w.a.res.HeldAt(call)
	st := &state{held: make([]Lock, len(hs))}
	for i, h := range hs {
		st.held[i] = Lock{Lock: h.Lock, Class: h.Class, Mode: h.Mode, Pos: h.Pos, Where: h.Where}
	}
	return st
}

func (w *walker) call(st *state, call *ssa.Call) {
	c := call.Common()
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return
	}
	r := w.fi.r
	if c.IsInvoke() {
		if op := lockstate.LockCall(c); op.Kind != lockstate.OpNone {
			w.lockEvent(st, call, op)
			return
		}
		w.dynamic(st, call, append([]ssa.Value{c.Value}, c.Args...), []lockstate.Path{})
		return
	}
	callee := c.StaticCallee()
	if callee == nil {
		w.dynamic(st, call, c.Args, r.Paths(c.Value))
		return
	}
	if name := lockstate.SyncMethod(callee); name != "" {
		if op := lockstate.LockCall(c); op.Kind != lockstate.OpNone {
			w.lockEvent(st, call, op)
			return
		}
		switch name {
		case "(*sync.Once).Do":
			// The body runs in this goroutine with the locks held.
			if len(c.Args) == 2 {
				switch f := c.Args[1].(type) {
				case *ssa.Function, *ssa.MakeClosure:
					w.static(st, call, f, nil)
				default:
					// A parameter of a lazy-init helper: a call of it,
					// resolved by the callers. (Another function value
					// is not resolved: the call graph's callee at this
					// call is Do itself.)
					if ps := r.Paths(f); len(ps) == 1 && isParam(ps[0]) {
						w.dynamic(st, call, nil, ps)
					}
				}
			}
		}
		return
	}
	w.static(st, call, c.Value, c.Args)
}

// static handles a call of a known function fv (a function or a closure).
func (w *walker) static(st *state, call *ssa.Call, fv ssa.Value, args []ssa.Value) {
	var callee *ssa.Function
	var bound []ssa.Value
	switch v := fv.(type) {
	case *ssa.Function:
		callee = v
	case *ssa.MakeClosure:
		callee, bound = v.Fn.(*ssa.Function), v.Bindings
	default:
		return
	}
	fr := *lockstate.CallFrame(w.fi.r, args, bound)
	if printer(callee) && len(args) > 0 {
		w.printed(st, call, args[len(args)-1])
	}
	w.fi.calls = append(w.fi.calls, staticCall{instr: call, callee: callee, held: slices.Clone(st.held), fr: fr})
	w.fi.acqs = append(w.fi.acqs, mustAcq{block: call.Block(), callee: callee, fr: fr})
	sum := w.a.sum(callee)
	if sum == nil {
		return
	}
	// Net effects: the locks the callee releases, then those it holds
	// on return.
	for _, rel := range sum.Released {
		for _, l := range fr.Loc(rel) {
			w.release(st, l)
		}
	}
	for _, h := range sum.Exit {
		if ls := fr.Loc(h.Lock); len(ls) == 1 {
			w.acquire(st, call, Lock{Lock: ls[0], Class: h.Class, Mode: h.Mode})
		}
	}
}

func (w *walker) dynamic(st *state, call *ssa.Call, args []ssa.Value, fnval []lockstate.Path) {
	if len(w.fi.entries) >= maxEntries {
		return
	}
	e := &entry{pos: callPos(call, w.fi.fn), instr: call, fnval: fnval}
	if fnval == nil {
		e.fnval = []lockstate.Path{{Str: "?", Loaded: true}} // unknown value: the call graph only
	}
	for _, h := range st.held {
		e.held = append(e.held, heldLock{Lock: h, own: true})
	}
	for _, a := range args {
		e.args = append(e.args, w.fi.r.Paths(a))
	}
	w.fi.entries = append(w.fi.entries, e)
}

// lockEvent applies the lock operation op (see lockstate.LockCall); a
// TryLock is no event (it never blocks).
func (w *walker) lockEvent(st *state, call *ssa.Call, op lockstate.LockOp) {
	v, mode := op.Lock, op.Mode
	ps := w.fi.r.Paths(v)
	if op.Kind == lockstate.OpUnlock {
		for _, p := range ps {
			w.release(st, p.Location())
		}
		if len(ps) == 0 {
			// The same value, or another load of the same variable: any
			// lock of the class without a path is released.
			if _, class := lockstate.UnnamedKey(v); class != "" {
				st.held = slices.DeleteFunc(st.held, func(h Lock) bool { return lockstate.IsUnnamed(h.Lock) && h.Class == class })
			}
		}
		return
	}
	if op.Kind != lockstate.OpLock {
		return
	}
	if len(ps) == 0 {
		w.unnamed(st, call, v, mode)
		return
	}
	if len(ps) != 1 {
		return
	}
	class := ps[0].Class
	if class == "" {
		class = lockstate.TypeClass(v.Type())
	}
	if slices.ContainsFunc(st.held, func(h Lock) bool { return lockstate.IsUnnamed(h.Lock) }) {
		// The summaries see this order only for the locks they name.
		unnamedOnly := &state{held: slices.DeleteFunc(slices.Clone(st.held), func(h Lock) bool { return !lockstate.IsUnnamed(h.Lock) })}
		w.order(unnamedOnly, call, class, mode)
	}
	w.acquire(st, call, Lock{Lock: ps[0].Location(), Class: class, Mode: mode})
}

// unnamed handles the acquisition of a lock that has no access path: a
// field of a struct that is the result of a call (s := find(); s.mu.Lock()),
// known by its class. It is held until it is unlocked through the same
// value, and its acquisition is an order of the locks held.
func (w *walker) unnamed(st *state, call *ssa.Call, v ssa.Value, mode lockstate.Mode) {
	key, class := lockstate.UnnamedKey(v)
	if key == "" {
		return
	}
	w.order(st, call, class, mode)
	w.acquire(st, call, Lock{Lock: key, Class: class, Mode: mode})
}

// order records an acquisition of a lock of class while holding st.held
// as an entry of its own, when the summaries do not see it: the lock, or
// one of the locks held, has no access path.
func (w *walker) order(st *state, call *ssa.Call, class string, mode lockstate.Mode) {
	if len(w.fi.entries) >= maxEntries {
		return
	}
	l := &Lock{Class: class, Mode: mode, Pos: callPos(call, w.fi.fn)}
	if w.a.local(l.Pos) {
		l.Where = w.a.pass.Fset.Position(l.Pos).String()
	}
	e := &entry{pos: l.Pos, anon: l, origin: w.fi.fn}
	for _, h := range st.held {
		e.held = append(e.held, heldLock{Lock: h, own: true})
	}
	w.fi.entries = append(w.fi.entries, e)
}

func (w *walker) acquire(st *state, call *ssa.Call, l Lock) {
	if slices.ContainsFunc(st.held, func(h Lock) bool { return h.Lock == l.Lock }) {
		return
	}
	l.Pos = callPos(call, w.fi.fn)
	if w.a.local(l.Pos) {
		l.Where = w.a.pass.Fset.Position(l.Pos).String()
	}
	if !eventOnly(call) {
		w.fi.acqs = append(w.fi.acqs, mustAcq{block: call.Block(), lock: l})
	}
	i, _ := slices.BinarySearchFunc(st.held, l.Lock, func(h Lock, s string) int { return strings.Compare(h.Lock, s) })
	st.held = slices.Insert(st.held, i, l)
}

// eventOnly reports whether the call is a static call whose Exit locks
// are being applied (recorded as the call itself).
func eventOnly(call *ssa.Call) bool {
	return call.Common().StaticCallee() != nil && lockstate.SyncMethod(call.Common().StaticCallee()) == "" && !call.Common().IsInvoke()
}

func (w *walker) release(st *state, lock string) {
	st.held = slices.DeleteFunc(st.held, func(h Lock) bool { return h.Lock == lock })
}

// printer reports whether fn is a print function of fmt or log, which
// calls the String or Error method of its operands in the caller's
// goroutine.
func printer(fn *ssa.Function) bool {
	if fn.Pkg == nil || !fn.Signature.Variadic() || fn.Signature.Recv() != nil {
		return false
	}
	switch fn.Pkg.Pkg.Path() {
	case "fmt", "log":
		return true
	}
	return false
}

// printed records, for the operands of a print function (the variadic
// slice), the calls of their String or Error methods.
func (w *walker) printed(st *state, call *ssa.Call, varargs ssa.Value) {
	sl, ok := varargs.(*ssa.Slice)
	if !ok {
		return
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return
	}
	prog := w.fi.fn.Prog
	for _, ref := range *arr.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, ref := range *ia.Referrers() {
			store, ok := ref.(*ssa.Store)
			if !ok || store.Addr != ia {
				continue
			}
			mi, ok := store.Val.(*ssa.MakeInterface)
			if !ok {
				continue
			}
			mset := prog.MethodSets.MethodSet(mi.X.Type())
			for _, name := range []string{"String", "Error"} {
				sel := mset.Lookup(nil, name)
				if sel == nil {
					continue
				}
				fn := prog.MethodValue(sel)
				if fn == nil || len(w.fi.entries) >= maxEntries {
					continue
				}
				e := &entry{pos: callPos(call, w.fi.fn), targets: []*ssa.Function{fn}, args: [][]lockstate.Path{w.fi.r.Paths(mi.X)}}
				for _, h := range st.held {
					e.held = append(e.held, heldLock{Lock: h, own: true})
				}
				w.fi.entries = append(w.fi.entries, e)
				break
			}
		}
	}
}
