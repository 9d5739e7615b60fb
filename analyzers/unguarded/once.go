package unguarded

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/internal/report"
	"github.com/depcon/depcon/analyzers/summary"
)

// A field written only in functions that a sync.Once's Do runs
// (summary.OnceInit) is published by the Once: its writes happen once,
// before every Do of that Once returns. They race with no access made
// after a Do, whatever lock the paths to the Do hold (a frozen
// configuration resolved under the lock by Write and without it by a
// background mill, then read by both), and the guard that the locks
// held at such accesses suggest is no guard of the field. What races is
// a read made with nothing to order it after the writes: in a method
// that calls no Do, holding no lock held at every write.

// onceOnly reports whether the field of uses is written, and written
// only in functions a sync.Once runs.
func onceOnly(uses []use) bool {
	writes := 0
	for _, u := range uses {
		if !u.a.Write {
			continue
		}
		if u.a.Flags&summary.OnceInit == 0 {
			return false
		}
		writes++
	}
	return writes > 0
}

// checkOnce reports the reads of a field written only under a sync.Once
// (see onceOnly) that nothing orders after the writes of what they read.
func checkOnce(pass *analysis.Pass, t *typeEntries, uses []use, reported reports) {
	var writes []use
	for _, u := range uses {
		if u.a.Write {
			writes = append(writes, u)
		}
	}
	recv := t.obj.Type()
	res := pass.ResultOf[summary.Analyzer].(*summary.Result)
	// ordered memoises startedAfterOnceWrites by reader and field.
	type key struct {
		fn    *ssa.Function
		field string
	}
	ordered := map[key]bool{}
	for _, u := range uses {
		if u.a.Write || !u.a.Pos.IsValid() || u.quiet || callsDo(recv, u.m) || promotedHere(u.m, t) {
			continue
		}
		if f, _ := field(u.a.Loc); t.started[u.m] {
			k := key{u.m.Func, strings.TrimPrefix(f, "$0.")}
			ok, seen := ordered[k]
			if !seen {
				ok = startedAfterOnceWrites(res, k.fn, k.field)
				ordered[k] = ok
			}
			if ok {
				continue
			}
		}
		// The writes of what u reads: the field may be a struct whose
		// other parts the Once does not write.
		var ws []use
		for _, w := range writes {
			if lockstate.Compatible(w.a.Loc, u.a.Loc) {
				ws = append(ws, w)
			}
		}
		if len(ws) == 0 || heldAtAll(u, ws) || !reported.add(u.a.Pos, u.field) {
			continue
		}
		w := ws[0]
		names := u.m.NamesWith(w.m)
		pass.Report(analysis.Diagnostic{
			Pos: u.a.Pos,
			Message: fmt.Sprintf("%s is read in %s with no lock and no Do of the sync.Once whose function writes it "+
				"(in %s, at %s): the first Do may be writing it: data race",
				lockstate.Display(u.field, names), u.m.Name, w.m.Name, report.Short(w.a.Where)),
			Related: report.Related(w.a.Pos, fmt.Sprintf("%s written under a sync.Once", lockstate.Display(u.field, names))),
		})
	}
}

// heldAtAll reports whether read u holds a lock held at every write of
// writes.
func heldAtAll(u use, writes []use) bool {
	for _, h := range u.a.Held {
		all := true
		for _, w := range writes {
			if !heldIn(w.a.Held, h.Lock) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// callsDo reports whether method m calls Do on a sync.Once of its
// receiver, itself or in a callee: its summary reads the Once's state.
func callsDo(recv types.Type, m *summary.Method) bool {
	for _, a := range m.Summary.Accesses {
		if a.Write || a.Flags&summary.Atomic == 0 {
			continue
		}
		if t := locType(recv, a.Loc); t != nil && lockstate.TypeClass(t) == "sync.Once" {
			return true
		}
	}
	return false
}

// startedAfterOnceWrites reports whether method fn runs only as
// goroutines that functions a sync.Once's Do runs start after writing
// the receiver's field name: the go statement orders the goroutine's
// reads after those writes, and the Once makes them the only ones
//
//	func (w *Writer) init() { w.file = open(); go w.loop() } // w.once.Do(w.init)
func startedAfterOnceWrites(res *summary.Result, fn *ssa.Function, name string) bool {
	sites := 0
	for _, f := range res.SSA.SrcFuncs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				g, ok := instr.(*ssa.Go)
				if !ok || g.Call.IsInvoke() || methodOf(g.Call.Value) != fn {
					continue
				}
				if !runByOnce(res, f) || !writtenBefore(f, g, name) {
					return false
				}
				sites++
			}
		}
	}
	return sites > 0
}

// runByOnce reports whether some call of sync.Once's Do in the package
// runs fn: it is passed fn, a closure of it, or a method value of it.
func runByOnce(res *summary.Result, fn *ssa.Function) bool {
	for _, f := range res.SSA.SrcFuncs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(*ssa.Call)
				if !ok || lockstate.SyncMethod(c.Call.StaticCallee()) != "(*sync.Once).Do" || len(c.Call.Args) != 2 {
					continue
				}
				arg := c.Call.Args[1]
				if mc, ok := arg.(*ssa.MakeClosure); ok {
					arg = mc.Fn
				}
				g, ok := arg.(*ssa.Function)
				if ok && (g == fn || g.Synthetic != "" && g.Object() != nil && g.Object() == fn.Object()) {
					return true
				}
			}
		}
	}
	return false
}

// writtenBefore reports whether fn stores to its receiver's field name,
// and every such store comes before go statement g on every path.
func writtenBefore(fn *ssa.Function, g *ssa.Go, name string) bool {
	stores := 0
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || len(fn.Params) == 0 || fa.X != fn.Params[0] {
				continue
			}
			if f, _ := lockstate.FieldOf(fa.X.Type(), fa.Field); f != name {
				continue
			}
			stores++
			if b == g.Block() {
				if i > slices.Index(b.Instrs, ssa.Instruction(g)) {
					return false
				}
			} else if !b.Dominates(g.Block()) {
				return false
			}
		}
	}
	return stores > 0
}
