package deps

import (
	_ "embed"
	"fmt"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/heldcalls"
	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/internal/lockrules"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:       "deps",
	Doc:        analysisdoc.MustExtract(doc, "deps"),
	URL:        "https://pkg.go.dev/github.com/depcon/depcon/analyzers/deps",
	Requires:   []*analysis.Analyzer{summary.Analyzer, heldcalls.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Plan](),
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[summary.Analyzer].(*summary.Result)
	held := pass.ResultOf[heldcalls.Analyzer].(*heldcalls.Result)
	plan := NewPlan(pass.Pkg.Path(), res.Types, Callbacks(pass.Fset, held.Events), InterfaceCalls(res),
		contract.NewPackageDocs(pass.Files))
	return plan, nil
}

// NewPlan returns the plan of a package from its types' summaries: the
// full view of every type with methods (All), and the exported view of
// the exported types with exported methods (Types). Extra holds, by
// function, the acquisitions its summary does not see (those of the
// callbacks it calls with a lock held: see Callbacks); calls, the
// accesses of its calls into interfaces its receiver's fields hold (see
// InterfaceCalls). Either is nil when the summaries resolved every call.
// Docs holds the doc comments of the package's interface methods, which
// the methods that implement them follow when they have none.
func NewPlan(path string, types []*summary.Type, extra map[*ssa.Function][]summary.Acquire,
	calls map[*ssa.Function][]summary.Access, docs contract.PackageDocs) *Plan {
	plan := &Plan{Package: path}
	for _, t := range types {
		tp := planType(t, extra, calls, docs)
		plan.All = append(plan.All, tp)
	}
	plan.Types = exportedView(plan.All)
	return plan
}

// method is a method with its summaries restricted to the
// shared locations of the type under test, normalized so that methods
// can be compared: the receiver and the parameters of the type itself
// become "T" (exception mode passes the shared object for them), globals
// stay, other parameters are dropped.
type method struct {
	m        *summary.Method
	accesses []access
	ls       map[string]lockstate.Mode // LS(m), normalized lock → strongest mode
	ds       []lockPair
	rwr      []summary.Acquire // recursive read acquisitions (lockrules.RecursiveRead)
	self     []summary.Acquire // re-acquisitions of a held lock (lockrules.Reacquire)
	// shown and shownWrites count the accesses that AS(m) shows: the
	// reads of a location that no method writes are left out.
	shown, shownWrites int
	// doc is the method's documentation (funcDoc).
	doc string
	// compounds memoises compound, by location.
	compounds map[string]bool
}

type access struct {
	loc  string // normalized
	a    summary.Access
	held []guard // the locks held at the access that may protect it
	// call is set for the access of a call into an interface that a
	// field holds (InterfaceCalls): it makes pairs dependent, but the
	// contract (set-up methods) is decided without it, as vet decides
	// it.
	call bool
}

type lockPair struct {
	a, b summary.Held // held, then acquired (as Held for uniformity)
	acq  summary.Acquire
	edge lockrules.Edge // the order, for lockrules.Cycle
	// sameObject is set when both locks may be in one shared object:
	// they hang off the same root and are different fields (the same
	// field twice, as recv.mu and recv.kids[*].mu, is two objects).
	sameObject bool
}

// PlanType computes the full view of the plan of one type from the
// summaries of its methods, exported and unexported (see
// TypePlan.ExportedOnly for the exported view).
func PlanType(t *summary.Type, extra map[*ssa.Function][]summary.Acquire) *TypePlan {
	return planType(t, extra, nil, contract.PackageDocs{})
}

// planType is PlanType with the accesses of calls into interfaces (see
// NewPlan).
func planType(t *summary.Type, extra map[*ssa.Function][]summary.Acquire, calls map[*ssa.Function][]summary.Access,
	docs contract.PackageDocs) *TypePlan {
	tp, ms := typeContract(t, extra, calls, docs)
	n := len(ms)
	tp.PairsTotal = n * (n + 1) / 2
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			p := pairOf(ms[i], ms[j])
			if p == nil || tp.OwnGoroutines && (i == j || !ms[i].startsGoroutine() && !ms[j].startsGoroutine()) {
				// A type concurrent only through its own goroutines:
				// its callers need not overlap, the goroutine does,
				// with the calls of other methods that follow.
				continue
			}
			if p.Has(DepPC) {
				tp.PairsPC++
			}
			if p.Has(DepD) || p.Has(DepRWR) || p.Has(DepSelf) {
				tp.PairsD++
			}
			tp.Pairs = append(tp.Pairs, *p)
		}
	}
	tp.ignore(t.Doc)
	if contract.Safe(t.Doc) != "" {
		// Documented as safe for concurrent use: the contract answers.
		for i := range tp.Pairs {
			tp.Pairs[i].Question = ""
		}
	}
	return tp
}

// Contract returns the type's contract as PlanType computes it, without
// the dependent pairs: whether the type is meant to be shared (Concurrent,
// NotShared) and, per method, whether it is a set-up method, documented
// to run alone, or unsynchronised. unguarded reads it, so that vet and
// depcon test decide these by one definition; docs is as for NewPlan.
func Contract(t *summary.Type, docs contract.PackageDocs) *TypePlan {
	tp, _ := typeContract(t, nil, nil, docs)
	return tp
}

// typeContract computes the type's contract (see Contract) and the methods'
// normalized summaries, from which PlanType derives the pairs; extra is
// as for PlanType.
func typeContract(t *summary.Type, extra map[*ssa.Function][]summary.Acquire, calls map[*ssa.Function][]summary.Access,
	docs contract.PackageDocs) (*TypePlan, []*method) {
	self := lockstate.TypeClass(t.Obj.Type())
	tp := &TypePlan{Name: t.Obj.Name(), Exported: t.Obj.Exported(), Omitted: t.Omitted, LockOffFields: docs.LockOffFields()}
	recv := summary.RecvName(t.Obj.Type())
	tp.ConcurrentWhy, tp.NotShared = concurrentWhy(t, self, recv), notShared(t)
	if tp.NotShared != "" {
		tp.ConcurrentWhy = ""
	}
	if tp.ConcurrentWhy == "" && tp.NotShared == "" {
		tp.ConcurrentWhy = sharedWithGoroutine(t, self, recv)
		tp.OwnGoroutines = tp.ConcurrentWhy != ""
	}
	tp.Concurrent = tp.ConcurrentWhy != ""
	all := append(append([]*summary.Method(nil), t.Methods...), t.Unexported...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	written := writtenBy(all, self)
	var ms []*method
	for _, m := range all {
		mm := newMethod(m, self, written, extra[m.Func], calls[m.Func])
		if fn := m.Func; fn != nil && fn.Synthetic == "" {
			mm.doc = funcDoc(fn, docs)
		}
		ms = append(ms, mm)
		reads, writes := mm.locations()
		tp.Methods = append(tp.Methods, Method{Name: m.Name, Exported: m.Exported, Truncated: m.Summary.Truncated,
			Pos:   m.Func.Prog.Fset.Position(m.Func.Pos()).String(),
			Locks: lockList(mm.ls, recv), Accesses: mm.shown, Writes: mm.shownWrites, CallsOut: m.CallsOut,
			ReadLocs: reads, WriteLocs: writes})
	}
	var fns []*ssa.Function
	for _, mm := range ms {
		fns = append(fns, mm.m.Func)
	}
	gates := lockGates(t.Obj.Type(), fns)
	for i, mm := range ms {
		if tp.Methods[i].LockOff = lockOff(mm, gates); tp.Methods[i].LockOff == "" {
			tp.Methods[i].SetUp = setUp(mm, ms)
		}
		tp.Methods[i].Unsynchronised = mm.unsynchronised()
		tp.Methods[i].GivesUp = givesUp(mm.m.Func)
		if fn := mm.m.Func; fn != nil && fn.Synthetic == "" {
			tp.Methods[i].Sequential = contract.Sequential(mm.doc)
		}
	}
	return tp, ms
}

// startsGoroutine reports whether the method accesses the object from a
// goroutine it starts.
func (m *method) startsGoroutine() bool {
	return slices.ContainsFunc(m.accesses, func(a access) bool { return a.a.Flags&summary.Goroutine != 0 })
}

func newMethod(m *summary.Method, self string, written func(loc string) bool, extra []summary.Acquire,
	calls []summary.Access) *method {
	mm := &method{m: m, ls: map[string]lockstate.Mode{}}
	norm := func(loc string) (string, bool) { return normalize(m, self, loc) }
	// LS(m): the locks held, under one acquisition and never released in
	// between, at every shared access.
	type site struct {
		lock string
		site int32
	}
	var common map[site]lockstate.Mode
	own0 := len(m.Summary.Accesses)
	for i, a := range append(slices.Clip(m.Summary.Accesses), calls...) {
		loc, ok := norm(a.Loc)
		if !ok || !own(self, loc) {
			continue
		}
		mm.accesses = append(mm.accesses, access{loc: loc, a: a, call: i >= own0})
		if !a.Write && !written(loc) {
			continue
		}
		mm.shown++
		if a.Write {
			mm.shownWrites++
		}
		here := map[site]lockstate.Mode{}
		for _, h := range a.Held {
			if l, ok := norm(h.Lock); ok && !h.Broken {
				here[site{l, h.Site}] = h.Mode
			}
		}
		if common == nil {
			common = here
			continue
		}
		for k := range common {
			if _, ok := here[k]; !ok {
				delete(common, k)
			}
		}
	}
	mm.guards(self)
	for k, mode := range common {
		if old, ok := mm.ls[k.lock]; !ok || (old == lockstate.R && mode == lockstate.W) {
			mm.ls[k.lock] = mode
		}
	}
	// DS(m), RWR and self re-acquisitions, as the diagnostics classify
	// them (lockrules). The re-acquisitions of a lock the method holds
	// itself come first: the evidence then names the site that
	// selfdeadlock and rwrdeadlock report.
	var rwrVia, selfVia []summary.Acquire
	for _, acq := range append(slices.Clip(m.Summary.Acquires), extra...) {
		for _, h := range acq.Held {
			switch lockrules.Classify(h.Lock, h.Mode, acq.Lock, acq.Mode) {
			case lockrules.RecursiveRead:
				if h.Via == "" {
					mm.rwr = append(mm.rwr, acq)
				} else {
					rwrVia = append(rwrVia, acq)
				}
			case lockrules.Reacquire:
				if h.Via == "" {
					mm.self = append(mm.self, acq)
				} else {
					selfVia = append(selfVia, acq)
				}
			default:
				mm.ds = append(mm.ds, lockPair{a: h, b: summary.Held{Lock: acq.Lock, Class: acq.Class, Mode: acq.Mode},
					acq: acq, edge: lockrules.NewEdge(acq.Held, h, acq),
					sameObject: lockstate.Root(h.Lock) == lockstate.Root(acq.Lock) && h.Class != acq.Class})
			}
		}
	}
	mm.rwr = append(mm.rwr, rwrVia...)
	mm.self = append(mm.self, selfVia...)
	return mm
}

// locations returns the shared locations of the type that m reads and
// writes, normalized (see normalize), each once, in order.
func (m *method) locations() (reads, writes []string) {
	for _, a := range m.accesses {
		list := &reads
		if a.a.Write {
			list = &writes
		}
		if !slices.Contains(*list, a.loc) {
			*list = append(*list, a.loc)
		}
	}
	slices.Sort(reads)
	slices.Sort(writes)
	return reads, writes
}

// lockList renders LS(m), its normalized locks, as text about the type:
// the receiver named recv (summary.RecvName).
func lockList(ls map[string]lockstate.Mode, recv string) []string {
	var out []string
	for l, m := range ls {
		out = append(out, typeDisplay(l, recv)+"("+m.String()+")")
	}
	sort.Strings(out)
	return out
}

// pairOf returns the dependent pair {m1, m2}, or nil.
func pairOf(m1, m2 *method) *Pair {
	p := &Pair{M1: m1.m.Name, M2: m2.m.Name}
	question := false
	if evs, q := conflict(m1, m2); len(evs) > 0 {
		p.Deps = append(p.Deps, DepPC)
		p.Evidence = append(p.Evidence, evs...)
		question = q
	}
	if ev, two, ok := doubleLock(m1, m2); ok {
		p.Deps = append(p.Deps, DepD)
		p.Evidence = append(p.Evidence, ev)
		p.TwoObjects = two
	}
	if ev, ok := rwr(m1, m2); ok {
		p.Deps = append(p.Deps, DepRWR)
		p.Evidence = append(p.Evidence, ev)
	} else if ev, ok := rwr(m2, m1); ok {
		p.Deps = append(p.Deps, DepRWR)
		p.Evidence = append(p.Evidence, ev)
	}
	if m1 == m2 && len(m1.self) > 0 {
		a := m1.self[0]
		p.Deps = append(p.Deps, DepSelf)
		p.Evidence = append(p.Evidence, Evidence{Kind: DepSelf, Loc1: display(m1, a.Lock), Pos1: a.Where,
			Text: fmt.Sprintf("%s acquires %s while already holding it (%s)", m1.m.Name, display(m1, a.Lock), short(a.Where))})
	}
	if cut := truncated(m1, m2); cut != nil && !p.Has(DepPC) {
		// Completeness first: what the summary lost may conflict. A
		// pair dependent by its locks only (d, rwr, self) is parallel
		// and conflict dependent as well, so that depcon test also
		// runs it for the conflicts (exception mode).
		p.Deps = append([]string{DepPC}, p.Deps...)
		p.Evidence = append([]Evidence{{Kind: DepPC, Text: fmt.Sprintf("the summary of %s was cut at its size "+
			"limit: what it lost may conflict with %s", cut.m.Name, other(cut, m1, m2).m.Name)}}, p.Evidence...)
	}
	if len(p.Deps) == 0 {
		return nil
	}
	if question && len(p.Deps) == 1 && truncated(m1, m2) == nil && (m1.unsynchronised() || m2.unsynchronised()) {
		// (Not of a cut summary: what it lost may order the accesses.)
		p.Question = fmt.Sprintf("may %s be called while %s runs?", m1.m.Name, m2.m.Name)
	}
	return p
}

// doubleLock reports whether m1 ⇒D m2: ⟨la,lb⟩ ∈ DS(m1), ⟨lc,ld⟩ ∈ DS(m2)
// with la ≐ ld and lb ≐ lc, compatibility being the lock's class (the same
// field of the same type, whatever the object), and the two orders can
// block each other by lockorder's rule (lockrules.Cycle: not where both
// waits are on read locks, not under a common gate lock).
func doubleLock(m1, m2 *method) (ev Evidence, two, ok bool) {
	for _, p := range m1.ds {
		for _, q := range m2.ds {
			if !lockrules.Cycle([]lockrules.Edge{p.edge, q.edge}) {
				continue
			}
			two := !p.sameObject || !q.sameObject
			d1, d2 := pairDisplay(m1, m2), pairDisplay(m2, m1)
			return Evidence{Kind: DepD,
				Loc1: d1(p.a.Lock) + " -> " + d1(p.b.Lock),
				Loc2: d2(q.a.Lock) + " -> " + d2(q.b.Lock),
				Pos1: p.acq.Where, Pos2: q.acq.Where,
				Text: fmt.Sprintf("%s locks %s then %s (%s), %s locks %s then %s (%s)",
					m1.m.Name, d1(p.a.Lock), d1(p.b.Lock), short(p.acq.Where),
					m2.m.Name, d2(q.a.Lock), d2(q.b.Lock), short(q.acq.Where))}, two, true
		}
	}
	return Evidence{}, false, false
}

// rwr reports whether m1 re-acquires a read lock that m2 acquires for
// writing: with a writer waiting in between, the second RLock blocks.
func rwr(m1, m2 *method) (Evidence, bool) {
	for _, a := range m1.rwr {
		i := slices.IndexFunc(m2.m.Summary.Acquires, func(b summary.Acquire) bool { return lockrules.Writer(b.Class, b.Mode, a.Class) })
		if i < 0 {
			continue
		}
		w := m2.m.Summary.Acquires[i]
		d1, d2 := pairDisplay(m1, m2), pairDisplay(m2, m1)
		return Evidence{Kind: DepRWR, Loc1: d1(a.Lock), Loc2: d2(w.Lock), Pos1: a.Where, Pos2: w.Where,
			Text: fmt.Sprintf("%s read-locks %s again while holding it (%s), %s write-locks it (%s)",
				m1.m.Name, d1(a.Lock), short(a.Where), m2.m.Name, short(w.Where))}, true
	}
	return Evidence{}, false
}

// display renders a location of m for text about m alone: its roots as
// m's declaration names them.
func display(m *method, loc string) string { return lockstate.Display(loc, m.m.Params) }

// pairDisplay renders the locations of m for text about the pair of m and
// other: the receiver as the type's text names it when the two methods
// name theirs differently (summary.PairNames).
func pairDisplay(m, other *method) func(loc string) string {
	names := m.m.NamesWith(other.m)
	return func(loc string) string { return lockstate.Display(loc, names) }
}

// typeDisplay renders a normalized location ("T.mu", see normalize) for
// text about the type: "T" as its receiver, named recv
// (summary.RecvName).
func typeDisplay(loc, recv string) string {
	if rest, ok := strings.CutPrefix(loc, "T"); ok {
		loc = "$0" + rest
	}
	return lockstate.Display(loc, []string{recv})
}

// short returns "file.go:12:3" for a full position.
func short(where string) string {
	if where == "" {
		return "?"
	}
	return filepath.Base(where)
}

// unsynchronised reports whether m takes no lock and makes no
// synchronised operation (atomic, channel, sync.Map) at all: a method
// that does not try to synchronise, as a set-up or configuration method
// does not, unlike one that locks for some of its state and forgets some
// other (a counter incremented after the unlock), which is a bug. A
// method whose summary was cut is not: it may have lost its locks. The
// locks and operations on another package's package-level variables
// (log's output lock under a log.Printf) synchronise that package's
// state, not the object's.
func (m *method) unsynchronised() bool {
	if m.m.Summary.Truncated {
		return false
	}
	for _, a := range m.m.Summary.Acquires {
		if !m.foreignGlobal(a.Lock) {
			return false
		}
	}
	for _, a := range m.m.Summary.Accesses {
		if a.Flags.Synchronized() && !m.foreignGlobal(a.Loc) {
			return false
		}
	}
	return true
}

// foreignGlobal reports whether loc is rooted at a package-level
// variable of another package than m's.
func (m *method) foreignGlobal(loc string) bool {
	pkg := lockstate.GlobalPkg(loc)
	return pkg != "" && m.m.Func != nil && m.m.Func.Pkg != nil && pkg != m.m.Func.Pkg.Pkg.Path()
}

// truncated returns the method of the pair m1, m2 whose summary was cut
// at its size limit (or applies a callee's that was: see
// summary.Summary.Truncated), m1 first; nil when both are whole.
func truncated(m1, m2 *method) *method {
	switch {
	case m1.m.Summary.Truncated:
		return m1
	case m2.m.Summary.Truncated:
		return m2
	}
	return nil
}

// other returns the method of the pair m1, m2 that is not m (m itself
// for a self pair).
func other(m, m1, m2 *method) *method {
	if m == m1 {
		return m2
	}
	return m1
}

// Callbacks returns, by method, the acquisitions that the calls it makes
// with a lock held through function values, interfaces and recursion
// make (heldcalls' events), as acquisitions of its own at the call: the
// re-entries and orders that selfdeadlock, rwrdeadlock and lockorder
// trust (Event.Reentry, Event.Order, by the lockrules class of the two
// locks) whose lock is named in the method's frame. A deadlock
// found through a callback is then a pair of the plan, and tested.
func Callbacks(fset *token.FileSet, events []heldcalls.Event) map[*ssa.Function][]summary.Acquire {
	out := map[*ssa.Function][]summary.Acquire{}
	for _, ev := range events {
		if ev.Fn == nil || ev.Fn.Parent() != nil || ev.Acq.Lock == "" || !ev.Pos.IsValid() {
			continue
		}
		h := ev.Held
		switch lockrules.Classify(h.Lock, h.Mode, ev.Acq.Lock, ev.Acq.Mode) {
		case lockrules.Reacquire, lockrules.RecursiveRead:
			if !ev.Reentry() {
				continue
			}
		default:
			if !ev.Order() {
				continue
			}
		}
		via := ev.Acq.Via
		if via == "" && ev.Target != nil {
			via = ev.Target.Name()
		}
		out[ev.Fn] = append(out[ev.Fn], summary.Acquire{Lock: ev.Acq.Lock, Class: ev.Acq.Class, Mode: ev.Acq.Mode,
			Held: []summary.Held{{Lock: h.Lock, Class: h.Class, Mode: h.Mode, Pos: h.Pos, Where: h.Where}},
			Pos:  ev.Pos, Where: fset.Position(ev.Pos).String(), Via: via + ", " + ev.How()})
	}
	return out
}
