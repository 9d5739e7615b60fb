// Package lockrules decides which lock patterns can deadlock.
//
// It decides, in one place, what counts as a self-deadlock, a recursive
// read lock that can deadlock (RWR) and a lock order that can deadlock,
// for the plan (deps) and for the diagnostics (selfdeadlock, rwrdeadlock,
// lockorder) alike: both sides call these functions, so that a pair is
// dependent exactly when the diagnostic's rule says the code can block.
package lockrules

import (
	"slices"
	"sort"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

// A Kind classifies a lock acquisition made while another lock is held.
type Kind int

const (
	// Order: another lock is acquired; the pair is an order held → acquired.
	Order Kind = iota
	// Reacquire: the held lock itself is acquired again, at least once in
	// write mode: sync mutexes are not reentrant, the call never returns.
	Reacquire
	// RecursiveRead: a read lock is read-locked again; it blocks when a
	// writer waits in between (see Writer).
	RecursiveRead
)

// Classify classifies the acquisition of lock acq in mode am while lock
// held is held in mode hm (locks are access paths, see summary.Paths).
func Classify(held string, hm lockstate.Mode, acq string, am lockstate.Mode) Kind {
	switch {
	case held != acq:
		return Order
	case hm == lockstate.R && am == lockstate.R:
		return RecursiveRead
	}
	return Reacquire
}

// Writer reports whether an acquisition of a lock of class in mode m is
// a writer that makes a recursive read lock of class readClass block:
// a write lock of the same lock class (the same field of the same type).
func Writer(class string, m lockstate.Mode, readClass string) bool {
	return m == lockstate.W && class != "" && class == readClass
}

// An Edge is a lock order: a lock of class To acquired while a lock of
// class From is held.
type Edge struct {
	From, To string
	// FromW and ToW report whether From is held, and To acquired, in
	// write mode.
	FromW, ToW bool
	// Gates are the classes of the other locks held in write mode at the
	// acquisition (see Gates).
	Gates []string
}

// NewEdge returns the order established by acquiring a while holding h,
// with its gates.
func NewEdge(held []summary.Held, h summary.Held, a summary.Acquire) Edge {
	return Edge{From: h.Class, To: a.Class, FromW: h.Mode == lockstate.W, ToW: a.Mode == lockstate.W, Gates: Gates(held, h, a)}
}

// Gates returns the classes of the other locks held in write mode when a
// is acquired while holding h: a cycle whose every order holds one of
// them is serialised by it (a gate lock) and cannot deadlock.
func Gates(held []summary.Held, h summary.Held, a summary.Acquire) []string {
	var out []string
	for _, x := range held {
		if x.Lock == h.Lock || x.Lock == a.Lock || x.Mode != lockstate.W || x.Class == h.Class || x.Class == a.Class {
			continue
		}
		if !slices.Contains(out, x.Class) {
			out = append(out, x.Class)
		}
	}
	sort.Strings(out)
	return out
}

// Cycle reports whether the orders e0 → e1 → … → e0 close a cycle that
// can deadlock, one goroutine per order: each order's To is the next
// one's From; goroutine i holds From_i and waits for To_i, held by
// goroutine i+1 as From_{i+1}, which blocks unless both are read locks;
// and no gate lock is common to all the orders.
func Cycle(cycle []Edge) bool {
	if len(cycle) < 2 {
		return false
	}
	for i, e := range cycle {
		next := cycle[(i+1)%len(cycle)]
		if e.To != next.From {
			return false
		}
		if !e.ToW && !next.FromW {
			return false
		}
	}
	common := slices.Clone(cycle[0].Gates)
	for _, e := range cycle[1:] {
		common = slices.DeleteFunc(common, func(g string) bool { return !slices.Contains(e.Gates, g) })
	}
	return len(common) == 0
}

// ArgumentOrder reports whether an order between two locks of one class
// (held, then acquired, both fields) can be reversed by another call:
// the locks hang off two different parameters, as a.mu then b.mu in
// a.Merge(b), which b.Merge(a) takes the other way. An order from an
// object to one it reaches (a node's lock, then its child's) is the
// same in every call, and a helper given two mutexes says nothing of
// which objects they belong to.
func ArgumentOrder(held, acq string) bool {
	a, b := lockstate.ParamIndex(held), lockstate.ParamIndex(acq)
	return a >= 0 && b >= 0 && a != b && lockstate.Root(held) != held && lockstate.Root(acq) != acq
}
