package unguarded

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/internal/report"
	"github.com/depcon/depcon/analyzers/summary"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:     "unguarded",
	Doc:      analysisdoc.MustExtract(doc, "unguarded"),
	URL:      "https://pkg.go.dev/github.com/depcon/depcon/analyzers/unguarded",
	Requires: []*analysis.Analyzer{summary.Analyzer},
	Run:      run,
}

// notConcurrent reports whether the contract of the method m of a type
// (tp, nil when the type has no methods of its own) keeps it from running
// concurrently with the others, as depcon test reads it: a set-up method
// (deps.Method.SetUp), or one whose documentation forbids concurrent
// calls (deps.Method.Sequential).
func notConcurrent(tp *deps.TypePlan, m string) bool {
	if tp == nil {
		return false
	}
	mm := tp.Method(m)
	return mm != nil && (mm.SetUp != "" || mm.Sequential != "")
}

// minGuarded is the number of other accesses that must hold the guard
// before an access without it is reported.
const minGuarded = 2

// use is an access of a receiver field by an exported method.
type use struct {
	m      *summary.Method
	a      summary.Access
	field  string // "$0.f"
	guards map[string]lockstate.Mode
	quiet  bool // evidence of the guard, not reported (see report.Reach.Unreached)
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[summary.Analyzer].(*summary.Result)
	byName := map[string]*summary.Type{}
	for _, t := range res.Types {
		byName[t.Obj.Name()] = t
	}
	reported := reports{}
	docs := contract.NewPackageDocs(pass.Files)
	reach := report.NewReach(pass)
	for _, t := range entries(res) {
		if t.truncated(res) {
			// A summary cut at its size limit may have lost accesses,
			// acquisitions and releases: the guard inferred for any
			// field of the type may be wrong, and so may the set-up
			// methods. Nothing is said of the type's fields.
			continue
		}
		var tp *deps.TypePlan
		if st := byName[t.obj.Name()]; st != nil {
			tp = deps.Contract(st, docs)
		}
		if tp != nil && tp.NotShared != "" {
			// Not meant to be shared between goroutines (documented or
			// annotated so, or a handle: deps.TypePlan.NotShared, the
			// definition depcon test uses too): its accesses are the
			// single goroutine's.
			continue
		}
		// Set-up methods run before the object is shared, and methods
		// documented never to run concurrently run alone (the contract
		// depcon test reads too): what they write is not state the lock
		// guards against them. Nor is what test hooks write (methods of
		// the type declared in a test file, export_test.go): only tests
		// call them.
		class := lockstate.TypeClass(t.obj.Type())
		t.methods = slices.DeleteFunc(slices.Clone(t.methods), func(m *summary.Method) bool {
			return notConcurrent(tp, m.Name) || report.TestUse(pass, m.Func.Pos(), class)
		})
		// The accesses of methods out of the users' reach (of an
		// unexported type, called by tests only: report.Reach.Unreached) say
		// which lock guards a field, but are not reported.
		unreached := map[*summary.Method]bool{}
		for _, m := range t.methods {
			if f, ok := m.Func.Object().(*types.Func); ok && !t.started[m] && (reach.Unreached(f) ||
				promoted(m, t) && reach.UnreachedPromoted(t.obj.Type().(*types.Named), f)) {
				unreached[m] = true
			}
		}
		st, ok := t.obj.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		lay := structLayout(pass, t.obj)
		mixed(pass, t, reported, unreached)
		lazy := lazyInits(res, t.obj, t.methods)
		byField := map[string][]use{}
		var fields []string
		for _, m := range t.methods {
			for _, a := range m.Summary.Accesses {
				f, ok := part(a.Loc)
				fld, _ := field(a.Loc)
				if !ok || lazy[a.Pos] || handedOver(a.Loc) || a.Flags&(summary.Atomic|summary.SyncMap|summary.Chan|summary.Indirect|summary.Goroutine|summary.May|summary.LastRef) != 0 ||
					synchronized(st, fld) || token.IsExported(strings.TrimPrefix(fld, "$0.")) || ownLocked(a) {
					continue
				}
				u := use{m: m, a: a, field: f, guards: map[string]lockstate.Mode{}, quiet: unreached[m]}
				for _, h := range a.Held {
					if lay.guardOf(h.Lock, f) {
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
			uses := byField[f]
			if onceOnly(uses) {
				checkOnce(pass, t, uses, reported)
				continue
			}
			// Writes first: x++ is reported as a write.
			sort.SliceStable(uses, func(i, j int) bool { return uses[i].a.Write && !uses[j].a.Write })
			check(pass, res, t, uses, reported)
		}
		early(pass, t, st, reported, lay)
	}
	return nil, nil
}

// check reports the accesses of one field that lack the lock held at all
// the field's other accesses, or at all its accesses in the type's other
// methods (then once per method: a method that reads and writes the field
// without the lock, as x.f = append(x.f, v) does).
func check(pass *analysis.Pass, res *summary.Result, t *typeEntries, uses []use, reported reports) {
	if !slices.ContainsFunc(uses, func(u use) bool { return u.a.Write }) {
		return // a field only read needs no lock
	}
	inMethod := map[*summary.Method]bool{} // reported in the per-method form
	for i, u := range uses {
		if !u.a.Pos.IsValid() || u.quiet {
			continue
		}
		var others, outside []use
		for j, v := range uses {
			if j != i && v.a.Pos != u.a.Pos {
				others = append(others, v)
				if v.m != u.m {
					outside = append(outside, v)
				}
			}
		}
		// Candidate guards: held at every other access (in W mode at
		// writes), at least minGuarded of them; or else at every access
		// of the other methods.
		if promotedHere(u.m, t) {
			// The access is a method of an embedded type of the package,
			// analysed on its own: reported there, at its own place, not
			// once more for every type that embeds it.
			continue
		}
		lock, ev := guardOfAll(u, others)
		perMethod := false
		if lock == "" && len(outside) < len(others) && !inMethod[u.m] {
			lock, ev = guardOfAll(u, outside)
			perMethod = true
		}
		if lock == "" || heldMore(u, lock, uses) || handshake(res, u, ev) {
			continue
		}
		_, held := u.guards[lock]
		if !reported.add(u.a.Pos, u.field) {
			continue
		}
		if perMethod {
			inMethod[u.m] = true
		}
		what, how := "read", "without"
		if u.a.Write {
			what = "written"
		}
		if held {
			how = "holding only a read lock on"
		}
		ex := ev[0]
		for _, v := range ev {
			if v.m != u.m {
				ex = v // prefer an access in another method
				break
			}
		}
		names := u.m.NamesWith(ex.m) // one text about u.m and ex.m
		where := fmt.Sprintf("its %d other accesses in %s's methods", len(ev), t.obj.Name())
		if perMethod {
			where = fmt.Sprintf("its %d accesses in %s's other methods", len(ev), t.obj.Name())
		}
		pass.Report(analysis.Diagnostic{
			Pos: u.a.Pos,
			Message: fmt.Sprintf("%s is %s%s in %s %s %s, which is held at %s (e.g. %s in %s): data race",
				lockstate.Display(u.field, names), what, report.Via(u.a.Via), u.m.Name, how, lockstate.Display(lock, names),
				where, report.Short(ex.a.Where), ex.m.Name),
			Related: report.Related(ex.a.Pos, fmt.Sprintf("%s accessed with %s held", lockstate.Display(u.field, names), lockstate.Display(lock, names))),
		})
	}
}

// guardOfAll returns a lock that guards the field at all the accesses ev
// (at least minGuarded of them) but not at u, with ev; "" when there is
// none, or when u holds a lock that guards them all.
func guardOfAll(u use, ev []use) (string, []use) {
	if len(ev) < minGuarded || guarded(u, ev) {
		return "", nil
	}
	var locks []string
	for lock := range ev[0].guards {
		locks = append(locks, lock)
	}
	sort.Strings(locks)
	for _, lock := range locks {
		if !guardsAll(lock, ev) {
			continue
		}
		mode, held := u.guards[lock]
		if held && (mode == lockstate.W || !u.a.Write) {
			continue
		}
		if !held && !enough(ev) {
			continue
		}
		if !u.a.Write && acquires(u.m, lock) {
			// A method that takes the lock and reads outside it
			// usually does so on purpose (a value set once under
			// the lock, read after synchronising on it).
			continue
		}
		if mayAcquire(u.m, lock) {
			// The method locks the receiver's lock or another
			// object's (first, second := a, b in id order): the lock
			// may be held.
			continue
		}
		return lock, ev
	}
	return "", nil
}

// enough reports whether the accesses ev, which all hold a lock, are
// evidence that the lock guards the field: they are made by at least two
// methods, or one of them writes the field. A lock held only around the
// reads of one method may be that method's own serialisation (a "one
// call at a time" lock), not the field's guard. (An access made under
// that lock in read mode is evidence of its own: the lock is then taken
// by two methods.)
func enough(ev []use) bool {
	for _, v := range ev {
		if v.m != ev[0].m || v.a.Write {
			return true
		}
	}
	return false
}

// heldMore reports whether u holds, in the mode its access needs, a lock
// that is held at least as often as lock at the field's accesses: the
// field's guard is the lock most consistently held at them, and u holds
// it (a field guarded by mu, whose accesses in some methods also happen
// to hold another lock that serialises those methods).
func heldMore(u use, lock string, uses []use) bool {
	count := func(l string) int {
		n := 0
		for _, v := range uses {
			if mode, ok := v.guards[l]; ok && (mode == lockstate.W || !v.a.Write) {
				n++
			}
		}
		return n
	}
	n := count(lock)
	for l, mode := range u.guards {
		if l != lock && (mode == lockstate.W || !u.a.Write) && count(l) >= n {
			return true
		}
	}
	return false
}

// handedOver reports whether loc lies in an object that the receiver's
// field refers to through a reference held in another object's memory
// ("$0.pending->[*]->err": a field of an object stored in a map of the
// receiver, "$0.head->next->val"). Such objects are commonly handed over
// (taken out of the container under its lock, then used by the goroutine
// that took them), so their accesses are not evidence of how the field is
// guarded.
func handedOver(loc string) bool {
	return strings.Count(loc, "->") > 1
}

// reports records the reported sites: one diagnostic per access of a
// field.
type reports map[string]bool

// add records a report of field at pos, and tells whether it is new.
func (r reports) add(pos token.Pos, field string) bool {
	key := fmt.Sprint(pos, field)
	if r[key] {
		return false
	}
	r[key] = true
	return true
}

// guarded reports whether a lock held at u is held at all the others too.
func guarded(u use, others []use) bool {
	for lock, mode := range u.guards {
		if (mode == lockstate.W || !u.a.Write) && guardsAll(lock, others) {
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

// ownLocked reports whether a is an access of an object that a field
// refers to, made with a lock of that object held (recv.body->closed with
// recv.body->mu): the object synchronises its own state.
//
// The object may also be a struct value within the receiver that has its
// own mutex (recv.in.err with recv.in.Mutex, the mutex embedded in the
// field's struct): its lock synchronises its fields.
func ownLocked(a summary.Access) bool {
	for _, h := range a.Held {
		if i := strings.LastIndex(h.Lock, "->"); i >= 0 && strings.HasPrefix(a.Loc, h.Lock[:i+2]) {
			return true
		}
		if i := strings.LastIndexByte(h.Lock, '.'); i >= 0 {
			owner := h.Lock[:i]
			if owner != lockstate.Root(h.Lock) && len(a.Loc) > len(owner) && strings.HasPrefix(a.Loc, owner) &&
				(a.Loc[len(owner)] == '.' || a.Loc[len(owner)] == '[') && !lockstate.Compatible(a.Loc, h.Lock) {
				return true
			}
		}
	}
	return false
}

// mayAcquire reports whether m acquires lock through a value that may be
// another object too: one acquisition site locking several paths.
func mayAcquire(m *summary.Method, lock string) bool {
	for _, a := range m.Summary.Acquires {
		if a.Lock != lock || a.Goroutine {
			continue
		}
		for _, b := range m.Summary.Acquires {
			if b.Lock != lock && b.Class == a.Class && !b.Goroutine &&
				(a.Pos.IsValid() && b.Pos == a.Pos || a.Where != "" && b.Where == a.Where) {
				return true
			}
		}
	}
	return false
}

// guardsAll reports whether lock is held at all the uses (in W mode at
// writes).
func guardsAll(lock string, uses []use) bool {
	for _, v := range uses {
		mode, ok := v.guards[lock]
		if !ok || (v.a.Write && mode != lockstate.W) {
			return false
		}
	}
	return true
}

// guardOf reports whether lock can guard the receiver field f: a lock of
// the receiver itself (a field, possibly of an embedded struct, not behind
// a pointer, or the L of the sync.Cond a field points to), other than f,
// that the struct's declaration does not give to other fields
// (layout.otherPurpose).
func (l *layout) guardOf(lock, f string) bool {
	if lockstate.Root(lock) != "$0" {
		return false
	}
	if strings.Contains(lock, "->") {
		// The Locker the sync.Cond's L holds: "$0.cond->L->".
		cond, ok := strings.CutSuffix(strings.TrimPrefix(lock, "$0."), "->L->")
		return ok && l != nil && l.conds[cond] && !lockstate.Compatible(lock, f)
	}
	return !lockstate.Compatible(lock, f) && !l.otherPurpose(lock, f)
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

// part returns what an access of loc is judged as an access of: the
// receiver field it lies in ("$0.f"), or, for a location in an object
// that the field refers to, that object's field ("$0.f->g"). The
// accesses of one field of such an object are no evidence of how its
// other fields are guarded: the read half of a framer (fr->readBuf,
// its reader's alone) is not guarded by the lock held where the write
// half (fr->wbuf) is used. Elements (f->[*]) are the field's.
func part(loc string) (string, bool) {
	f, ok := field(loc)
	if !ok {
		return "", false
	}
	rest, ok := strings.CutPrefix(loc[len(f):], "->")
	if !ok || rest == "" || rest[0] == '[' {
		return f, true
	}
	if i := strings.IndexAny(rest, ".[-"); i >= 0 {
		rest = rest[:i]
	}
	return f + "->" + rest, true
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

// related returns the related information of a diagnostic, leaving out
// the sites outside this package.
func related(sites ...analysis.RelatedInformation) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for _, s := range sites {
		if s.Pos.IsValid() {
			out = append(out, s)
		}
	}
	return out
}

// truncated reports whether a method of the type has a summary cut at
// its size limit (or applying a callee's that was: see
// summary.Summary.Truncated): one of the methods the summary analyzer
// lists for the type (those whose plan deps.Method.Truncated marks), an
// entry point, or a method that early looks at.
func (t *typeEntries) truncated(res *summary.Result) bool {
	cut := func(s *summary.Summary) bool { return s != nil && s.Truncated }
	for _, st := range res.Types {
		if st.Obj != t.obj {
			continue
		}
		for _, m := range slices.Concat(st.Methods, st.Unexported) {
			if cut(m.Summary) {
				return true
			}
		}
	}
	for _, m := range t.methods {
		if cut(m.Summary) {
			return true
		}
	}
	for _, fn := range t.bodies() {
		if cut(res.Of(fn)) {
			return true
		}
	}
	return false
}

// promotedHere reports whether m is a method of t promoted from an
// embedded type declared in the same package (the wrapper the SSA form
// makes for it).
func promotedHere(m *summary.Method, t *typeEntries) bool {
	n := promotedFrom(m, t)
	return n != nil && n.Obj().Pkg() == t.obj.Pkg()
}

// promoted reports whether m is a method of t promoted from an embedded
// type.
func promoted(m *summary.Method, t *typeEntries) bool { return promotedFrom(m, t) != nil }

// promotedFrom returns the embedded type whose method m is promoted to
// t, or nil when m is t's own.
func promotedFrom(m *summary.Method, t *typeEntries) *types.Named {
	if m.Func == nil || m.Func.Synthetic == "" {
		return nil
	}
	fn, ok := m.Func.Object().(*types.Func)
	if !ok {
		return nil
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	rt := recv.Type()
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	n, ok := types.Unalias(rt).(*types.Named)
	if !ok || n.Origin().Obj() == t.obj {
		return nil
	}
	return n
}
