package deps

import (
	"fmt"
	"strings"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// A Plan is the result of the deps analyzer: for every type
// under test (TUT) of the package, its methods and the method pairs that
// are dependent.
//
// A plan has two views. Types, the exported view, is what a user of the
// package can call: its exported types with exported methods, each with
// its exported methods and the pairs among them only (PairsTotal, PairsPC
// and PairsD count those). All, the full view, also plans the unexported
// types with methods and the unexported methods (marked by Exported
// false), for tests that run inside the package (package main, internal
// packages); a type with more than summary.MaxMethods methods keeps its
// exported ones only (Omitted). The exported view of a type is its full
// view restricted by ExportedOnly.
//
// Plans are read by depcon test (the harness generator) and depcon pairs
// through the analysis checker; they are never parsed from text.
type Plan struct {
	Package string      // import path
	Types   []*TypePlan // the exported view, sorted by name
	All     []*TypePlan // the full view, sorted by name
}

// String renders the plan as "T: |M|=10 pc=0 d=1; U: …".
func (p *Plan) String() string {
	var s []string
	for _, t := range p.Types {
		s = append(s, fmt.Sprintf("%s: |M|=%d pc=%d d=%d", t.Name, t.PairsTotal, t.PairsPC, t.PairsD))
	}
	return strings.Join(s, "; ")
}

// Type returns the exported view of the plan of the named type, or nil.
func (p *Plan) Type(name string) *TypePlan {
	for _, t := range p.Types {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Full returns the full view of the plan of the named type, or nil.
func (p *Plan) Full(name string) *TypePlan {
	for _, t := range p.All {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// A TypePlan is the plan of one type under test.
type TypePlan struct {
	Name string // type name, without package
	// Exported reports whether the type's name is exported.
	Exported bool
	// Omitted counts the unexported methods left out of the full view
	// (the type has more than summary.MaxMethods methods).
	Omitted int
	// Concurrent reports whether the type looks meant to be used from
	// several goroutines, which makes depcon test test it by default: it
	// holds a synchronisation primitive (a mutex, an atomic value, a
	// sync.Map, a channel, …) directly, through an embedded or pointed-to
	// struct of its package, or through a slice, array or map of such
	// structs (a sharded map); its methods use sync/atomic on its fields;
	// or its doc comment says it is safe for concurrent use (thread-safe,
	// goroutine-safe, immutable, may be shared between goroutines).
	Concurrent bool
	// ConcurrentWhy says why the type is Concurrent, for people:
	// "m.shards[*].RWMutex is a sync.RWMutex", "atomic operations on
	// c.n", "doc: safe for concurrent use"; "" when it is not. The
	// receiver is named as the type's methods name it (summary.RecvName).
	ConcurrentWhy string
	// OwnGoroutines is set when the type is Concurrent only because a
	// method starts a goroutine that shares a field with its callers
	// (see sharedWithGoroutine): nothing says callers may overlap, so
	// its pairs are those of a method starting such a goroutine, and
	// depcon test reports only what that goroutine does.
	OwnGoroutines bool
	// NotShared, for a type that is not Concurrent, says why it is meant
	// for one goroutine at a time although it reaches synchronisation: a
	// handle ("a handle: it only reaches the synchronisation of *DB,
	// another type of the package": fields pointing to other types of its
	// package, no primitive of its own), or its documentation says so
	// ("doc: not safe for concurrent use", "doc: single consumer").
	NotShared  string
	Methods    []Method // methods of *T (incl. promoted), sorted
	PairsTotal int      // |M| = n(n+1)/2, n = len(Methods)
	PairsPC    int      // |M_pc|: parallel and conflict dependent
	PairsD     int      // |M_d|: double-lock (incl. RWR) dependent
	Pairs      []Pair   // the dependent pairs, M_pc ∪ M_d, sorted
	// Ignored lists the dependent pairs the type's //depcon:ignore
	// directives take out of Pairs, each as "A ∥ B: reason".
	Ignored []string
	// LockOffFields are the option fields of the type's package that
	// turn locking off ("Options.NoLocks" → "disable locking", see
	// contract.PackageDocs): depcon test leaves them false, as it never
	// calls a lock-off switch method (Method.LockOff).
	LockOffFields map[string]string
}

// TruncatedMethods returns the methods whose summaries were cut at their
// size limit (Method.Truncated), in the order of Methods: all their
// pairs are dependent.
func (t *TypePlan) TruncatedMethods() []string {
	var out []string
	for _, m := range t.Methods {
		if m.Truncated {
			out = append(out, m.Name)
		}
	}
	return out
}

// Dependent returns |M_pc ∪ M_d|.
func (t *TypePlan) Dependent() int { return len(t.Pairs) }

// Reduction returns the reduction of the dependent pairs against all pairs,
// in percent.
func (t *TypePlan) Reduction() float64 {
	if t.PairsTotal == 0 {
		return 0
	}
	return 100 * float64(t.PairsTotal-len(t.Pairs)) / float64(t.PairsTotal)
}

// Method returns the method named name, or nil.
func (t *TypePlan) Method(name string) *Method {
	for i := range t.Methods {
		if t.Methods[i].Name == name {
			return &t.Methods[i]
		}
	}
	return nil
}

// Pair returns the dependent pair {m1, m2} (in either order), or nil.
func (t *TypePlan) Pair(m1, m2 string) *Pair {
	for i := range t.Pairs {
		p := &t.Pairs[i]
		if (p.M1 == m1 && p.M2 == m2) || (p.M1 == m2 && p.M2 == m1) {
			return p
		}
	}
	return nil
}

// A Method is a method of a type under test.
type Method struct {
	Name     string
	Exported bool     // whether the method's name is exported
	Pos      string   // file:line:col of the declaration ("" for synthesized)
	Locks    []string // LS(m): locks held at every shared access, e.g. "c.mu(W)", the receiver named by summary.RecvName (full view)
	Accesses int      // |AS(m)| restricted to shared locations
	Writes   int      // how many of them are writes: m changes state
	// ReadLocs and WriteLocs are the shared locations m reads and
	// writes, normalized ("T.n", "T.m[*]"; see Overlaps): what a
	// method reads that neither of two calls writes is the same
	// whatever their order.
	ReadLocs, WriteLocs []string
	// Truncated is set when the method's summary was cut at its size
	// limit, or applies a callee's that was (summary.Summary.Truncated):
	// its pairs are all kept, parallel and conflict dependent, with no
	// contract question, and it is a set-up method only when its
	// documentation says so (see PlanType and setUp).
	Truncated bool
	// SetUp says why the method is a set-up method, called before the
	// object is shared (a fluent setter, documented so, the only
	// unsynchronised writer of configuration fields), "" when it is not:
	// its calls concurrent with the others are contract questions, not
	// bugs. depcon test calls it in prefixes only.
	SetUp string
	// LockOff says why the method switches the type's synchronisation
	// off (it writes a field that another method tests to skip its lock,
	// or its documentation says it disables the locking), "" when it
	// does not: what races after it is what the caller asked for, so
	// depcon test never calls it, and it is no set-up method.
	LockOff string
	// Unsynchronised is set when the method takes no lock and makes no
	// synchronised operation (atomic, channel, sync.Map) at all: an
	// accessor that does not try to cope with concurrent calls.
	Unsynchronised bool
	// Sequential is the phrase of the method's documentation that forbids
	// calling it concurrently (contract.Sequential), "" when none does.
	Sequential string
	// CallsOut is set when the method takes a lock and calls a function
	// its caller gives it with no lock held (summary.Method.CallsOut):
	// the caller's code runs between its critical sections, so it is
	// not one atomic step, and the linearizability oracle has no measure
	// for it.
	CallsOut bool
	// GivesUp is set when the method returns false for a bool result
	// as soon as a compare-and-swap fails, instead of trying again: as
	// a Try... method, it may fail under contention by design, and the
	// linearizability oracle has no measure for it.
	GivesUp bool
}

// Overlaps reports whether what is read at some location of a may
// change with a write at some location of b (normalized locations, as
// Method.ReadLocs and WriteLocs hold them): the two may be the same
// location, or one is reached through the other (len(c.m) reads T.m, a
// write of an entry is T.m->[*]; a new map stored in T.m changes what
// T.m->[*] reads).
func Overlaps(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if lockstate.Compatible(x, y) || strings.HasPrefix(y, x+"->") || strings.HasPrefix(x, y+"->") {
				return true
			}
		}
	}
	return false
}

// Dependency kinds.
const (
	DepPC  = "pc"  // parallel and conflict dependent (races and panics: -find exception)
	DepD   = "d"   // double-lock dependent (-find deadlock, two objects)
	DepRWR = "rwr" // read-write-read dependent (-find deadlock, one object)
	// DepSelf marks the self-pair of a method that re-acquires a lock it
	// holds (a self-deadlock of a sequential call); counted in M_d.
	DepSelf = "self"
)

// A Pair is a dependent method pair, M1 <= M2 by name.
type Pair struct {
	M1, M2   string
	Deps     []string // subset of DepPC, DepD, DepRWR, DepSelf
	Evidence []Evidence
	// TwoObjects is set when the deadlock needs two shared objects.
	TwoObjects bool
	// Question, for a pair that is only parallel and conflict dependent,
	// is set when no access of either method to what they share is under
	// a lock or a synchronised operation, one of the methods does not
	// synchronise at all (a configuration method, not one that locks for
	// some state and forgets other), and the type's documentation does
	// not say it is safe for concurrent use: whether the two methods
	// may run at the same time is a question of the type's contract
	// ("may Subscribe be called while Publish runs?"), which depcon test
	// asks rather than reporting a bug.
	Question string
}

// Has reports whether the pair has dependency kind k.
func (p *Pair) Has(k string) bool {
	for _, d := range p.Deps {
		if d == k {
			return true
		}
	}
	return false
}

// Objects is the number of shared objects a test of the pair needs: two
// when the double-lock dependency is between locks of different objects
// (recv.mu and other.mu), one otherwise.
func (p *Pair) Objects() int {
	if p.TwoObjects {
		return 2
	}
	return 1
}

// Evidence explains why a pair is dependent.
type Evidence struct {
	Kind string `json:"kind"` // DepPC, DepD, DepRWR or DepSelf
	// For DepPC: the location, and the accesses of m1 and m2 to it; or,
	// when a method's conflicting accesses are in separate critical
	// sections of one lock, two of its accesses in different sections
	// (the Text names the method).
	// For DepD: Loc1/Loc2 are the lock pairs ⟨la,lb⟩ of m1 and ⟨lc,ld⟩ of m2.
	// For DepRWR: Loc1 is the read lock re-acquired by m1, Loc2 the write
	// acquisition in m2.
	Loc1 string `json:"loc1"`
	Loc2 string `json:"loc2"`
	// Pos1 and Pos2 locate the accesses or acquisitions in m1 and m2
	// (file:line:col; the call through which they happen, if in a callee).
	Pos1 string `json:"pos1"`
	Pos2 string `json:"pos2"`
	Text string `json:"text"` // one-line human explanation
}

func (e Evidence) String() string { return e.Text }

// JoinDeps returns the dependency kinds as "pc+d".
func (p *Pair) JoinDeps() string { return strings.Join(p.Deps, "+") }
