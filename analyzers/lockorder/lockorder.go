package lockorder

import (
	_ "embed"
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/heldcalls"
	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/internal/lockrules"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/internal/report"
	"github.com/depcon/depcon/analyzers/summary"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:      "lockorder",
	Doc:       analysisdoc.MustExtract(doc, "lockorder"),
	URL:       "https://pkg.go.dev/github.com/depcon/depcon/analyzers/lockorder",
	Requires:  []*analysis.Analyzer{summary.Analyzer, heldcalls.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{new(Edges)},
}

// Edges is the package fact listing the lock orders a package
// establishes: lock class To acquired while holding lock class From.
type Edges struct {
	Edges []Edge
}

// An Edge is one lock order, with the site where it is established.
type Edge struct {
	From, To string // lock classes: "pkg.Type.field"
	// FromW and ToW report whether From is held, and To acquired, in
	// write mode: two read locks do not block each other.
	FromW, ToW bool
	Where      string // the acquisition of To
	Func       string // the function holding From
	// Gates are the other locks held (in write mode) at the
	// acquisition: orders that all hold one of them are serialised.
	Gates []string `json:",omitempty"`
}

func (*Edges) AFact() {}

func (e *Edges) String() string {
	var s []string
	for _, x := range e.Edges {
		s = append(s, short(x.From)+" -> "+short(x.To))
	}
	return strings.Join(s, "; ")
}

// site is a local edge with what is needed to report it.
type site struct {
	Edge
	f        report.Func
	held     summary.Held
	acq      summary.Acquire
	pos      token.Pos
	heldName string
	acqName  string
	via      string
	target   *ssa.Function // the callback, for an order through one
}

// render names the site's locks with names for the roots of its
// function (report.Func.Names): a lock reached through a call's result,
// or with no path, by its class.
func (s *site) render(names []string) (held, acq string) {
	held, acq = short(s.held.Class), short(s.acq.Class)
	if !strings.HasPrefix(s.held.Lock, "?") {
		held = lockstate.Display(s.held.Lock, names)
	}
	if s.acq.Lock != "" {
		acq = lockstate.Display(s.acq.Lock, names)
	}
	return held, acq
}

// maxCycle bounds the length of the cycles searched.
const maxCycle = 5

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[summary.Analyzer].(*summary.Result)
	var sites []site
	seen := map[[2]string]bool{}
	all := &orders{res: res, every: map[[2]string][]site{}, imported: map[[2]string]bool{}}
	add := func(s site) {
		if report.TestUse(pass, outer(s.f.Fn).Pos(), s.held.Class, s.acq.Class) {
			return // a test driving the package's own types
		}
		all.add(s)
		key := [2]string{s.From, s.To}
		if !seen[key] {
			seen[key] = true
			sites = append(sites, s)
		}
	}
	for _, f := range report.Funcs(pass) {
		var same []site // same class, different objects
		for _, a := range f.Summary.Acquires {
			if !a.Pos.IsValid() {
				continue
			}
			for _, h := range a.Held {
				if h.Via != "" || lockrules.Classify(h.Lock, h.Mode, a.Lock, a.Mode) != lockrules.Order {
					continue
				}
				s := site{Edge: newEdge(lockrules.NewEdge(a.Held, h, a), a.Where, f.Fn.Name()),
					f: f, held: h, acq: a, pos: a.Pos, heldName: f.Name(h.Lock), acqName: f.Name(a.Lock), via: report.Via(a.Via)}
				if h.Class == a.Class {
					same = append(same, s)
					continue
				}
				add(s)
			}
		}
		reportArgumentOrder(pass, f, same)
	}
	// Closures: their own orders (a closure called in place or passed to
	// a helper is applied to its caller's summary with its locks marked
	// as the closure's).
	for _, fn := range res.SSA.SrcFuncs {
		if fn.Parent() == nil || res.Of(fn) == nil {
			continue
		}
		f := report.Func{Fn: fn, Summary: res.Of(fn), Names: summary.ParamNames(fn)}
		for _, a := range f.Summary.Acquires {
			if !a.Pos.IsValid() {
				continue
			}
			for _, h := range a.Held {
				if h.Via != "" || h.Class == a.Class || lockrules.Classify(h.Lock, h.Mode, a.Lock, a.Mode) != lockrules.Order {
					continue
				}
				add(site{Edge: newEdge(lockrules.NewEdge(a.Held, h, a), a.Where, outer(fn).Name()),
					f: f, held: h, acq: a, pos: a.Pos, heldName: f.Name(h.Lock), acqName: f.Name(a.Lock), via: report.Via(a.Via)})
			}
		}
	}
	// Orders established through callbacks and interface methods called
	// with a lock held.
	for _, ev := range pass.ResultOf[heldcalls.Analyzer].(*heldcalls.Result).Events {
		if !ev.Order() {
			continue
		}
		f := report.Func{Fn: ev.Fn, Names: summary.ParamNames(ev.Fn)}
		acqName := short(ev.Acq.Class)
		if ev.Acq.Lock != "" {
			acqName = f.Name(ev.Acq.Lock)
		}
		where := ""
		if ev.Pos.IsValid() {
			where = pass.Fset.Position(ev.Pos).String()
		}
		h := summary.Held{Lock: ev.Held.Lock, Class: ev.Held.Class, Mode: ev.Held.Mode, Pos: ev.Held.Pos, Where: ev.Held.Where}
		heldName := f.Name(ev.Held.Lock)
		if strings.HasPrefix(ev.Held.Lock, "?") {
			heldName = short(ev.Held.Class) // a lock reached through a call's result
		}
		add(site{Edge: Edge{From: ev.Held.Class, To: ev.Acq.Class, FromW: ev.Held.Mode == lockstate.W, ToW: ev.Acq.Mode == lockstate.W,
			Where: where, Func: outer(ev.Fn).Name()},
			f: f, held: h, acq: ev.Acq, pos: ev.Pos, heldName: heldName, acqName: acqName,
			via: via(ev), target: ev.Target})
	}
	reportCycles(pass, sites, all)
	if len(sites) > 0 {
		fact := &Edges{}
		for _, s := range sites {
			fact.Edges = append(fact.Edges, s.Edge)
		}
		sort.Slice(fact.Edges, func(i, j int) bool {
			a, b := fact.Edges[i], fact.Edges[j]
			return a.From+" "+a.To < b.From+" "+b.To
		})
		pass.ExportPackageFact(fact)
	}
	return nil, nil
}

// via renders how an order through heldcalls is established.
func via(ev heldcalls.Event) string {
	if ev.Unnamed {
		return report.Via(ev.Acq.Via)
	}
	return " (in " + ev.Acq.Via + ", called through " + callKind(ev) + ")"
}

func callKind(ev heldcalls.Event) string {
	if ev.Target.Signature.Recv() != nil && ev.Target.Synthetic == "" {
		return "an interface or a method value"
	}
	return "a function value"
}

// outer returns the function a closure is declared in.
func outer(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// newEdge returns the fact's edge for an order, established at where in
// function fn.
func newEdge(e lockrules.Edge, where, fn string) Edge {
	return Edge{From: e.From, To: e.To, FromW: e.FromW, ToW: e.ToW, Where: where, Func: fn, Gates: e.Gates}
}

// rule returns the order of an edge, for lockrules.
func (e Edge) rule() lockrules.Edge {
	return lockrules.Edge{From: e.From, To: e.To, FromW: e.FromW, ToW: e.ToW, Gates: e.Gates}
}

// A node of the order graph: an edge, local or from another package.
type node struct {
	Edge
	local *site
	pkg   string // the package of an imported edge
}

// reportCycles reports each cycle of the lock-order graph that goes
// through an order of this package once, at the latest of its local
// acquisitions, with the other orders as related information.
func reportCycles(pass *analysis.Pass, sites []site, all *orders) {
	adj := map[string][]*node{}
	keys := map[[2]string]bool{}
	for i := range sites {
		s := &sites[i]
		keys[[2]string{s.From, s.To}] = true
		adj[s.From] = append(adj[s.From], &node{Edge: s.Edge, local: s})
	}
	for _, pf := range pass.AllPackageFacts() {
		if pf.Package == pass.Pkg {
			continue
		}
		for _, e := range pf.Fact.(*Edges).Edges {
			key := [2]string{e.From, e.To}
			all.imported[key] = true
			if keys[key] {
				continue
			}
			keys[key] = true
			adj[e.From] = append(adj[e.From], &node{Edge: e, pkg: pf.Package.Name()})
		}
	}
	reported := map[string]bool{}
	for i := range sites {
		start := &node{Edge: sites[i].Edge, local: &sites[i]}
		// Simple paths from start.To back to start.From.
		var path []*node
		onPath := map[string]bool{start.From: true}
		var dfs func(at string)
		dfs = func(at string) {
			if len(path) >= maxCycle-1 {
				return
			}
			for _, n := range adj[at] {
				if n.To == start.From {
					cycle := append([]*node{start}, append(slices.Clone(path), n)...)
					check(pass, cycle, reported, keys, all)
					continue
				}
				if onPath[n.To] {
					continue
				}
				onPath[n.To] = true
				path = append(path, n)
				dfs(n.To)
				path = path[:len(path)-1]
				delete(onPath, n.To)
			}
		}
		onPath[start.To] = true
		dfs(start.To)
	}
}

// check reports a cycle of orders e0 → e1 → … → e0, unless it was
// reported already, has a chord, cannot block, or is serialised by a gate
// lock.
func check(pass *analysis.Pass, cycle []*node, reported map[string]bool, keys map[[2]string]bool, all *orders) {
	// A cycle with a chord contains a shorter cycle, reported on its
	// own: report the chordless ones only.
	for i, n := range cycle {
		for j, m := range cycle {
			if j != i && j != (i+1)%len(cycle) && keys[[2]string{n.From, m.From}] {
				return
			}
		}
	}
	var ks []string
	for _, n := range cycle {
		ks = append(ks, n.From+">"+n.To)
	}
	sort.Strings(ks)
	key := strings.Join(ks, " ")
	if reported[key] {
		return
	}
	reported[key] = true
	// Whether the cycle can block is lockrules' decision, which the
	// plans (deps) share.
	var edges []lockrules.Edge
	for _, n := range cycle {
		edges = append(edges, n.rule())
	}
	if !lockrules.Cycle(edges) || len(cycle) == 2 && all.apart(cycle[0], cycle[1]) {
		return
	}
	// Report at the latest local acquisition.
	at := -1
	for i, n := range cycle {
		if n.local != nil && (at < 0 || n.local.pos > cycle[at].local.pos) {
			at = i
		}
	}
	s := cycle[at].local
	var others []*node
	for i := 1; i < len(cycle); i++ {
		others = append(others, cycle[(at+i)%len(cycle)])
	}
	var related []analysis.RelatedInformation
	for _, n := range others {
		if n.local != nil {
			held, acq := cycleNames(n.local, cycle)
			related = append(related, report.Related(n.local.pos, fmt.Sprintf("%s locks %s%s while holding %s", n.local.Func, acq, n.local.via, held))...)
		}
	}
	held, acq := cycleNames(s, cycle)
	var msg string
	if len(cycle) == 2 {
		r := others[0]
		if r.local != nil {
			msg = fmt.Sprintf("lock order inversion: %s locks %s%s while holding %s, but %s (at %s) locks them in the opposite order: concurrent calls can deadlock",
				s.Func, acq, s.via, held, r.Func, report.Short(r.Where))
		} else {
			msg = fmt.Sprintf("lock order inversion: %s locks %s%s while holding %s, but %s.%s (at %s) locks %s while holding %s: concurrent calls can deadlock",
				s.Func, acq, s.via, held, r.pkg, r.Func, report.Short(r.Where), short(r.To), short(r.From))
		}
	} else {
		var parts []string
		for _, n := range others {
			name := n.Func
			if n.local == nil {
				name = n.pkg + "." + n.Func
			}
			parts = append(parts, fmt.Sprintf("%s (at %s) locks %s while holding %s", name, report.Short(n.Where), short(n.To), short(n.From)))
		}
		msg = fmt.Sprintf("lock order cycle of %d locks: %s locks %s%s while holding %s, %s: concurrent calls can deadlock",
			len(cycle), s.Func, acq, s.via, held, strings.Join(parts, ", "))
	}
	pass.Report(analysis.Diagnostic{Pos: s.pos, Message: msg, Related: related})
}

// cycleNames names the locks of s, a local order of cycle, in the one
// diagnostic about the cycle: with its function's names, but for a
// receiver that another method of the cycle, of the same type, names
// differently, which is named as in text about the type
// (summary.PairNames).
func cycleNames(s *site, cycle []*node) (held, acq string) {
	for _, n := range cycle {
		if n.local == nil || n.local.f.Fn == s.f.Fn {
			continue
		}
		if names := summary.PairNames(s.f.Fn, n.local.f.Fn); len(names) > 0 && len(s.f.Names) > 0 && names[0] != s.f.Names[0] {
			return s.render(names)
		}
	}
	return s.heldName, s.acqName
}

// reportArgumentOrder reports a function that locks two objects of the
// same type in the order of its parameters (recv then other), like
// Equal(other *T) or Transfer(to *T): a.Equal(b) concurrent with
// b.Equal(a) deadlocks. A function that also takes them in the other
// order (ordering by address or id) is left alone.
func reportArgumentOrder(pass *analysis.Pass, f report.Func, same []site) {
	for _, s := range same {
		if !lockrules.ArgumentOrder(s.held.Lock, s.acq.Lock) {
			continue // not two objects' fields (a helper taking two mutexes)
		}
		a, b := lockstate.ParamIndex(s.held.Lock), lockstate.ParamIndex(s.acq.Lock)
		if e := s.rule(); !lockrules.Cycle([]lockrules.Edge{e, e}) {
			continue // two read locks (no deadlock without writers), or a gate lock held
		}
		reversed := false
		for _, t := range same {
			if lockstate.ParamIndex(t.held.Lock) == b && lockstate.ParamIndex(t.acq.Lock) == a {
				reversed = true
			}
		}
		if reversed {
			continue
		}
		pass.Report(analysis.Diagnostic{
			Pos: s.pos,
			Message: fmt.Sprintf("%s locks %s%s while holding %s, in the order of its arguments: two concurrent calls with the arguments swapped deadlock",
				s.Func, s.acqName, report.Via(s.acq.Via), s.heldName),
			Related: report.Related(s.held.Pos, s.heldName+" acquired here"),
		})
		return
	}
}

// short drops the package path of a lock class: "hashtable.Table.mu".
func short(class string) string {
	if i := strings.LastIndexByte(class, '/'); i >= 0 {
		return class[i+1:]
	}
	return class
}
