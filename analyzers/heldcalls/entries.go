package heldcalls

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

type heldLock struct {
	Lock
	own bool // reportable in this function
}

// An entry is a call of unknown code in a function or in a callee.
type entry struct {
	pos  token.Pos
	held []heldLock
	args [][]lockstate.Path // the call's arguments (and receiver first, for an invoke)
	// The callee: resolved targets with their frame, or the function
	// value's paths (a bare parameter is resolved by callers), or the
	// original instruction for the call graph.
	targets []*ssa.Function
	binds   [][]lockstate.Path
	cells   []bool
	fnval   []lockstate.Path
	instr   ssa.CallInstruction
	// anon is set for the acquisition of a lock reached through a value
	// that has no access path (a result of a call), known by its class
	// alone; origin is the function where it happens.
	anon   *Lock
	origin *ssa.Function
}

type staticCall struct {
	instr  ssa.CallInstruction
	callee *ssa.Function
	held   []Lock
	fr     lockstate.Frame
	// vals are the values of the callee's parameters, when they are not
	// the call's arguments (a method called through an interface).
	vals []ssa.Value
}

// paramValues returns the values of the callee's parameters at sc.
func (sc staticCall) paramValues() []ssa.Value {
	if sc.vals != nil {
		return sc.vals
	}
	return sc.instr.Common().Args
}

// effective returns the entries of fi: its own calls of unknown code and
// those of its callees in the package, mapped onto its frame.
func (a *analyzer) effective(fi *funcInfo, depth int) []*entry {
	if fi.done {
		return fi.eff
	}
	if a.busy[fi.fn] || depth > maxDepth {
		return fi.entries
	}
	a.busy[fi.fn] = true
	defer delete(a.busy, fi.fn)
	out := slices.Clone(fi.entries)
	for _, sc := range fi.calls {
		var sub []*entry
		if a.here(sc.callee) {
			sub = a.effective(a.info(sc.callee), depth+1)
		} else {
			sub = a.imported(sc.callee)
		}
		for _, e := range sub {
			if len(out) >= maxEntries {
				break
			}
			if p := a.propagate(fi, e, sc); p != nil {
				out = append(out, p)
			}
		}
	}
	// The calls of unknown code made by the targets of fi's own calls
	// through function values and interfaces.
	if a.follow {
		for _, e := range fi.entries {
			if e.instr == nil || e.anon != nil || e.targets != nil || len(e.fnval) == 1 && isParam(e.fnval[0]) {
				continue
			}
			c := e.instr.Common()
			vals := c.Args
			if c.IsInvoke() {
				vals = append([]ssa.Value{c.Value}, c.Args...)
			}
			var held []Lock
			for _, h := range e.held {
				held = append(held, h.Lock)
			}
			for _, t := range a.dynamic(e.instr) {
				if !a.here(t) || a.busy[t] {
					continue
				}
				sc := staticCall{instr: e.instr, callee: t, held: held, fr: lockstate.Frame{Args: e.args}, vals: vals}
				for _, sub := range a.effective(a.info(t), depth+1) {
					if len(out) >= maxEntries {
						break
					}
					if p := a.propagate(fi, sub, sc); p != nil {
						out = append(out, p)
					}
				}
			}
		}
	}
	fi.eff, fi.done = out, true
	return out
}

// propagate maps e, an entry of the callee of sc, onto fi's frame.
func (a *analyzer) propagate(fi *funcInfo, e *entry, sc staticCall) *entry {
	p := &entry{pos: callPos(sc.instr, fi.fn)}
	// A callee that releases a lock its caller holds (to block, or to
	// upgrade a read lock) does so before the calls it makes, as far as
	// its summary tells.
	released := a.released(sc.callee, sc.fr)
	for _, h := range sc.held {
		if !slices.Contains(released, h.Lock) {
			p.held = append(p.held, heldLock{Lock: h, own: true})
		}
	}
	resolvedHere := false
	mapPaths := func(ps [][]lockstate.Path) [][]lockstate.Path {
		out := make([][]lockstate.Path, len(ps))
		for i, vs := range ps {
			for _, v := range vs {
				out[i] = lockstate.AppendPaths(out[i], sc.fr.Value(v)...)
			}
		}
		return out
	}
	p.args = mapPaths(e.args)
	switch {
	case e.anon != nil:
		p.anon, p.origin = e.anon, e.origin
	case e.targets != nil:
		p.targets, p.binds, p.cells = e.targets, mapPaths(e.binds), e.cells
	case len(e.fnval) == 1 && isParam(e.fnval[0]):
		k := lockstate.ParseIndex(e.fnval[0].Str[1:])
		args := sc.paramValues()
		if k < 0 || k >= len(args) {
			return nil
		}
		switch v := args[k].(type) {
		case *ssa.Function:
			p.targets = []*ssa.Function{v}
			resolvedHere = true
		case *ssa.MakeClosure:
			p.targets = []*ssa.Function{v.Fn.(*ssa.Function)}
			p.binds, p.cells = lockstate.Bindings(fi.r, v.Bindings)
			resolvedHere = true
		default:
			// A function value loaded from memory: the call graph
			// resolves it here, where the callee's locks are known.
			p.fnval = sc.fr.Value(e.fnval[0])
			p.instr = e.instr
			resolvedHere = len(p.fnval) != 1 || !isParam(p.fnval[0])
		}
	default:
		for _, v := range e.fnval {
			p.fnval = lockstate.AppendPaths(p.fnval, sc.fr.Value(v)...)
		}
		p.instr = e.instr
	}
	for _, h := range e.held {
		for _, l := range sc.fr.Loc(h.Lock.Lock) {
			if slices.ContainsFunc(p.held, func(x heldLock) bool { return x.Lock.Lock == l }) {
				continue
			}
			m := h.Lock
			m.Lock = l
			if !a.local(m.Pos) {
				m.Pos = p.pos
			}
			p.held = append(p.held, heldLock{Lock: m, own: resolvedHere})
		}
	}
	if p.targets == nil && p.instr == nil && p.fnval == nil && p.anon == nil {
		return nil
	}
	return p
}

// released returns the locks callee may release without acquiring them,
// mapped onto its caller's locations.
func (a *analyzer) released(callee *ssa.Function, fr lockstate.Frame) []string {
	sum := a.sum(callee)
	if sum == nil {
		return nil
	}
	var out []string
	for _, r := range sum.Released {
		out = append(out, fr.Loc(r)...)
	}
	return out
}
