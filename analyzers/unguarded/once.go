package unguarded

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"

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
	for _, u := range uses {
		if u.a.Write || !u.a.Pos.IsValid() || u.quiet || callsDo(recv, u.m) || promotedHere(u.m, t) {
			continue
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
