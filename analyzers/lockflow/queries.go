package lockflow

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

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

// releases reports whether instr releases (or may release) lock k: a
// lock operation of its own, as the engine reads it (an Unlock of a lock
// without a path, or of a φ-node's of k's class, may release k), or a
// callee's net effect, a deferred call's, a goroutine's.
func (f *Flow) releases(instr ssa.Instruction, k string) bool {
	if ev, ok := f.eng.Direct(instr); ok {
		p, named := f.lockName(instr, ev)
		switch ev.Kind {
		case lockstate.Release:
			if !named {
				return !ev.Chan
			}
			return p.Key() == k || !ev.Chan && p.Weak && p.Class == f.paths[k].Class
		case lockstate.HandOff:
			if named {
				f.paths[p.Key()] = p
			}
			return named && p.Key() == k
		}
		return false
	}
	switch instr := instr.(type) {
	case *ssa.Call:
		if lockstate.LockCall(&instr.Call).Kind != lockstate.OpNone {
			return false // a TryLock tested by an if
		}
		if callee, _ := staticCallee(&instr.Call); callee == nil && !instr.Call.IsInvoke() {
			for _, r := range f.releasers {
				if r == k {
					return true
				}
			}
			return false
		}
		return f.effects(instr, &instr.Call)[k]&Released != 0
	case *ssa.Defer:
		return f.effects(instr, &instr.Call)[k]&Released != 0
	case *ssa.Go:
		return f.handsOff(instr, &instr.Call)[k]
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

// acquires reports whether instr acquires lock k: a lock operation of its
// own, as the engine reads it, or a callee that returns holding k.
func (f *Flow) acquires(instr ssa.Instruction, k string) bool {
	if ev, ok := f.eng.Direct(instr); ok {
		if ev.Kind != lockstate.Acquire {
			return false
		}
		p, ok := f.lockName(instr, ev)
		return ok && p.Key() == k
	}
	c, ok := instr.(*ssa.Call)
	if !ok || lockstate.LockCall(&c.Call).Kind != lockstate.OpNone {
		return false
	}
	return f.effects(c, &c.Call)[k] == Held
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
