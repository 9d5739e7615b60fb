package heldcalls

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// recursive reports whether callee may call fn back, through static calls
// of the package.
func (a *analyzer) recursive(fn, callee *ssa.Function) bool {
	if callee == fn {
		return true
	}
	seen := map[*ssa.Function]bool{}
	var reach func(f *ssa.Function, depth int) bool
	reach = func(f *ssa.Function, depth int) bool {
		if f == fn {
			return true
		}
		if seen[f] || depth > 8 || !a.here(f) {
			return false
		}
		seen[f] = true
		for _, sc := range a.info(f).calls {
			if reach(sc.callee, depth+1) {
				return true
			}
		}
		return false
	}
	return reach(callee, 0)
}

// A mustAcq is a lock acquisition (or a static call, with callee set) in
// its block.
type mustAcq struct {
	block  *ssa.BasicBlock
	lock   Lock
	callee *ssa.Function
	fr     lockstate.Frame
}

// dominatesReturns reports whether the call at pos in fn (a Lock, or the
// call through which a lock is acquired) is on every path to fn's
// returns.
func dominatesReturns(fn *ssa.Function, pos token.Pos) bool {
	if fn.Blocks == nil && fn.Origin() != nil {
		fn = fn.Origin()
	}
	if !pos.IsValid() || fn.Blocks == nil {
		return false
	}
	var at *ssa.BasicBlock
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(ssa.CallInstruction); ok && instr.Pos() == pos {
				at = b
			}
		}
	}
	if at == nil {
		return false
	}
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 || b == fn.Recover {
			continue
		}
		switch b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return, *ssa.Panic:
			if !at.Dominates(b) {
				return false
			}
		}
	}
	return true
}

// must returns the locks fn acquires on every path to its returns,
// directly or through the callees of the package: the acquisitions in
// blocks that dominate every return. Locks the function may release
// without acquiring them (it drops its caller's lock) are left out.
func (a *analyzer) must(fi *funcInfo) []Lock {
	if fi.mustOK || a.busy[fi.fn] {
		return fi.mustSet
	}
	a.busy[fi.fn] = true
	defer delete(a.busy, fi.fn)
	var rets []*ssa.BasicBlock
	for _, b := range fi.fn.Blocks {
		if len(b.Instrs) == 0 || b == fi.fn.Recover {
			continue
		}
		switch b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return, *ssa.Panic:
			rets = append(rets, b)
		}
	}
	dominates := func(b *ssa.BasicBlock) bool {
		for _, r := range rets {
			if !b.Dominates(r) {
				return false
			}
		}
		return len(rets) > 0
	}
	var released []string
	if s := a.sum(fi.fn); s != nil {
		released = s.Released
	}
	var out []Lock
	add := func(l Lock) {
		if !slices.Contains(released, l.Lock) && !slices.ContainsFunc(out, func(x Lock) bool { return x.Lock == l.Lock }) {
			out = append(out, l)
		}
	}
	for _, m := range fi.acqs {
		if !dominates(m.block) {
			continue
		}
		if m.callee == nil {
			add(m.lock)
			continue
		}
		if !a.here(m.callee) {
			continue
		}
		for _, l := range a.must(a.info(m.callee)) {
			if ls := m.fr.Loc(l.Lock); len(ls) == 1 {
				l.Lock = ls[0]
				add(l)
			}
		}
	}
	fi.mustSet, fi.mustOK = out, true
	return out
}

// reentry returns the locks that a recursive call of fi acquires for
// certain once it runs a function of the recursion: the locks fi
// acquires on every path, and those of the functions it calls that may
// call root back, mapped onto fi's frame. A function that releases a
// lock its caller holds is left out for that lock.
func (a *analyzer) reentry(root *ssa.Function, fi *funcInfo, seen map[*ssa.Function]bool) []Lock {
	if seen[fi.fn] {
		return nil
	}
	seen[fi.fn] = true
	out := slices.Clone(a.must(fi))
	var released []string
	if s := a.sum(fi.fn); s != nil {
		released = s.Released
	}
	for _, sc := range fi.calls {
		if !a.here(sc.callee) || !a.recursive(root, sc.callee) {
			continue
		}
		for _, l := range a.reentry(root, a.info(sc.callee), seen) {
			ls := sc.fr.Loc(l.Lock)
			if len(ls) != 1 || slices.Contains(released, ls[0]) || slices.ContainsFunc(out, func(x Lock) bool { return x.Lock == ls[0] }) {
				continue
			}
			l.Lock = ls[0]
			out = append(out, l)
		}
	}
	return out
}
