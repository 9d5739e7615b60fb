package lockflow

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// This file is what the analyzers that read the flows see: the methods
// take the Program's lock, since computing a flow, naming a value or
// running a block's instructions again adds to shared tables.

// Flow returns the lock flow of fn, computing it if needed, or nil when
// fn has no body.
func (p *Program) Flow(fn *ssa.Function) *Flow {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.flow(fn)
}

// Program returns the Program the flow belongs to.
func (f *Flow) Program() *Program { return f.prog }

// Name returns the path of v in the flow's function, under the exact
// policy (lockstate.Namer.Exact).
func (f *Flow) Name(v ssa.Value) (lockstate.ExactPath, bool) {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.namer.Exact(v)
}

// Map names p, a path of a function that the flow's function calls or
// starts, in the flow's function: through the values it passes as the
// callee's parameters (args) and binds to its free variables (bindings),
// as lockstate.Frame.Exact maps them.
func (f *Flow) Map(p lockstate.ExactPath, args, bindings []ssa.Value) (lockstate.ExactPath, bool) {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	fr := lockstate.Frame{Namer: f.namer, ArgVals: args, BindVals: bindings}
	return fr.Exact(p)
}

// InCallee names p, a path of the flow's function, in the terms of fn,
// a function it calls or starts with args as fn's parameters and
// bindings as its free variables, as lockstate.Frame.InCallee names it.
func (f *Flow) InCallee(p lockstate.ExactPath, fn *ssa.Function, args, bindings []ssa.Value) (lockstate.ExactPath, bool) {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	fr := lockstate.Frame{Namer: f.namer, ArgVals: args, BindVals: bindings}
	return fr.InCallee(p, fn)
}

// Before returns the state before instr, or nil if instr is unreachable.
func (f *Flow) Before(instr ssa.Instruction) *State {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.before(instr)
}

// Out returns the state at the end of b along its i'th edge.
func (f *Flow) Out(b *ssa.BasicBlock, i int) *State {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.out(b, i)
}

// Under returns the locks that every path to instr has acquired since
// the function's entry, held or released since, by key.
func (f *Flow) Under(instr ssa.Instruction) map[string]Lock {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.under(instr)
}

// Reachable reports whether some path of the function reaches instr.
func (f *Flow) Reachable(instr ssa.Instruction) bool {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.reachable(instr)
}

// Releases reports whether instr releases (or may release) lock k.
func (f *Flow) Releases(instr ssa.Instruction, k string) bool {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.releases(instr, k)
}

// Acquires reports whether instr acquires lock k.
func (f *Flow) Acquires(instr ssa.Instruction, k string) bool {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.acquires(instr, k)
}

// ReleasedAfter reports whether some path from instr (excluded) may
// release lock k before acquiring it again.
func (f *Flow) ReleasedAfter(instr ssa.Instruction, k string) bool {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.releasedAfter(instr, k)
}

// MapPath names lock k of callee, a function f calls with args, in f.
func (f *Flow) MapPath(callee *Flow, k string, args []ssa.Value) (lockstate.ExactPath, bool) {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	if callee.summary == nil {
		return lockstate.ExactPath{}, false
	}
	return f.mapPath(callee.summary, k, args, nil)
}

// Keys returns the keys of the locks the function operates on, sorted.
func (f *Flow) Keys() []string {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	ks := make([]string, 0, len(f.paths))
	for k := range f.paths {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Path returns the path of lock k.
func (f *Flow) Path(k string) lockstate.ExactPath {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.paths[k]
}

// Summarized reports whether the function has a net effect on locks its
// callers can name: false while it is being computed (recursion).
func (f *Flow) Summarized() bool { return f.summary != nil }

// EntryHeld reports whether the function releases lock k while it may
// be held on entry: it works on its caller's lock.
func (f *Flow) EntryHeld(k string) bool {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.entryHeld[k]
}

// HandedOff reports whether a goroutine the function starts, or a
// function value that escapes it, releases lock k.
func (f *Flow) HandedOff(k string) bool {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	return f.handedOff[k]
}

// CallerReleases returns the classes of the locks the function releases
// for its caller, without taking them again: those it may be entered
// holding (held false), or, narrower, those it is entered holding for
// sure (held true; see Flow.entryReleased).
func (f *Flow) CallerReleases(held bool) []string {
	f.prog.mu.Lock()
	defer f.prog.mu.Unlock()
	set := f.entryHeld
	if held {
		set = f.entryReleased
	}
	var out []string
	for k := range set {
		if c, v := f.paths[k].Class, f.effect(k); c != "" && Releasing(v) {
			out = append(out, c)
		}
	}
	return out
}

// Releasing reports whether a lock in states v is released and never
// held.
func Releasing(v uint8) bool { return v&Released != 0 && v&Held == 0 }

// Dead reports whether no path reaches the point.
func (s *State) Dead() bool { return s.dead }

// Get returns the states lock k may be in.
func (s *State) Get(k string) uint8 { return s.get(k) }

// Exit returns the states lock k may be in once the deferred calls have
// run.
func (s *State) Exit(k string) uint8 { return s.exit(k) }

// Site returns the acquisition of lock k that reaches the point first.
func (s *State) Site(k string) Acq { return s.site[k] }

// Undeferred reports whether no deferred call on any path to the point
// operates on lock k.
func (s *State) Undeferred(k string) bool { return s.getDef(k) == dE }
