package heldcalls

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

// events returns the acquisitions by the targets of fi's calls made with
// a lock fi holds.
func (a *analyzer) events(fi *funcInfo) []Event {
	var out []Event
	for _, e := range a.effective(fi, 0) {
		if !slices.ContainsFunc(e.held, func(h heldLock) bool { return h.own }) {
			continue
		}
		if e.anon != nil {
			acq := summary.Acquire{Class: e.anon.Class, Mode: e.anon.Mode, Pos: e.anon.Pos, Where: e.anon.Where, Via: e.origin.Name()}
			if e.origin == fi.fn {
				acq.Via = ""
			}
			for _, h := range e.held {
				if h.own && h.Class != "" {
					out = append(out, Event{Fn: fi.fn, Pos: e.pos, Held: h.Lock, Acq: acq, Target: e.origin, Unnamed: true})
				}
			}
			continue
		}
		targets := e.targets
		var fr lockstate.Frame
		if targets != nil {
			fr = lockstate.Frame{Args: e.args, Binds: e.binds, Cells: e.cells}
		} else {
			if e.instr == nil || len(e.fnval) == 1 && isParam(e.fnval[0]) {
				continue // resolved by the callers
			}
			targets = a.dynamic(e.instr)
			fr = lockstate.Frame{Args: e.args}
		}
		owner, field := ownerOf(e.fnval)
		if field != "" && e.targets == nil {
			// A function made once (sync.OnceFunc, OnceValue) and
			// stored in the field: calling it runs the function.
			for _, t := range a.onceTargets(field, e.fnval[0].Class) {
				if !slices.Contains(targets, t) {
					targets = append(targets, t)
				}
			}
		}
		for _, t := range targets {
			tfr := fr
			if tfr.Binds == nil && field != "" {
				tfr.Binds, tfr.Cells = a.ownerBinds(t, field, owner)
			}
			if e.instr != nil && e.instr.Common().IsInvoke() && len(e.args) > 0 && len(e.args[0]) == 1 {
				// An interface value loaded from a field of an object,
				// holding an adapter that wraps the object itself.
				if o, f := ownerOf(e.args[0]); f != "" {
					if g := a.wrapped(t, f, e.args[0][0].Class, o); g != nil {
						tfr.Fields = []map[string][]lockstate.Path{g}
					}
				}
			}
			sum, tfr := a.target(t, tfr)
			if sum == nil {
				continue
			}
			var released []string
			for _, r := range sum.Released {
				released = append(released, tfr.Loc(r)...)
			}
			acqs := sum.Acquires
			if a.follow {
				acqs = append(slices.Clone(acqs), a.deep(t, 0)...)
			}
			for _, acq := range acqs {
				if acq.Goroutine {
					continue
				}
				acq = inCaller(&tfr, acq, t)
				certain := dominatesReturns(t, acq.Pos)
				for _, h := range e.held {
					if h.own && !slices.Contains(released, h.Lock.Lock) {
						out = append(out, Event{Fn: fi.fn, Pos: e.pos, Held: h.Lock, Acq: acq, Target: t, Certain: certain})
					}
				}
			}
		}
	}
	// Static calls made while holding a lock without an access path: the
	// summaries do not see the orders it takes part in.
	for _, sc := range fi.calls {
		var unnamed []Lock
		for _, h := range sc.held {
			if lockstate.IsUnnamed(h.Lock) {
				unnamed = append(unnamed, h)
			}
		}
		sum := a.sum(sc.callee)
		if len(unnamed) == 0 || sum == nil {
			continue
		}
		for _, acq := range sum.Acquires {
			if acq.Goroutine {
				continue
			}
			ls := sc.fr.Loc(acq.Lock)
			acq.Lock = ""
			if len(ls) == 1 {
				acq.Lock = ls[0]
			}
			acq.Held = nil
			if acq.Via == "" {
				acq.Via = sc.callee.Name()
			}
			for _, u := range unnamed {
				out = append(out, Event{Fn: fi.fn, Pos: callPos(sc.instr, fi.fn), Held: u, Acq: acq, Target: sc.callee, Unnamed: true})
			}
		}
	}
	// Recursive calls: the summaries see a recursive callee as empty;
	// the locks it acquires on every path are computed here.
	for _, sc := range fi.calls {
		if len(sc.held) == 0 || !a.here(sc.callee) || !a.recursive(fi.fn, sc.callee) {
			continue
		}
		for _, m := range a.reentry(fi.fn, a.info(sc.callee), map[*ssa.Function]bool{}) {
			ls := sc.fr.Loc(m.Lock)
			if len(ls) != 1 {
				continue
			}
			acq := summary.Acquire{Lock: ls[0], Class: m.Class, Mode: m.Mode, Pos: m.Pos, Where: m.Where, Via: sc.callee.Name()}
			for _, h := range sc.held {
				out = append(out, Event{Fn: fi.fn, Pos: callPos(sc.instr, fi.fn), Held: h, Acq: acq, Target: sc.callee, Recursive: true, Certain: true})
			}
		}
	}
	return out
}

// target returns the summary of a target and the frame of its roots: the
// method behind a bound method value takes the bound receiver as $0.
func (a *analyzer) target(t *ssa.Function, fr lockstate.Frame) (*summary.Summary, lockstate.Frame) {
	if s := a.sum(t); s != nil {
		return s, fr
	}
	obj, ok := t.Object().(*types.Func)
	if !ok || t.Synthetic == "" {
		return nil, fr
	}
	m := t.Prog.FuncValue(obj)
	if m == nil || m == t {
		return nil, fr
	}
	s := a.sum(m)
	if s == nil {
		return nil, fr
	}
	if len(t.FreeVars) == 1 && strings.HasPrefix(t.Synthetic, "bound") {
		// A bound method value: $f0 is the receiver.
		var recv []lockstate.Path
		if len(fr.Binds) == 1 {
			recv = fr.Binds[0]
		}
		return s, lockstate.Frame{Args: append([][]lockstate.Path{recv}, fr.Args...)}
	}
	return s, fr
}

// deep returns the lock acquisitions of t's calls through function values
// and interfaces (the summaries see them as unknown code), on t's
// locations: a callback that calls a listener that locks.
func (a *analyzer) deep(t *ssa.Function, depth int) []summary.Acquire {
	if t.Blocks == nil && t.Origin() != nil {
		t = t.Origin()
	}
	if depth > 2 || !a.here(t) {
		return nil
	}
	if a.deepMemo == nil {
		a.deepMemo = map[*ssa.Function][]summary.Acquire{}
	}
	if acqs, ok := a.deepMemo[t]; ok {
		return acqs
	}
	a.deepMemo[t] = nil // cycle guard
	var out []summary.Acquire
	for _, e := range a.effective(a.info(t), 0) {
		if e.anon != nil {
			out = append(out, summary.Acquire{Class: e.anon.Class, Mode: e.anon.Mode, Pos: e.anon.Pos, Where: e.anon.Where, Via: e.origin.Name()})
			continue
		}
		targets := e.targets
		fr := lockstate.Frame{Args: e.args, Binds: e.binds, Cells: e.cells}
		if targets == nil {
			if e.instr == nil || len(e.fnval) == 1 && isParam(e.fnval[0]) {
				continue
			}
			targets = a.dynamic(e.instr)
			fr = lockstate.Frame{Args: e.args}
		}
		for _, u := range targets {
			sum, ufr := a.target(u, fr)
			if sum == nil {
				continue
			}
			for _, acq := range append(slices.Clone(sum.Acquires), a.deep(u, depth+1)...) {
				if acq.Goroutine || len(out) >= maxEntries {
					continue
				}
				out = append(out, inCaller(&ufr, acq, u))
			}
		}
	}
	a.deepMemo[t] = out
	return out
}

// inCaller returns acquisition acq of target t as the caller whose frame
// fr is sees it: its lock named in the caller's terms ("" when the call
// does not name it), no locks held (the caller's are what counts), and
// the target named as the way it happens.
func inCaller(fr *lockstate.Frame, acq summary.Acquire, t *ssa.Function) summary.Acquire {
	ls := fr.Loc(acq.Lock)
	acq.Lock = ""
	if len(ls) == 1 {
		acq.Lock = ls[0]
	}
	acq.Held = nil
	if acq.Via == "" {
		acq.Via = strings.TrimSuffix(t.Name(), "$bound")
	}
	return acq
}
