package sched

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/driver/internal/instrument"
	"github.com/depcon/depcon/runtime/harness"
)

// An Order is a targeted interleaving of a pair: the holds that force it
// at the hooks, derived from one evidence of the pair.
type Order struct {
	Name  string // "b·a", "a·b", "b·a/start", "a·b/start", "a·b·a'", "b·a·b'", "a·b·a'/in file:line", "b·a·b'/in file:line", "lock∥lock", "r·w·r", "r·w·r/first"
	About string // what a and b are
	Holds []harness.Hold
}

// orders returns the targeted orders of pair p of the type's plan, from
// its evidence and the sites of the rewritten package.
func orders(p *deps.Pair, sites *instrument.Result) []Order {
	if p == nil || sites == nil {
		return nil
	}
	var out []Order
	seen := map[string]bool{}
	add := func(o Order) {
		key := fmt.Sprint(o.Holds)
		if !seen[key] {
			seen[key] = true
			out = append(out, o)
		}
	}
	lines := map[int]string{} // order index → the lines of its evidence
	for i, e := range p.Evidence {
		if i == maxEvidence {
			break
		}
		s1, s2 := sites.At[e.Pos1], sites.At[e.Pos2]
		from := len(out)
		g1, g2 := goroutineOf(p, sites.Site(s1), 0), goroutineOf(p, sites.Site(s2), 1)
		switch e.Kind {
		case deps.DepPC:
			if s1 == 0 || s2 == 0 {
				continue
			}
			if a, b := sites.Site(s1), sites.Site(s2); s1 != s2 && a.Func == b.Func {
				// Two critical sections of one method: keep it between
				// them, holding no lock, until the other call is done
				// (with itself: has gone past its second section).
				if line(b.Pos) < line(a.Pos) {
					s1, s2 = s2, s1
				}
				g := goroutineOf(p, a, 0)
				h := harness.Hold{G: g, Past: s1, Free: true}
				if p.M1 == p.M2 {
					h.UntilSite = s2
				}
				// Named from the pair's side: a is M1's call, b M2's.
				name, about := "a·b·a'", "a, a' = %s at %s, %s; b = the other call"
				if g == 1 {
					name, about = "b·a·b'", "b, b' = %s at %s, %s; a = the other call"
				}
				add(Order{Name: name, About: fmt.Sprintf(about, method(p, g), sitePos(sites, s1), sitePos(sites, s2)),
					Holds: []harness.Hold{h, {G: 1 - g, UntilSite: s1}}})
				if len(out) > from { // not a duplicate
					lines[from] = fmt.Sprintf("%d–%d", line(sites.Site(s1).Pos), line(sites.Site(s2).Pos))
				}
				continue
			}
			about := fmt.Sprintf("a = %s at %s, b = %s at %s", method(p, g1), sitePos(sites, s1), method(p, g2), sitePos(sites, s2))
			// b·a: the call of a kept right at a, everything before it
			// done, until the other is past b; failing that (a is in a
			// critical section b needs), from its start.
			add(Order{Name: "b·a", About: about, Holds: []harness.Hold{{G: g1, At: s1, UntilSite: s2}}})
			add(Order{Name: "a·b", About: about, Holds: []harness.Hold{{G: g2, At: s2, UntilSite: s1}}})
			add(Order{Name: "b·a/start", About: about, Holds: []harness.Hold{{G: g1, UntilSite: s2}}})
			add(Order{Name: "a·b/start", About: about, Holds: []harness.Hold{{G: g2, UntilSite: s1}}})
			add(Order{Name: "a·b·a'", About: about, Holds: []harness.Hold{
				{G: g1, Past: s1, Free: true, UntilSite: s2}, {G: g2, UntilSite: s1}}})
			add(Order{Name: "b·a·b'", About: about, Holds: []harness.Hold{
				{G: g2, Past: s2, Free: true, UntilSite: s1}, {G: g1, UntilSite: s2}}})
			// Windows inside callees: one call kept right after a point
			// of a function its evidence statement reaches, between two
			// of that function's operations, while the other call,
			// started once it got there, goes past its side.
			for _, k := range insideCallees(sites, s1, LocFields(e.Loc1)) {
				add(Order{Name: "a·b·a'/in " + siteLine(sites, k), About: fmt.Sprintf("a = %s kept past %s in %s, until b = %s is past %s",
					method(p, g1), sitePos(sites, k), sites.Site(k).Func, method(p, g2), sitePos(sites, s2)),
					Holds: []harness.Hold{{G: g1, Past: k, UntilSite: s2}, {G: g2, UntilSite: k}}})
			}
			for _, k := range insideCallees(sites, s2, LocFields(e.Loc2)) {
				add(Order{Name: "b·a·b'/in " + siteLine(sites, k), About: fmt.Sprintf("b = %s kept past %s in %s, until a = %s is past %s",
					method(p, g2), sitePos(sites, k), sites.Site(k).Func, method(p, g1), sitePos(sites, s1)),
					Holds: []harness.Hold{{G: g2, Past: k, UntilSite: s1}, {G: g1, UntilSite: k}}})
			}
			// Check-then-act windows: one call kept, holding no lock,
			// past a statement of its method that comes before one of its
			// acquisitions (a check of what the other may change), until
			// the other is past its side.
			for _, k := range gapPoints(sites, sites.Site(s1)) {
				add(Order{Name: "a·b·a'/gap " + siteLine(sites, k), About: fmt.Sprintf("a = %s kept past %s, before it locks again, "+
					"until b = %s is past %s", method(p, g1), sitePos(sites, k), method(p, g2), sitePos(sites, s2)),
					Holds: []harness.Hold{{G: g1, Past: k, Free: true, UntilSite: s2}, {G: g2, UntilSite: k}}})
			}
			for _, k := range gapPoints(sites, sites.Site(s2)) {
				add(Order{Name: "b·a·b'/gap " + siteLine(sites, k), About: fmt.Sprintf("b = %s kept past %s, before it locks again, "+
					"until a = %s is past %s", method(p, g2), sitePos(sites, k), method(p, g1), sitePos(sites, s1)),
					Holds: []harness.Hold{{G: g2, Past: k, Free: true, UntilSite: s1}, {G: g1, UntilSite: k}}})
			}
		case deps.DepD:
			add(Order{Name: "lock∥lock", About: "each call holds its first lock until the other has one",
				Holds: []harness.Hold{{G: 0, Depth: 1, UntilLock: true}, {G: 1, Depth: 1, UntilLock: true}}})
		case deps.DepRWR:
			r, w := g1, 1-g1
			if s1 != 0 {
				// Kept right before the read lock that re-enters (or the
				// call that takes it), holding the one it re-enters, until
				// the writer waits: the nested RLock then queues behind
				// it. The writer waits until the reader is kept there: an
				// unrelated read section before the outer RLock lets it
				// go neither early nor late.
				add(Order{Name: "r·w·r", About: fmt.Sprintf("%s holds its read lock, at %s, until %s waits to write",
					method(p, r), sitePos(sites, s1), method(p, w)),
					Holds: []harness.Hold{{G: r, At: s1, UntilBlocked: true}, {G: w, UntilHeld: true}}})
			}
			add(Order{Name: "r·w·r/first", About: fmt.Sprintf("%s holds its first lock until %s waits to write",
				method(p, r), method(p, w)),
				Holds: []harness.Hold{{G: r, Depth: 1, UntilBlocked: true}, {G: w, UntilLock: true}}})
		}
	}
	// Several evidences of one kind give orders of one name: tell them
	// apart by their lines.
	count := map[string]int{}
	for _, o := range out {
		count[o.Name]++
	}
	for i := range out {
		if l, ok := lines[i]; ok && count[out[i].Name] > 1 {
			out[i].Name += " (" + l + ")"
		}
	}
	return out
}

// maxInside bounds the points inside callees after which one side of
// an evidence is kept.
const maxInside = 6

// insideCallees returns the points of the functions of the package that
// the statement of site s calls, transitively, and that access one of
// fields (the evidence's location): the places where a window inside a
// callee opens (accesses of what the pairs share, synchronising
// operations, acquisitions, in a function that touches the location).
// At most maxInside, the nearest functions first, each function's in
// source order.
func insideCallees(sites *instrument.Result, s int, fields []string) []int {
	touches := map[string]bool{} // functions with a site accessing one of fields
	for _, site := range sites.Sites {
		for _, f := range site.Fields {
			if slices.Contains(fields, f) {
				touches[site.Func] = true
			}
		}
	}
	var out []int
	for _, fn := range sites.Reached(s) {
		if !touches[fn] {
			continue
		}
		for _, site := range sites.Sites {
			if len(out) == maxInside {
				return out
			}
			if site.ID != s && site.Func == fn && (site.Kind == instrument.KindPoint || site.Kind == instrument.KindLock) {
				out = append(out, site.ID)
			}
		}
	}
	return out
}

// maxGap bounds the points of a method before its acquisitions at which
// one side of an evidence is kept.
const maxGap = 3

// gapPoints returns the points of the method of site s that come before
// one of its acquisitions and after the release (in the method) before
// that: where a call that checked something under a lock, or in a callee
// that locks, or atomically, has yet to lock again to act on it. Nearest
// to the acquisition first, at most maxGap.
func gapPoints(sites *instrument.Result, s *instrument.Site) []int {
	if s == nil {
		return nil
	}
	var locks, releases []int
	for _, x := range sites.Sites {
		if x.Func != s.Func {
			continue
		}
		switch x.Kind {
		case instrument.KindLock:
			locks = append(locks, line(x.Pos))
		case instrument.KindUnlocked:
			releases = append(releases, line(x.Pos))
		}
	}
	type point struct{ id, dist int }
	var pts []point
	for _, x := range sites.Sites {
		if x.Func != s.Func || x.Kind != instrument.KindPoint {
			continue
		}
		l := line(x.Pos)
		best := -1 // lines to the nearest acquisition after l with no release of the method between
		for _, a := range locks {
			if a <= l || best >= 0 && a-l >= best {
				continue
			}
			if !slices.ContainsFunc(releases, func(r int) bool { return l < r && r < a }) {
				best = a - l
			}
		}
		if best >= 0 {
			pts = append(pts, point{x.ID, best})
		}
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].dist < pts[j].dist })
	var out []int
	for _, p := range pts {
		if len(out) == maxGap {
			break
		}
		out = append(out, p.id)
	}
	return out
}

// goroutineOf returns the goroutine (0 for M1, 1 for M2) whose method
// holds site s, or def when it cannot tell (a self pair, an unknown site).
func goroutineOf(p *deps.Pair, s *instrument.Site, def int) int {
	if s == nil || p.M1 == p.M2 {
		return def
	}
	name := s.Func
	if i := strings.LastIndex(name, ")."); i >= 0 {
		name = name[i+2:]
	}
	switch name {
	case p.M1:
		return 0
	case p.M2:
		return 1
	}
	return def
}

// line returns the line of a file:line:col position, 0 if none.
func line(pos string) int {
	var l, c int
	if _, lc, ok := strings.Cut(pos, ":"); ok {
		if _, err := fmt.Sscanf(lc, "%d:%d", &l, &c); err != nil {
			return 0
		}
	}
	return l
}

func method(p *deps.Pair, g int) string {
	if g == 0 {
		return p.M1
	}
	return p.M2
}

// siteLine returns the file:line of site id.
func siteLine(sites *instrument.Result, id int) string {
	p := sitePos(sites, id)
	if i := strings.LastIndexByte(p, ':'); i > 0 {
		return p[:i]
	}
	return p
}

func sitePos(sites *instrument.Result, id int) string {
	if s := sites.Site(id); s != nil {
		return s.Pos
	}
	return "?"
}

// LocFields returns the field names of an evidence location
// ("recv.buf[*].n" → buf, n): every segment but the root.
func LocFields(loc string) []string {
	var out []string
	for i, seg := range strings.Split(loc, ".") {
		seg = strings.TrimSpace(seg)
		if j := strings.IndexAny(seg, "[( "); j >= 0 {
			seg = seg[:j]
		}
		if i > 0 && token.IsIdentifier(seg) {
			out = append(out, seg)
		}
	}
	return out
}
