package unguarded

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/internal/report"
	"github.com/depcon/depcon/analyzers/summary"
)

// An entryAccess is an access made by an entry point.
type entryAccess struct {
	m *summary.Method
	a summary.Access
}

// mixed reports the plain accesses of a location of the receiver that
// other accesses make with sync/atomic: the atomic side takes no lock, so
// a plain access races with it unless both hold a common lock (in write
// mode on one side at least) or both only read. The methods out of the
// users' reach (unreached) make no access that races.
func mixed(pass *analysis.Pass, t *typeEntries, reported reports, unreached map[*summary.Method]bool) {
	if isLocker(t.obj.Type()) {
		return // a lock implementation: its atomics are its synchronisation
	}
	atomics := map[string][]entryAccess{}
	plains := map[string][]entryAccess{}
	var locs []string
	for _, m := range t.methods {
		if unreached[m] {
			continue // no user calls it: its accesses race with nothing
		}
		for _, a := range m.Summary.Accesses {
			if !strings.HasPrefix(a.Loc, "$0.") || a.Flags&(summary.SyncMap|summary.Chan|summary.Indirect|summary.May|summary.LastRef) != 0 {
				continue
			}
			switch {
			case a.Flags&summary.Atomic != 0:
				if atomics[a.Loc] == nil {
					locs = append(locs, a.Loc)
				}
				atomics[a.Loc] = append(atomics[a.Loc], entryAccess{m, a})
			case a.Flags&summary.Goroutine == 0 && a.Pos.IsValid():
				plains[a.Loc] = append(plains[a.Loc], entryAccess{m, a})
			}
		}
	}
	sort.Strings(locs)
	for _, loc := range locs {
		if len(plains[loc]) == 0 || !atomicOperand(locType(t.obj.Type(), loc)) || inLock(t.obj.Type(), loc) ||
			!declaredIn(t.obj.Type(), loc, t.obj.Pkg()) {
			continue
		}
		f, _ := field(loc)
		for _, p := range plains[loc] {
			at, ok := conflicting(p, atomics[loc])
			if !ok || promotedHere(p.m, t) || !reported.add(p.a.Pos, f) {
				continue
			}
			names := p.m.NamesWith(at.m) // one text about p.m and at.m
			what := "read"
			if p.a.Write {
				what = "written"
			}
			how := "read"
			if at.a.Write {
				how = "written"
			}
			locked := ""
			if len(p.a.Held) > 0 {
				locked = fmt.Sprintf(" (%s is held here, but not at the atomic access)", lockstate.Display(p.a.Held[0].Lock, names))
			}
			pass.Report(analysis.Diagnostic{
				Pos: p.a.Pos,
				Message: fmt.Sprintf("%s is %s%s in %s without sync/atomic, but %s atomically in %s (%s)%s: mixing atomic and plain accesses is a data race",
					lockstate.Display(loc, names), what, report.Via(p.a.Via), p.m.Name, how, at.m.Name, report.Short(at.a.Where), locked),
				Related: report.Related(at.a.Pos, fmt.Sprintf("%s %s atomically%s", lockstate.Display(loc, at.m.NamesWith(p.m)), how, report.Via(at.a.Via))),
			})
		}
	}
}

// isLocker reports whether *t declares Lock and Unlock methods (not
// promoted from an embedded mutex): the type is a lock, whose fields
// implement it.
func isLocker(t types.Type) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	for _, name := range []string{"Lock", "Unlock"} {
		sel := ms.Lookup(nil, name)
		if sel == nil || len(sel.Index()) != 1 {
			return false
		}
		sig, ok := sel.Type().(*types.Signature)
		if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 0 {
			return false
		}
	}
	return true
}

// inLock reports whether loc lies inside a field that is a lock (the
// state word of a mutex implemented with atomics): the lock's own
// package checks it.
func inLock(recv types.Type, loc string) bool {
	for i := len("$0") + 1; i < len(loc); i++ {
		switch loc[i] {
		case '.', '-', '[':
			t := locType(recv, loc[:i])
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if t != nil && isLocker(t) {
				return true
			}
		}
	}
	return false
}

// declaredIn reports whether the last field on the path loc belongs to a
// struct type declared in pkg: the accesses of another package's fields
// are reported in that package.
func declaredIn(recv types.Type, loc string, pkg *types.Package) bool {
	for {
		trimmed := strings.TrimSuffix(strings.TrimSuffix(loc, "[*]"), "->")
		if trimmed == loc {
			break
		}
		loc = trimmed
	}
	i := strings.LastIndexAny(loc, ".>")
	if i < len("$0") {
		return true
	}
	prefix := loc[:i]
	if loc[i] == '>' {
		prefix = loc[:i-1]
	}
	t := locType(recv, prefix)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg() == pkg
	}
	return true
}

// conflicting returns an atomic access that may run concurrently with the
// plain access p and conflict with it, preferring one in another method,
// and a write.
func conflicting(p entryAccess, atomics []entryAccess) (entryAccess, bool) {
	best, score := entryAccess{}, -1
	for _, a := range atomics {
		if !p.a.Write && !a.a.Write {
			continue // two reads
		}
		if a.a.Flags&summary.Goroutine != 0 && a.m == p.m {
			continue // a goroutine of the same call: it may be joined
		}
		if together(p.a.Held, a.a.Held) {
			continue // one critical section excludes the other
		}
		s := 0
		if a.m != p.m {
			s += 2
		}
		if a.a.Write {
			s++
		}
		if s > score {
			best, score = a, s
		}
	}
	return best, score >= 0
}

// together reports whether two accesses exclude each other by a lock held
// at both, in write mode at one of them at least.
func together(h1, h2 []summary.Held) bool {
	for _, a := range h1 {
		for _, b := range h2 {
			if a.Lock == b.Lock && (a.Mode == lockstate.W || b.Mode == lockstate.W) {
				return true
			}
		}
	}
	return false
}

// atomicOperand reports whether t is a type the functions of sync/atomic
// operate on (an integer, a pointer), and not a type of sync/atomic, whose
// values cannot be accessed plainly.
func atomicOperand(t types.Type) bool {
	if t == nil {
		return false
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		switch n.Obj().Pkg().Path() {
		case "sync", "sync/atomic":
			return false
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsInteger != 0 || u.Kind() == types.UnsafePointer
	case *types.Pointer:
		return true
	}
	return false
}

// locType returns the type of the location loc ("$0.a.b", "$0.p->x",
// "$0.s->[*]") of a receiver of named type recv, or nil.
func locType(recv types.Type, loc string) types.Type {
	rest, ok := strings.CutPrefix(loc, "$0")
	if !ok {
		return nil
	}
	t := recv
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, "->"):
			rest = rest[2:]
			if rest == "" || strings.HasPrefix(rest, "[*]") {
				continue // the element step of a slice or map follows
			}
			p, ok := t.Underlying().(*types.Pointer)
			if !ok {
				return nil
			}
			t = p.Elem()
			rest = "." + rest
		case strings.HasPrefix(rest, "[*]"):
			rest = rest[3:]
			switch u := t.Underlying().(type) {
			case *types.Array:
				t = u.Elem()
			case *types.Slice:
				t = u.Elem()
			case *types.Map:
				t = u.Elem()
			case *types.Pointer:
				a, ok := u.Elem().Underlying().(*types.Array)
				if !ok {
					return nil
				}
				t = a.Elem()
			default:
				return nil
			}
		case strings.HasPrefix(rest, "."):
			rest = rest[1:]
			name := rest
			if i := strings.IndexAny(rest, ".[-"); i >= 0 {
				name, rest = rest[:i], rest[i:]
			} else {
				rest = ""
			}
			st, ok := t.Underlying().(*types.Struct)
			if !ok {
				return nil
			}
			var ft types.Type
			for i := 0; i < st.NumFields(); i++ {
				if st.Field(i).Name() == name {
					ft = st.Field(i).Type()
					break
				}
			}
			if ft == nil {
				return nil
			}
			t = ft
		default:
			return nil
		}
	}
	return t
}
