package deps

import (
	"fmt"
	"slices"
	"sort"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

// A guard is a lock held at an access, normalized like the locations
// ($0.mu becomes "T.mu"), with its acquisition site in the method.
type guard struct {
	lock string // normalized
	raw  string // as in the summary: $0.mu and $1.mu are two locks
	mode lockstate.Mode
	site int32
	// broken is set when the lock was released after an earlier access
	// of the method and acquired again; repeat when the critical section
	// may run several times (a lock acquired in a loop).
	broken, repeat bool
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
			a.held = append(a.held, guard{lock: l, raw: h.Lock, mode: h.Mode, site: h.Site, broken: h.Broken, repeat: h.Repeat})
		}
	}
}

// protectors returns the locks held at both a and b, in W mode by at least
// one of them: each orders the two accesses.
func protectors(a, b *access) (ga, gb []guard) {
	for _, g := range a.held {
		for _, h := range b.held {
			if g.lock == h.lock && (g.mode == lockstate.W || h.mode == lockstate.W) {
				ga, gb = append(ga, g), append(gb, h)
			}
		}
	}
	return ga, gb
}

// conflicts reports whether a and b conflict: compatible locations, at
// least one of them a write (DepCon's Definition 7 asks for a write and a
// read; in Go an unsynchronised write–write pair is a data race, and
// concurrent map writes are a fatal error). Two single synchronised
// operations (atomics, sync.Map, channel sends and receives) do not
// conflict unless one of the methods makes several of them on the
// location (a check-then-act); nor do two conservative writes by unknown
// code (a callback both methods call): neither is known to happen.
func conflicts(m1, m2 *method, a, b *access) bool {
	if !a.a.Write && !b.a.Write || !lockstate.Compatible(a.loc, b.loc) {
		return false
	}
	if a.a.Flags.Synchronized() && b.a.Flags.Synchronized() &&
		!m1.compound(a.loc) && !m2.compound(b.loc) {
		return false
	}
	return a.a.Flags&b.a.Flags&summary.Indirect == 0
}

// sections collects, for one method of a pair, the critical sections of
// each lock (by its path in the method) under which its conflicting
// accesses happen, and whether one of them follows a release of the lock
// after an earlier access (two sections on one path, not on two
// branches) or runs in a loop.
type sections map[string]*section

type section struct {
	sites  map[int32]*access
	broken bool
}

func (s sections) add(gs []guard, a *access) {
	for _, g := range gs {
		c := s[g.raw]
		if c == nil {
			c = &section{sites: map[int32]*access{}}
			s[g.raw] = c
		}
		if c.sites[g.site] == nil {
			c.sites[g.site] = a
		}
		c.broken = c.broken || g.broken
		if g.repeat {
			// A critical section in a loop is several sections.
			c.sites[-g.site] = a
			c.broken = true
		}
	}
}

// maxGaps bounds the gaps between critical sections reported for one
// method of a pair.
const maxGaps = 3

// A gap is two accesses of a method in consecutive critical sections of
// one lock: another call may run between them.
type gap struct {
	lock string
	x, y *access
}

// gaps returns the gaps between the method's consecutive critical
// sections (of the first lock that has several, in program order), at
// most maxGaps: the other call may run in any of them, and which one
// breaks the method's assumption (after a check, after a write that
// takes something out) depends on the method.
func (s sections) gaps() []gap {
	locks := make([]string, 0, len(s))
	for l := range s {
		locks = append(locks, l)
	}
	sort.Strings(locks)
	for _, l := range locks {
		c := s[l]
		if len(c.sites) < 2 || !c.broken {
			continue
		}
		sites := make([]int32, 0, len(c.sites))
		for site := range c.sites {
			sites = append(sites, site)
		}
		// In program order, as far as positions tell (a callee's
		// sections are at its call), then by acquisition.
		sort.Slice(sites, func(i, j int) bool {
			pi, pj := c.sites[sites[i]].a.Pos, c.sites[sites[j]].a.Pos
			if pi != pj {
				return pi < pj
			}
			return abs(sites[i]) < abs(sites[j]) || abs(sites[i]) == abs(sites[j]) && sites[i] > sites[j]
		})
		var out []gap
		for i := 0; i+1 < len(sites) && len(out) < maxGaps; i++ {
			out = append(out, gap{l, c.sites[sites[i]], c.sites[sites[i+1]]})
		}
		return out
	}
	return nil
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// conflict reports whether m1 and m2 are parallel and conflict dependent.
// Parallelism is decided per pair of conflicting accesses, not per method:
// an access of m1 outside any lock (a callback called after Unlock, a field
// read before Lock) makes m1 parallel to m2 only where it conflicts. The
// pair is dependent when
//
//   - some access a of m1 and some access b of m2 conflict and no common
//     lock, held in W mode by at least one of them, orders them (two
//     RLock holders do interleave); or
//   - the conflicting accesses of one of the methods are all ordered by a
//     lock, but happen in separate critical sections of it (DepCon's
//     atomicity rule: a check under the lock, a release, an act under the
//     lock again — Put reads recv.closed, releases recv.mu, and sends on
//     recv.ch while Close may have closed it in between).
//
// It returns the evidence: the first unordered conflict, or else the
// gaps between each method's critical sections (of both methods when
// each checks and acts in separate sections: different orders expose
// them).
//
// question is set when every conflict no lock orders is between two
// accesses that are neither under a lock nor synchronised operations: the
// methods make no attempt to order them, which is a question of the
// type's contract (may they run at the same time?) more than a bug.
func conflict(m1, m2 *method) (evs []Evidence, question bool) {
	s1, s2 := sections{}, sections{}
	var first []Evidence // the first conflict no lock orders
	question = true
	var atomics []*access // m1's side of single atomic operations that conflict, one per location
	d1, d2 := pairDisplay(m1, m2), pairDisplay(m2, m1)
	for i := range m1.accesses {
		a := &m1.accesses[i]
		for j := range m2.accesses {
			b := &m2.accesses[j]
			if !conflicts(m1, m2, a, b) {
				if singleAtomics(a, b) && !slices.ContainsFunc(atomics, func(x *access) bool { return x.loc == a.loc }) {
					atomics = append(atomics, a, b)
				}
				continue
			}
			ga, gb := protectors(a, b)
			if len(ga) == 0 {
				if first == nil {
					first = []Evidence{{Kind: DepPC, Loc1: d1(a.a.Loc), Loc2: d2(b.a.Loc), Pos1: a.a.Where, Pos2: b.a.Where,
						Text: fmt.Sprintf("%s %s %s (%s), %s %s %s (%s), under no common lock",
							m1.m.Name, rw(a.a), d1(a.a.Loc), short(a.a.Where),
							m2.m.Name, rw(b.a), d2(b.a.Loc), short(b.a.Where))}}
				}
				question = question && unsynchronised(a) && unsynchronised(b)
				continue
			}
			s1.add(ga, a)
			s2.add(gb, b)
		}
	}
	if first != nil {
		return first, question
	}
	var out []Evidence
	for k, s := range []sections{s1, s2} {
		if k == 1 && m1 == m2 {
			break // the same sections seen from the same method
		}
		m, other, d := m1, m2, d1
		if k == 1 {
			m, other, d = m2, m1, d2
		}
		for _, g := range s.gaps() {
			// Loc1 and Loc2 are both accesses of m here.
			x, y := g.x, g.y
			out = append(out, Evidence{Kind: DepPC, Loc1: d(x.a.Loc), Loc2: d(y.a.Loc), Pos1: x.a.Where, Pos2: y.a.Where,
				Text: fmt.Sprintf("%s %s %s (%s) and %s %s (%s) in separate critical sections of %s, which %s may run between",
					m.m.Name, rw(x.a), d(x.a.Loc), short(x.a.Where), rw(y.a), d(y.a.Loc), short(y.a.Where),
					d(g.lock), other.m.Name)})
		}
	}
	if len(out) == 0 && len(atomics) >= 4 {
		// Two locations, each read by one atomic operation of one method
		// and written by one of the other: the other call may run
		// between m1's two operations, which then see, or leave, a state
		// no sequential order has (the parts of a snapshot that do not
		// add up).
		x, y := atomics[0], atomics[2]
		out = append(out, Evidence{Kind: DepPC, Loc1: d1(x.a.Loc), Loc2: d1(y.a.Loc), Pos1: x.a.Where,
			Pos2: y.a.Where, Text: fmt.Sprintf("%s %s %s (%s) and %s %s (%s) in separate atomic operations, which %s "+
				"may run between", m1.m.Name, rw(x.a), d1(x.a.Loc), short(x.a.Where), rw(y.a),
				d1(y.a.Loc), short(y.a.Where), m2.m.Name)})
	}
	return out, false
}

// unsynchronised reports whether access a is made under no lock and is
// no synchronised operation.
func unsynchronised(a *access) bool {
	return len(a.a.Held) == 0 && !a.a.Flags.Synchronized()
}

// singleAtomics reports whether a and b are single atomic operations
// (not parts of a check-then-act, which conflicts decides) on compatible
// locations, one of them a read and the other a write. (Two writers of
// the same counters, atomic additions, commute.)
func singleAtomics(a, b *access) bool {
	return a.a.Write != b.a.Write && a.a.Flags&summary.Atomic != 0 && b.a.Flags&summary.Atomic != 0 &&
		lockstate.Compatible(a.loc, b.loc)
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
	if c, ok := m.compounds[loc]; ok {
		return c
	}
	if m.compounds == nil {
		m.compounds = map[string]bool{}
	}
	m.compounds[loc] = m.countSynchronized(loc) > 1
	return m.compounds[loc]
}

// countSynchronized counts m's synchronised accesses to locations
// compatible with loc.
func (m *method) countSynchronized(loc string) int {
	n := 0
	for _, a := range m.accesses {
		if a.a.Flags.Synchronized() && lockstate.Compatible(a.loc, loc) {
			n++
		}
	}
	return n
}
