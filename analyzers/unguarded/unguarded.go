package unguarded

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/internal/report"
	"github.com/depcon/depcon/analyzers/summary"
)

var Analyzer = &analysis.Analyzer{
	Name:     "unguarded",
	Doc:      doc,
	URL:      "https://pkg.go.dev/github.com/depcon/depcon/analyzers/unguarded",
	Requires: []*analysis.Analyzer{summary.Analyzer},
	Run:      run,
}

// minGuarded is the number of other accesses that must hold the guard
// before an access without it is reported.
const minGuarded = 2

// use is an access of a receiver field by an exported method.
type use struct {
	m      *summary.Method
	a      summary.Access
	field  string // "$0.f"
	guards map[string]summary.Mode
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[summary.Analyzer].(*summary.Result)
	reported := map[string]bool{}
	for _, t := range res.Types {
		st, ok := t.Obj.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		byField := map[string][]use{}
		var fields []string
		for _, m := range t.Methods {
			for _, a := range m.Summary.Accesses {
				f, ok := field(a.Loc)
				if !ok || a.Flags&(summary.Atomic|summary.SyncMap|summary.Chan|summary.Indirect|summary.Goroutine|summary.May) != 0 ||
					synchronized(st, f) || token.IsExported(strings.TrimPrefix(f, "$0.")) {
					continue
				}
				u := use{m: m, a: a, field: f, guards: map[string]summary.Mode{}}
				for _, h := range a.Held {
					if guardOf(h.Lock, f) {
						u.guards[h.Lock] = h.Mode
					}
				}
				if byField[f] == nil {
					fields = append(fields, f)
				}
				byField[f] = append(byField[f], u)
			}
		}
		sort.Strings(fields)
		for _, f := range fields {
			check(pass, t, byField[f], reported)
		}
	}
	return nil, nil
}

// check reports the accesses of one field that lack the lock held at all
// the field's other accesses.
func check(pass *analysis.Pass, t *summary.Type, uses []use, reported map[string]bool) {
	for i, u := range uses {
		if !u.a.Pos.IsValid() {
			continue
		}
		// Candidate guards: held at every other access (in W mode at
		// writes), at least minGuarded of them, one being a write or u
		// being a write.
		var others []use
		for j, v := range uses {
			if j != i && v.a.Pos != u.a.Pos {
				others = append(others, v)
			}
		}
		if len(others) < minGuarded {
			continue
		}
		write := u.a.Write
		for _, v := range others {
			write = write || v.a.Write
		}
		if !write {
			continue // a field only read needs no lock
		}
		if guarded(u, others) {
			continue // a lock held everywhere, this access included
		}
		for lock := range others[0].guards {
			if !guardsAll(lock, others) {
				continue
			}
			mode, held := u.guards[lock]
			if held && (mode == summary.W || !u.a.Write) {
				continue
			}
			if !u.a.Write && acquires(u.m, lock) {
				// A method that takes the lock and reads outside it
				// usually does so on purpose (a value set once under
				// the lock, read after synchronising on it).
				continue
			}
			key := fmt.Sprint(u.a.Pos, u.field)
			if reported[key] {
				continue
			}
			reported[key] = true
			names := u.m.Params
			what, how := "read", "without"
			if u.a.Write {
				what = "written"
			}
			if held {
				how = "holding only a read lock on"
			}
			ex := others[0]
			for _, v := range others {
				if v.m != u.m {
					ex = v // prefer an access in another method
					break
				}
			}
			pass.Report(analysis.Diagnostic{
				Pos: u.a.Pos,
				Message: fmt.Sprintf("%s is %s%s in %s %s %s, which is held at its %d other accesses in %s's methods (e.g. %s in %s): data race",
					summary.Display(u.field, names), what, report.Via(u.a.Via), u.m.Name, how, summary.Display(lock, names),
					len(others), t.Obj.Name(), report.Short(ex.a.Where), ex.m.Name),
				Related: report.Related(ex.a.Pos, fmt.Sprintf("%s accessed with %s held", summary.Display(u.field, names), summary.Display(lock, names))),
			})
		}
	}
}

// guarded reports whether a lock held at u is held at all the others too.
func guarded(u use, others []use) bool {
	for lock, mode := range u.guards {
		if (mode == summary.W || !u.a.Write) && guardsAll(lock, others) {
			return true
		}
	}
	return false
}

// acquires reports whether m acquires lock (in its own goroutine).
func acquires(m *summary.Method, lock string) bool {
	for _, a := range m.Summary.Acquires {
		if a.Lock == lock && !a.Goroutine {
			return true
		}
	}
	return false
}

// guardsAll reports whether lock is held at all the uses (in W mode at
// writes).
func guardsAll(lock string, uses []use) bool {
	for _, v := range uses {
		mode, ok := v.guards[lock]
		if !ok || (v.a.Write && mode != summary.W) {
			return false
		}
	}
	return true
}

// guardOf reports whether lock can guard the receiver field f: a lock of
// the receiver itself (a field, possibly of an embedded struct, not behind
// a pointer), other than f.
func guardOf(lock, f string) bool {
	if summary.Root(lock) != "$0" || strings.Contains(lock, "->") {
		return false
	}
	return !summary.Compatible(lock, f)
}

// field returns the receiver field ("$0.f") a location lies in.
func field(loc string) (string, bool) {
	rest, ok := strings.CutPrefix(loc, "$0.")
	if !ok {
		return "", false
	}
	if i := strings.IndexAny(rest, ".[-"); i >= 0 {
		rest = rest[:i]
	}
	return "$0." + rest, true
}

// synchronized reports whether the field of st named by f ("$0.name") is
// itself a synchronisation primitive or a channel.
func synchronized(st *types.Struct, f string) bool {
	name := strings.TrimPrefix(f, "$0.")
	for i := 0; i < st.NumFields(); i++ {
		fld := st.Field(i)
		if fld.Name() != name {
			continue
		}
		t := fld.Type()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if _, ok := t.Underlying().(*types.Chan); ok {
			return true
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
			switch n.Obj().Pkg().Path() {
			case "sync", "sync/atomic":
				return true
			}
		}
	}
	return false
}
