package lockorder

import (
	"fmt"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/internal/report"
	"github.com/depcon/depcon/analyzers/summary"
)

var Analyzer = &analysis.Analyzer{
	Name:      "lockorder",
	Doc:       doc,
	URL:       "https://pkg.go.dev/github.com/depcon/depcon/analyzers/lockorder",
	Requires:  []*analysis.Analyzer{summary.Analyzer},
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
}

// blocks reports whether the two orders e (A → B) and r (B → A) can block
// each other: each goroutine waits for a lock the other holds, in modes
// that exclude each other.
func blocks(e, r Edge) bool {
	return (e.ToW || r.FromW) && (r.ToW || e.FromW)
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
}

func run(pass *analysis.Pass) (any, error) {
	var sites []site
	seen := map[[2]string]bool{}
	for _, f := range report.Funcs(pass) {
		var same []site // same class, different objects
		for _, a := range f.Summary.Acquires {
			if !a.Pos.IsValid() {
				continue
			}
			for _, h := range a.Held {
				if h.Via != "" || h.Lock == a.Lock {
					continue
				}
				s := site{Edge: Edge{From: h.Class, To: a.Class, FromW: h.Mode == summary.W, ToW: a.Mode == summary.W,
					Where: a.Where, Func: f.Fn.Name()},
					f: f, held: h, acq: a, pos: a.Pos, heldName: f.Name(h.Lock), acqName: f.Name(a.Lock)}
				if h.Class == a.Class {
					same = append(same, s)
					continue
				}
				key := [2]string{h.Class, a.Class}
				if !seen[key] {
					seen[key] = true
					sites = append(sites, s)
				}
			}
		}
		reportArgumentOrder(pass, f, same)
	}
	// Inversions within the package: report once per pair of classes,
	// at the later site.
	byEdge := map[[2]string]site{}
	for _, s := range sites {
		byEdge[[2]string{s.From, s.To}] = s
	}
	for _, s := range sites {
		r, ok := byEdge[[2]string{s.To, s.From}]
		if !ok || s.pos < r.pos || !blocks(s.Edge, r.Edge) {
			continue
		}
		pass.Report(analysis.Diagnostic{
			Pos: s.pos,
			Message: fmt.Sprintf("lock order inversion: %s locks %s%s while holding %s, but %s (at %s) locks them in the opposite order: concurrent calls can deadlock",
				s.Func, s.acqName, report.Via(s.acq.Via), s.heldName, r.Func, report.Short(r.Where)),
			Related: report.Related(r.pos, fmt.Sprintf("%s locks %s while holding %s", r.Func, r.acqName, r.heldName)),
		})
	}
	// Inversions against the orders of other packages.
	for _, pf := range pass.AllPackageFacts() {
		if pf.Package == pass.Pkg {
			continue
		}
		for _, e := range pf.Fact.(*Edges).Edges {
			s, ok := byEdge[[2]string{e.To, e.From}]
			if !ok || !blocks(s.Edge, e) {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Pos: s.pos,
				Message: fmt.Sprintf("lock order inversion: %s locks %s%s while holding %s, but %s.%s (at %s) locks %s while holding %s: concurrent calls can deadlock",
					s.Func, s.acqName, report.Via(s.acq.Via), s.heldName, pf.Package.Name(), e.Func, report.Short(e.Where), short(e.To), short(e.From)),
			})
		}
	}
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

// reportArgumentOrder reports a function that locks two objects of the
// same type in the order of its parameters (recv then other), like
// Equal(other *T) or Transfer(to *T): a.Equal(b) concurrent with
// b.Equal(a) deadlocks. A function that also takes them in the other
// order (ordering by address or id) is left alone.
func reportArgumentOrder(pass *analysis.Pass, f report.Func, same []site) {
	for _, s := range same {
		a, b := summary.ParamIndex(s.held.Lock), summary.ParamIndex(s.acq.Lock)
		if a < 0 || b < 0 || a == b || isRoot(s.held.Lock) || isRoot(s.acq.Lock) {
			continue // not two objects' fields (a helper taking two mutexes)
		}
		if !s.FromW && !s.ToW {
			continue // two read locks: no deadlock without writers
		}
		reversed := false
		for _, t := range same {
			if summary.ParamIndex(t.held.Lock) == b && summary.ParamIndex(t.acq.Lock) == a {
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

// isRoot reports whether a lock is a parameter itself rather than a field
// of one.
func isRoot(lock string) bool { return summary.Root(lock) == lock }

// short drops the package path of a lock class: "hashtable.Table.mu".
func short(class string) string {
	if i := strings.LastIndexByte(class, '/'); i >= 0 {
		return class[i+1:]
	}
	return class
}
