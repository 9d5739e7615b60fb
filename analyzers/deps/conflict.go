package deps

import (
	"fmt"

	"github.com/depcon/depcon/analyzers/summary"
)

// A guard is a lock held at an access, normalized like the locations
// (recv.mu becomes "T.mu").
type guard struct {
	lock string
	mode summary.Mode
	// split is set when the access is in a critical section of the lock
	// other than the first one of the method (the lock was released after
	// an earlier access and acquired again) and the method also accesses
	// the location elsewhere: a check under the lock, a release, an act
	// under the lock again. Such a lock makes each access atomic but not
	// the method's use of the location, so it protects nothing.
	split bool
}

// guards computes the guards of every access of m.
func (m *method) guards(self string) {
	for i := range m.accesses {
		a := &m.accesses[i]
		a.held = nil
		for _, h := range a.a.Held {
			l, ok := normalize(m.m, self, h.Lock)
			if !ok {
				continue
			}
			a.held = append(a.held, guard{lock: l, mode: h.Mode, split: h.Broken && m.elsewhere(i)})
		}
	}
}

// elsewhere reports whether m accesses a location compatible with that
// of its i-th access in another access.
func (m *method) elsewhere(i int) bool {
	for j, b := range m.accesses {
		if j != i && summary.Compatible(b.loc, m.accesses[i].loc) {
			return true
		}
	}
	return false
}

// protected reports whether a common lock, held in W mode by at least one
// of the two accesses, orders a and b. It returns the split lock that
// does not, if any, for the evidence.
func protected(a, b *access) (ok bool, split string) {
	for _, g := range a.held {
		for _, h := range b.held {
			if g.lock != h.lock || (g.mode != summary.W && h.mode != summary.W) {
				continue
			}
			if g.split || h.split {
				split = g.lock
				continue
			}
			return true, ""
		}
	}
	return false, split
}

// conflict reports whether m1 and m2 are parallel and conflict dependent:
// there are an access a of m1 and an access b of m2 to compatible
// locations, at least one of them a write (DepCon's Definition 7 asks for
// a write and a read; in Go an unsynchronised write–write pair is a data
// race, and concurrent map writes are a fatal error), with no common lock
// held at both with at least one of them in W mode. Parallelism is
// decided per pair of accesses, not per method: an access of m1 outside
// any lock (a callback called after Unlock, a field read before Lock)
// makes m1 parallel to m2 only where it conflicts.
//
// Two single synchronised operations (atomics, sync.Map, channel sends and
// receives) do not conflict unless one of the methods makes several of
// them on the location (a check-then-act); nor do two conservative writes
// by unknown code (a callback both methods call): neither is known to
// happen.
func conflict(m1, m2 *method) (Evidence, bool) {
	for i := range m1.accesses {
		a := &m1.accesses[i]
		for j := range m2.accesses {
			b := &m2.accesses[j]
			if !a.a.Write && !b.a.Write || !summary.Compatible(a.loc, b.loc) {
				continue
			}
			if a.a.Flags.Synchronized() && b.a.Flags.Synchronized() &&
				!m1.compound(a.loc) && !m2.compound(b.loc) {
				// Two single synchronised operations (atomics,
				// sync.Map, channels) are linearizable on their own.
				continue
			}
			if a.a.Flags&b.a.Flags&summary.Indirect != 0 {
				continue // both only may write
			}
			ok, split := protected(a, b)
			if ok {
				continue
			}
			why := "under no common lock"
			if split != "" {
				why = "in separate critical sections of " + summary.Display("$0"+split[1:], []string{"recv"})
			}
			return Evidence{Kind: DepPC, Loc1: display(m1, a.a.Loc), Loc2: display(m2, b.a.Loc), Pos1: a.a.Where, Pos2: b.a.Where,
				Text: fmt.Sprintf("%s %s %s (%s), %s %s %s (%s), %s",
					m1.m.Name, rw(a.a), display(m1, a.a.Loc), short(a.a.Where),
					m2.m.Name, rw(b.a), display(m2, b.a.Loc), short(b.a.Where), why)}, true
		}
	}
	return Evidence{}, false
}

func rw(a summary.Access) string {
	if a.Write {
		return "writes"
	}
	return "reads"
}

// compound reports whether m makes more than one synchronised access to
// locations compatible with loc: a check-then-act over atomics.
func (m *method) compound(loc string) bool {
	n := 0
	for _, a := range m.accesses {
		if a.a.Flags.Synchronized() && summary.Compatible(a.loc, loc) {
			n++
		}
	}
	return n > 1
}
