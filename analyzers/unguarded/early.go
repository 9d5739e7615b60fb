package unguarded

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/internal/report"
	"github.com/depcon/depcon/analyzers/summary"
)

// early reports check-then-lock reads: a plain read of a receiver field,
// in a method that locks a guard of the field afterwards, before anything
// that synchronises, when every write of the field holds that guard. The
// methods looked at are the entry points and the methods of the type they
// call on their receiver (a lazy-initialisation helper), each in its own
// body.
func early(pass *analysis.Pass, t *typeEntries, st *types.Struct, reported reports, lay *layout) {
	res := pass.ResultOf[summary.Analyzer].(*summary.Result)
	// Fields accessed with sync/atomic anywhere are left to mixed.
	atomicField := map[string]bool{}
	for _, m := range t.methods {
		for _, a := range m.Summary.Accesses {
			if f, ok := field(a.Loc); ok && a.Flags&(summary.Atomic|summary.SyncMap) != 0 {
				atomicField[f] = true
			}
		}
	}
	for _, fn := range t.bodies() {
		sum := res.Of(fn)
		if sum == nil {
			continue
		}
		var g *cfg
		for _, a := range sum.Accesses {
			f, ok := field(a.Loc)
			if !ok || a.Write || !a.Pos.IsValid() || a.Pos == fn.Pos() ||
				a.Flags&(summary.Atomic|summary.SyncMap|summary.Chan|summary.Indirect|summary.Goroutine|summary.May|summary.LastRef) != 0 ||
				atomicField[f] || synchronized(st, f) || token.IsExported(strings.TrimPrefix(f, "$0.")) {
				continue
			}
			var locks []string
			for _, acq := range sum.Acquires {
				if !acq.Goroutine && lay.guardOf(acq.Lock, f) && !heldIn(a.Held, acq.Lock) && !slices.Contains(locks, acq.Lock) {
					locks = append(locks, acq.Lock)
				}
			}
			if len(locks) == 0 {
				continue
			}
			if g == nil {
				g = newCFG(res, fn)
			}
			reads := g.at(a.Pos)
			if len(reads) == 0 || g.deferred(a.Pos) || g.synchronises(reads) || g.synchronised(reads) {
				// A callee that synchronises before its read is looked
				// at in its own body.
				continue
			}
			contents := a.Loc
			if g.mapLen(reads, locType(t.obj.Type(), a.Loc)) {
				contents = a.Loc + "->[*]" // len(m) reads the map's count
			}
			for _, lock := range locks {
				// A function that unlocks the lock before taking it is
				// called with it held (to upgrade a read lock).
				acqs := g.acquisitions(lock)
				if !g.before(reads, acqs) || g.releasesHeld(lock, acqs) {
					continue
				}
				w, ok := guardedWrite(t, fn, a, contents, lock)
				if !ok || !reported.add(a.Pos, f) {
					continue
				}
				// One text about fn and w.m.
				names, wnames := summary.ParamNames(fn), w.m.Params
				if w.m.Func != nil {
					names, wnames = summary.PairNames(fn, w.m.Func), summary.PairNames(w.m.Func, fn)
				}
				name := lockstate.Display(lock, names)
				loc := lockstate.Display(a.Loc, names)
				if contents != a.Loc {
					loc = "len(" + loc + ")"
				}
				first := acqs[0]
				for _, acq := range acqs {
					if acq.Pos() > a.Pos && (first.Pos() < a.Pos || acq.Pos() < first.Pos()) {
						first = acq
					}
				}
				pass.Report(analysis.Diagnostic{
					Pos: a.Pos,
					Message: fmt.Sprintf("%s is read%s in %s before %s is locked, but written with %s held (e.g. in %s, %s): check-then-lock data race; read it after locking",
						loc, report.Via(a.Via), fn.Name(), name, name, w.m.Name, report.Short(w.a.Where)),
					Related: related(
						analysis.RelatedInformation{Pos: first.Pos(), Message: name + " locked here"},
						analysis.RelatedInformation{Pos: w.a.Pos, Message: fmt.Sprintf("%s written with %s held%s",
							lockstate.Display(w.a.Loc, wnames), lockstate.Display(lock, wnames), report.Via(w.a.Via))},
					),
				})
				break
			}
		}
	}
}

// bodies returns the functions whose bodies early looks at: the entry
// points, and the methods of the type that they call, directly or through
// other such methods, on their own receiver.
func (t *typeEntries) bodies() []*ssa.Function {
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{}
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		if fn == nil || seen[fn] || fn.Synthetic != "" || fn.Blocks == nil || len(fn.Params) == 0 {
			return
		}
		seen[fn] = true
		out = append(out, fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Call.IsInvoke() || len(call.Call.Args) == 0 || call.Call.Args[0] != fn.Params[0] {
					continue
				}
				if callee := call.Call.StaticCallee(); callee != nil && callee.Signature.Recv() != nil && recvType(callee) == t.obj {
					visit(callee)
				}
			}
		}
	}
	for _, m := range t.methods {
		visit(m.Func)
	}
	return out
}

// guardedWrite returns a write of the field read by r (of location loc or
// its contents) when every such write by an entry point holds lock in
// write mode, no lock held at r guards them all, and they do not all come
// from one goroutine's method that r runs in (a single writer may read
// its own writes without the lock).
func guardedWrite(t *typeEntries, fn *ssa.Function, r summary.Access, contents, lock string) (entryAccess, bool) {
	var writes []entryAccess
	for _, wm := range t.methods {
		for _, w := range wm.Summary.Accesses {
			if !w.Write || w.Flags&(summary.Indirect|summary.May|summary.LastRef) != 0 ||
				!lockstate.Compatible(w.Loc, r.Loc) && !lockstate.Compatible(w.Loc, contents) {
				continue
			}
			writes = append(writes, entryAccess{wm, w})
		}
	}
	if len(writes) == 0 {
		return entryAccess{}, false // set before the value is shared
	}
	owner := writes[0].m
	for _, w := range writes {
		if !heldW(w.a.Held, lock) {
			return entryAccess{}, false
		}
		if w.m != owner {
			owner = nil
		}
	}
	if owner != nil && t.started[owner] && (owner.Func == fn || !t.isEntry(fn)) {
		return entryAccess{}, false
	}
	for _, h := range r.Held {
		all := true
		for _, w := range writes {
			all = all && heldW(w.a.Held, h.Lock)
		}
		if all {
			return entryAccess{}, false // a read under another guard
		}
	}
	best := writes[0]
	for _, w := range writes {
		if w.m.Func != fn && w.a.Pos.IsValid() {
			best = w
			break
		}
	}
	return best, true
}

func heldIn(hs []summary.Held, lock string) bool {
	for _, h := range hs {
		if h.Lock == lock {
			return true
		}
	}
	return false
}

func heldW(hs []summary.Held, lock string) bool {
	for _, h := range hs {
		if h.Lock == lock && h.Mode == lockstate.W {
			return true
		}
	}
	return false
}

// A cfg answers ordering questions about the instructions of a function.
type cfg struct {
	res   *summary.Result
	fn    *ssa.Function
	index map[ssa.Instruction]int // position in its block
	byPos map[token.Pos][]ssa.Instruction
	reach [][]bool // reach[a][b]: block b is reachable from a by one edge or more
	sync  []ssa.Instruction
}

func newCFG(res *summary.Result, fn *ssa.Function) *cfg {
	g := &cfg{res: res, fn: fn, index: map[ssa.Instruction]int{}, byPos: map[token.Pos][]ssa.Instruction{}}
	n := len(fn.Blocks)
	g.reach = make([][]bool, n)
	for _, b := range fn.Blocks {
		r := make([]bool, n)
		stack := append([]*ssa.BasicBlock(nil), b.Succs...)
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if r[s.Index] {
				continue
			}
			r[s.Index] = true
			stack = append(stack, s.Succs...)
		}
		g.reach[b.Index] = r
		for i, instr := range b.Instrs {
			g.index[instr] = i
			pos := lockstate.InstrPos(instr, fn)
			g.byPos[pos] = append(g.byPos[pos], instr)
			if g.syncOp(instr) {
				g.sync = append(g.sync, instr)
			}
		}
	}
	return g
}

// at returns the instructions at pos.
func (g *cfg) at(pos token.Pos) []ssa.Instruction { return g.byPos[pos] }

// deferred reports whether an access at pos may happen in a deferred call.
func (g *cfg) deferred(pos token.Pos) bool {
	for _, instr := range g.byPos[pos] {
		if _, ok := instr.(*ssa.Defer); ok {
			return true
		}
	}
	return false
}

// acquisitions returns the calls of the function that acquire lock: its
// Lock calls, and its calls of functions that return holding it or take
// and release it inside (Result.CallOps).
func (g *cfg) acquisitions(lock string) []ssa.Instruction {
	return g.calls(func(call *ssa.Call) bool { return g.res.Acquires(call, lock) })
}

// releasesHeld reports whether the function releases lock before it
// acquires it: it is called with the lock held, and releases it to upgrade
// a read lock or to wait.
func (g *cfg) releasesHeld(lock string, acqs []ssa.Instruction) bool {
	for _, rel := range g.calls(func(call *ssa.Call) bool { return g.res.Releases(call, lock) }) {
		after := false
		for _, acq := range acqs {
			after = after || g.precedes(acq, rel)
		}
		if !after {
			return true
		}
	}
	return false
}

// calls returns the calls of the function for which keep is true.
func (g *cfg) calls(keep func(*ssa.Call) bool) []ssa.Instruction {
	var out []ssa.Instruction
	for _, b := range g.fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && keep(call) {
				out = append(out, instr)
			}
		}
	}
	return out
}

// precedes reports whether x may execute before y.
func (g *cfg) precedes(x, y ssa.Instruction) bool {
	if x.Block() == y.Block() && g.index[x] < g.index[y] {
		return true
	}
	return g.reach[x.Block().Index][y.Block().Index]
}

// before reports whether none of xs may execute after one of ys, and one
// of ys may execute after one of xs.
func (g *cfg) before(xs, ys []ssa.Instruction) bool {
	some := false
	for _, x := range xs {
		for _, y := range ys {
			if g.precedes(y, x) {
				return false
			}
			some = some || g.precedes(x, y)
		}
	}
	return some
}

// synchronises reports whether one of the instructions synchronises.
func (g *cfg) synchronises(instrs []ssa.Instruction) bool {
	for _, x := range instrs {
		if slices.Contains(g.sync, x) {
			return true
		}
	}
	return false
}

// synchronised reports whether a synchronising operation may execute
// before one of the instructions.
func (g *cfg) synchronised(instrs []ssa.Instruction) bool {
	for _, s := range g.sync {
		for _, x := range instrs {
			if g.precedes(s, x) {
				return true
			}
		}
	}
	return false
}

// syncOp reports whether instr may synchronise with other goroutines: a channel operation, a call into sync or sync/atomic, a
// Lock or Unlock through an interface, or a call of a function whose
// summary acquires a lock or makes a synchronised access.
func (g *cfg) syncOp(instr ssa.Instruction) bool {
	switch in := instr.(type) {
	case *ssa.UnOp:
		return in.Op == token.ARROW
	case *ssa.Send, *ssa.Select:
		return true
	case *ssa.Call:
		c := in.Common()
		if c.IsInvoke() {
			return lockstate.LockCall(c).Kind != lockstate.OpNone || c.Method.Name() == "Wait"
		}
		callee := c.StaticCallee()
		if callee == nil {
			return false
		}
		if lockstate.SyncMethod(callee) != "" {
			return true
		}
		sum := g.res.Of(callee)
		if sum == nil {
			return false
		}
		if len(sum.Released) > 0 {
			return true
		}
		for _, a := range sum.Acquires {
			if !a.Goroutine {
				return true
			}
		}
		for _, a := range sum.Accesses {
			if a.Flags.Synchronized() && a.Flags&summary.Goroutine == 0 {
				return true
			}
		}
	}
	return false
}

// mapLen reports whether one of the loads of a map-typed location is the
// operand of len.
func (g *cfg) mapLen(reads []ssa.Instruction, t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ok := t.Underlying().(*types.Map); !ok {
		return false
	}
	for _, r := range reads {
		load, ok := r.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		for _, ref := range *load.Referrers() {
			if call, ok := ref.(*ssa.Call); ok {
				if b, ok := call.Call.Value.(*ssa.Builtin); ok && b.Name() == "len" {
					return true
				}
			}
		}
	}
	return false
}
