package driver

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"hash/fnv"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/instrument"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/testgen"
	"golang.org/x/tools/go/packages"
)

// An order is a targeted interleaving of a pair: the holds that force it
// at the hooks, derived from one evidence of the pair.
type order struct {
	Name  string // "b·a", "a·b", "b·a/start", "a·b/start", "a·b·a'", "b·a·b'", "a·b·a'/in file:line", "b·a·b'/in file:line", "lock∥lock", "r·w·r", "r·w·r/first"
	About string // what a and b are
	Holds []harness.Hold
}

// Scheduling of the tests.
const (
	targetedIters = 10  // iterations of a test under a targeted order
	delayIters    = 400 // most delay-bounded schedules of a test
	// triesPerOrder is how many tests of an order reach its sites before
	// it is left for PCT and stress: each has its own prefix and
	// arguments, and an order forced on objects whose state makes its
	// window harmless (a reference another subscription holds) is forced
	// again on others.
	triesPerOrder = 3
	maxEvidence   = 4 // evidences of a pair turned into orders
	// maxTestsPerOrder bounds the tests of an order whose sites no test
	// reached (the objects or arguments never lead there); blindTries of
	// them are run whatever the trace of their calls says, and an order
	// is left once maxSeenPerOrder tests of its pair were run under it
	// or skipped because their calls do not reach its sites.
	maxTestsPerOrder = 8
	blindTries       = 2
	maxSeenPerOrder  = 40
	// traceTime is the least time a prefix's trace may take.
	traceTime = 50 * time.Millisecond
)

// orders returns the targeted orders of pair p of the type's plan, from
// its evidence and the sites of the rewritten package.
func orders(p *deps.Pair, sites *instrument.Result) []order {
	if p == nil || sites == nil {
		return nil
	}
	var out []order
	seen := map[string]bool{}
	add := func(o order) {
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
				add(order{Name: name, About: fmt.Sprintf(about, method(p, g), sitePos(sites, s1), sitePos(sites, s2)),
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
			add(order{Name: "b·a", About: about, Holds: []harness.Hold{{G: g1, At: s1, UntilSite: s2}}})
			add(order{Name: "a·b", About: about, Holds: []harness.Hold{{G: g2, At: s2, UntilSite: s1}}})
			add(order{Name: "b·a/start", About: about, Holds: []harness.Hold{{G: g1, UntilSite: s2}}})
			add(order{Name: "a·b/start", About: about, Holds: []harness.Hold{{G: g2, UntilSite: s1}}})
			add(order{Name: "a·b·a'", About: about, Holds: []harness.Hold{
				{G: g1, Past: s1, Free: true, UntilSite: s2}, {G: g2, UntilSite: s1}}})
			add(order{Name: "b·a·b'", About: about, Holds: []harness.Hold{
				{G: g2, Past: s2, Free: true, UntilSite: s1}, {G: g1, UntilSite: s2}}})
			// Windows inside callees: one call kept right after a point
			// of a function its evidence statement reaches, between two
			// of that function's operations, while the other call,
			// started once it got there, goes past its side.
			for _, k := range insideCallees(sites, s1, locFields(e.Loc1)) {
				add(order{Name: "a·b·a'/in " + siteLine(sites, k), About: fmt.Sprintf("a = %s kept past %s in %s, until b = %s is past %s",
					method(p, g1), sitePos(sites, k), sites.Site(k).Func, method(p, g2), sitePos(sites, s2)),
					Holds: []harness.Hold{{G: g1, Past: k, UntilSite: s2}, {G: g2, UntilSite: k}}})
			}
			for _, k := range insideCallees(sites, s2, locFields(e.Loc2)) {
				add(order{Name: "b·a·b'/in " + siteLine(sites, k), About: fmt.Sprintf("b = %s kept past %s in %s, until a = %s is past %s",
					method(p, g2), sitePos(sites, k), sites.Site(k).Func, method(p, g1), sitePos(sites, s1)),
					Holds: []harness.Hold{{G: g2, Past: k, UntilSite: s1}, {G: g1, UntilSite: k}}})
			}
			// Check-then-act windows: one call kept, holding no lock,
			// past a statement of its method that comes before one of its
			// acquisitions (a check of what the other may change), until
			// the other is past its side.
			for _, k := range gapPoints(sites, sites.Site(s1)) {
				add(order{Name: "a·b·a'/gap " + siteLine(sites, k), About: fmt.Sprintf("a = %s kept past %s, before it locks again, "+
					"until b = %s is past %s", method(p, g1), sitePos(sites, k), method(p, g2), sitePos(sites, s2)),
					Holds: []harness.Hold{{G: g1, Past: k, Free: true, UntilSite: s2}, {G: g2, UntilSite: k}}})
			}
			for _, k := range gapPoints(sites, sites.Site(s2)) {
				add(order{Name: "b·a·b'/gap " + siteLine(sites, k), About: fmt.Sprintf("b = %s kept past %s, before it locks again, "+
					"until a = %s is past %s", method(p, g2), sitePos(sites, k), method(p, g1), sitePos(sites, s1)),
					Holds: []harness.Hold{{G: g2, Past: k, Free: true, UntilSite: s1}, {G: g1, UntilSite: k}}})
			}
		case deps.DepD:
			add(order{Name: "lock∥lock", About: "each call holds its first lock until the other has one",
				Holds: []harness.Hold{{G: 0, Depth: 1, UntilLock: true}, {G: 1, Depth: 1, UntilLock: true}}})
		case deps.DepRWR:
			r, w := g1, 1-g1
			if s1 != 0 {
				// Kept right before the read lock that re-enters (or the
				// call that takes it), holding the one it re-enters, until
				// the writer waits: the nested RLock then queues behind
				// it. An unrelated read section before the outer RLock
				// does not take the hold.
				add(order{Name: "r·w·r", About: fmt.Sprintf("%s holds its read lock, at %s, until %s waits to write",
					method(p, r), sitePos(sites, s1), method(p, w)),
					Holds: []harness.Hold{{G: r, At: s1, UntilBlocked: true}, {G: w, UntilLock: true}}})
			}
			add(order{Name: "r·w·r/first", About: fmt.Sprintf("%s holds its first lock until %s waits to write",
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

// A pairSched is the scheduling state of one target.
type pairSched struct {
	orders []order
	cov    []orderCov
	tests  int // PCT and stress tests, after the targeted orders and the delay-bounded schedules
	// pctRuns counts the iterations of the PCT tests, each a PCT run;
	// steps is the most hook calls an iteration of the pair's scheduled
	// tests made (PCT's k).
	pctRuns int
	steps   int
	// delay counts the delay-bounded schedules run; delayDone is set
	// once their enumeration ended (or a test of it failed).
	delay     int
	delayDone bool
}

// schedFor returns the scheduling state of target t.
func (r *typeRun) schedFor(t *testgen.Target) *pairSched {
	if ps, ok := r.scheds[t]; ok {
		return ps
	}
	ps := &pairSched{}
	if !t.Seq {
		ps.orders = orders(t.Pair, r.sites)
		for _, o := range ps.orders {
			ps.cov = append(ps.cov, orderCov{OrderCoverage: report.OrderCoverage{Order: o.Name, About: o.About, Why: map[string]int{}}})
		}
	}
	r.scheds[t] = ps
	return ps
}

// schedule returns the schedule of the next test of target t (nil for a
// plain stress test), and the index of its targeted order (-1 for none,
// delayOrder, pctOrder). reached holds the hook sites each of the test's
// calls reached when traced (nil: not traced).
// Under SchedAll the targeted orders go first, least tried first, each
// on a test whose calls reach its sites (see reaches); once each was
// tried, tests alternate between PCT and stress. A test whose calls
// reach no order still open, once the pair has had its PCT runs, is not
// run (skipOrder).
func (r *typeRun) schedule(t *testgen.Target, reached *[2][]int) (*harness.Schedule, int) {
	if t.Seq || r.sites == nil || r.cfg.Sched == SchedStress {
		return nil, -1
	}
	ps := r.schedFor(t)
	patience := r.patience(t)
	if r.cfg.Sched == SchedAll || r.cfg.Sched == SchedTargeted {
		best, bestHits := -1, false
		for i := range ps.cov {
			c := &ps.cov[i]
			if r.cfg.Sched == SchedAll && c.left() {
				continue
			}
			hits := reached == nil || reaches(ps.orders[i], *reached)
			if !hits && c.Tests-c.tests0 >= blindTries {
				c.Skipped++
				continue
			}
			// Under -sched all, an order whose sites the test's calls
			// reach goes before one tried blindly (each is left after a
			// few tests), then the least tried; under -sched targeted,
			// where no order is ever left, the least tried goes first,
			// then one the calls reach (see better).
			if best < 0 || r.better(c, hits, &ps.cov[best], bestHits) {
				best, bestHits = i, hits
			}
		}
		if best >= 0 {
			return &harness.Schedule{Kind: harness.SchedTargeted, Holds: ps.orders[best].Holds, Patience: patience}, best
		}
		if r.cfg.Sched == SchedTargeted {
			return nil, -1 // nothing to target: plain stress
		}
	}
	if r.cfg.Sched == SchedAll && ps.delayDone && ps.pctRuns >= pctRunsFor(ps.steps, r.pctDepth()) {
		// PCT and stress have had their runs, and the orders still open
		// need sites this test's calls do not reach: running it would
		// add nothing the pair's saturation waits for.
		return nil, skipOrder
	}
	if r.cfg.Sched == SchedAll && !ps.delayDone {
		// Then every schedule with up to two delays, when the calls
		// reach few hooks (the harness enumerates them, one per
		// iteration, and ends the test when they are exhausted).
		return &harness.Schedule{Kind: harness.SchedDelay, Depth: 2, Patience: patience}, delayOrder
	}
	ps.tests++
	if r.cfg.Sched == SchedAll && ps.tests%stressEvery == 0 {
		return nil, -1
	}
	return &harness.Schedule{Kind: harness.SchedPCT, Seed: r.pctSeed(t, ps.tests), Depth: r.pctDepth(),
		Patience: patience}, pctOrder
}

// Saturation: a pair's interleavings are saturated once each of its
// targeted orders was left (tried on tests that reached its sites, or
// given up on), its delay-bounded schedules were enumerated, and PCT
// has run often enough to find a bug of its depth among the pair's hook
// calls with probability 1-pctMiss (pctRunsFor, within [minPCTRuns,
// maxPCTRuns]), with a stress test after every two of its tests; a
// sequential target after seqSaturationTests tests.
const (
	seqSaturationTests = 6
	pctMiss            = 0.05
	// minPCTRuns and maxPCTRuns bound the PCT runs of a pair: the
	// bound is a worst case over hook calls that are all the pair's,
	// and the targeted orders have forced the evidence's windows
	// already; more than 2,000 runs (20 tests of 100 iterations) found
	// nothing more on the corpus.
	minPCTRuns = 300
	maxPCTRuns = 2000
	// stressEvery: after the targeted orders and the delay-bounded
	// schedules, every stressEvery-th test of a pair is a stress test,
	// the others PCT tests.
	stressEvery = 3
)

// pctRunsFor returns how many PCT runs find a bug of depth d among k
// hook calls with probability 1-pctMiss: one run finds it with
// probability 1/(2k^(d-1)) at least, for two goroutines (Burckhardt et
// al., "A randomized scheduler with probabilistic guarantees of finding
// bugs", 2010), within [minPCTRuns, maxPCTRuns].
func pctRunsFor(k, d int) int {
	if k < 4 {
		k = 20 // as the harness: a horizon not seen yet
	}
	p := 1 / (2 * math.Pow(float64(k), float64(d-1)))
	n := math.Ceil(math.Log(pctMiss) / math.Log1p(-p))
	return int(min(max(n, minPCTRuns), maxPCTRuns))
}

// saturated reports whether every pair still tested has saturated its
// interleavings (under -sched all, in a package with scheduling hooks):
// the type's testing then ends before its budget, which is a ceiling.
func (r *typeRun) saturated() bool {
	if r.cfg.Sched != SchedAll || r.sites == nil {
		return false
	}
	left := false
	for _, t := range r.g.Targets() {
		if !r.g.Usable(t) {
			continue
		}
		left = true
		if !r.pairSaturated(t) {
			return false
		}
	}
	return left
}

// pairSaturated reports whether target t has saturated its
// interleavings.
func (r *typeRun) pairSaturated(t *testgen.Target) bool {
	if t.Seq {
		return r.g.Tests(t) >= seqSaturationTests+r.g.Variants(t)
	}
	ps := r.schedFor(t)
	return r.ordersLeft(t) && ps.delayDone && ps.pctRuns >= pctRunsFor(ps.steps, r.pctDepth())
}

// rank ranks target t for the next test under -sched all: the targeted
// orders of every pair (ten iterations a test) go before the PCT and
// stress tests of any (a hundred), and a saturated pair waits for the
// others.
func (r *typeRun) rank(t *testgen.Target) int {
	switch {
	case t.Seq && r.g.Tests(t) == 0, !t.Seq && !r.ordersLeft(t):
		return 0
	case !r.pairSaturated(t):
		return 1
	}
	return 2
}

// better reports whether order coverage c, whose sites a test's calls
// reach when hits is set, goes before o (bestHits for o).
func (r *typeRun) better(c *orderCov, hits bool, o *orderCov, bestHits bool) bool {
	if r.cfg.Sched == SchedAll {
		return hits && !bestHits || hits == bestHits && c.Tests < o.Tests
	}
	return c.Tests < o.Tests || c.Tests == o.Tests && hits && !bestHits
}

// ordersLeft reports whether every targeted order of t is left (under
// -sched all; under -sched targeted none ever is).
func (r *typeRun) ordersLeft(t *testgen.Target) bool {
	if r.cfg.Sched != SchedAll {
		return r.cfg.Sched != SchedTargeted
	}
	ps := r.schedFor(t)
	for i := range ps.cov {
		if !ps.cov[i].left() {
			return false
		}
	}
	return true
}

// left reports whether the targeted order c is left under -sched all:
// once tried on triesPerOrder tests that reached its sites (forced or
// not), or after maxTestsPerOrder tests whose objects never got there,
// or once maxSeenPerOrder tests of its pair were run under it or
// skipped.
func (c *orderCov) left() bool {
	return c.reached >= triesPerOrder || c.Tests-c.tests0 >= maxTestsPerOrder ||
		c.Tests+c.Skipped-c.seen0 >= maxSeenPerOrder
}

// reopen tries again an order left blind (no test reached its sites).
func (c *orderCov) reopen() {
	if c.reached == 0 && c.left() {
		c.tests0, c.seen0 = c.Tests, c.Tests+c.Skipped
	}
}

// reopen tries again the orders left blind of the pairs of method m: a
// call of m reached sites no call of it had reached (with arguments
// that passed its checks, say), and the orders may now be reached.
func (r *typeRun) reopen(m string) {
	for t, ps := range r.scheds {
		if t.M1 == m || t.M2 == m {
			for i := range ps.cov {
				ps.cov[i].reopen()
			}
		}
	}
}

// reaches reports whether calls that reached the sites in reached, run
// one after the other in either order, get to every site the holds of
// order o keep a call at or wait for. An order is run on a test whose
// calls do not only on its first blindTries tests: a call may reach a
// site only when the other runs concurrently (a retry after a check
// that failed).
func reaches(o order, reached [2][]int) bool {
	for _, h := range o.Holds {
		if h.G < 0 || h.G > 1 {
			return true
		}
		if h.At != 0 && !slices.Contains(reached[h.G], h.At) || h.Past != 0 && !slices.Contains(reached[h.G], h.Past) ||
			h.UntilSite != 0 && !slices.Contains(reached[1-h.G], h.UntilSite) {
			return false
		}
	}
	return true
}

// patience is how long a goroutine is kept at a hook: long enough for
// the other call to get through its method, short enough that an order
// that cannot happen costs little.
func (r *typeRun) patience(t *testgen.Target) time.Duration {
	seq := max(r.seqTime[t.M1], r.seqTime[t.M2])
	return min(max(5*time.Millisecond, 4*seq), 500*time.Millisecond)
}

func (r *typeRun) pctDepth() int {
	if r.cfg.PCTDepth > 0 {
		return r.cfg.PCTDepth
	}
	return DefaultPCTDepth
}

// pctSeed derives the seed of a PCT test from the run's seed, the pair
// and the test's number: a run is replayed from its seed.
func (r *typeRun) pctSeed(t *testgen.Target, n int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%s|%s|%d", r.cfg.Seed, r.s.Plan.Name, t.M1, t.M2, n)
	return h.Sum64() >> 1
}

// delayOrder and pctOrder stand for the delay-bounded schedules and PCT
// where an order's index is expected (-1 for stress); skipOrder for a
// test not worth running (see schedule).
const (
	delayOrder = -2
	pctOrder   = -3
	skipOrder  = -4
)

// covered records how a test under targeted order i of t went: res is
// nil when the test failed before a result (the child died).
func (r *typeRun) covered(t *testgen.Target, i int, res *harness.SchedResult, failed bool) {
	if res != nil {
		ps := r.schedFor(t)
		ps.steps = max(ps.steps, res.Steps)
		if i == pctOrder {
			ps.pctRuns += res.Iters
		}
	}
	if i == delayOrder {
		ps := r.schedFor(t)
		ps.delayDone = true // once: a test that failed or ran out of budget is not resumed
		if res != nil {
			ps.delay += res.Iters
		}
		return
	}
	if i < 0 {
		return
	}
	c := &r.schedFor(t).cov[i]
	c.Tests++
	if failed {
		c.Failed++
	}
	if res == nil {
		return
	}
	c.Iters += res.Iters
	c.Forced += res.Forced
	if res.Why[harness.WhyNotReached] < res.Iters {
		c.reached++
	}
	for why, n := range res.Why {
		c.Why[why] += n
	}
}

// interleavings returns the coverage of the targeted orders, by pair.
func (r *typeRun) interleavings() []report.PairCoverage {
	var out []report.PairCoverage
	for t, ps := range r.scheds {
		if len(ps.cov) == 0 && ps.delay == 0 {
			continue
		}
		out = append(out, report.PairCoverage{Pair: [2]string{t.M1, t.M2}, Orders: coverages(ps.cov), DelaySchedules: ps.delay,
			PCTRuns: ps.pctRuns, PCTNeeded: pctRunsFor(ps.steps, r.pctDepth()), Steps: ps.steps})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Pair, out[j].Pair
		return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
	})
	return out
}

// describeSchedule says how a test was scheduled, for reports.
func describeSchedule(sc *harness.Schedule, o *order) string {
	switch {
	case sc == nil:
		return SchedStress
	case sc.Kind == harness.SchedPCT:
		return fmt.Sprintf("pct (seed %d, depth %d)", sc.Seed, sc.Depth)
	case sc.Kind == harness.SchedDelay:
		return fmt.Sprintf("delay-bounded (up to %d %s)", sc.Depth, plural(sc.Depth, "delay", "delays"))
	case o != nil:
		return fmt.Sprintf("targeted %s (%s)", o.Name, o.About)
	}
	return sc.Kind
}

// rewriter returns the rewriting of pkg for the child's build: hooks at
// its lock operations, before the statements that access a field some
// dependent pair's evidence names, and before the statements of the
// evidence's sites. The sites placed are stored in *sites.
func rewriter(pkg *packages.Package, subjects []*testgen.Subject, sites **instrument.Result) child.Rewriter {
	return func(names child.Names) (map[string][]byte, error) {
		if len(pkg.Syntax) == 0 || pkg.TypesInfo == nil {
			return nil, errors.New("the package was loaded without its syntax")
		}
		want := instrument.Want{Fields: map[string]bool{}}
		for _, s := range subjects {
			for _, p := range s.Plan.Pairs {
				for _, e := range p.Evidence {
					for _, loc := range []string{e.Loc1, e.Loc2} {
						for _, f := range locFields(loc) {
							want.Fields[f] = true
						}
					}
					for _, pos := range []string{e.Pos1, e.Pos2} {
						if pos != "" {
							want.Positions = append(want.Positions, pos)
						}
					}
				}
			}
		}
		var files []*ast.File // those of the package's directory (not cgo's generated ones)
		for _, f := range pkg.Syntax {
			if slices.Contains(pkg.GoFiles, pkg.Fset.File(f.Pos()).Name()) {
				files = append(files, f)
			}
		}
		res, err := instrument.Rewrite(pkg.Fset, files, pkg.TypesInfo, os.ReadFile,
			instrument.HooksWithPrefix(names.Prefix), want)
		if err != nil {
			return nil, err
		}
		*sites = res
		return res.Files, nil
	}
}

// locFields returns the field names of a location ("recv.buf[*].n" →
// buf, n): every segment but the root.
func locFields(loc string) []string {
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

// buildReason returns the first compiler error of a failed build, or
// the error's first line.
func buildReason(err error) string {
	var be *child.BuildError
	if errors.As(err, &be) {
		for _, l := range strings.Split(be.Output, "\n") {
			if strings.Contains(l, ".go:") {
				return strings.TrimSpace(l)
			}
		}
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	return first
}

// prune drops from the prefix of c's test the calls that do not change
// which hooks the pair's calls reach when run after it (OpTrace): they
// change no branch the interleavings could explore. It returns the hook
// sites each call reached after the calls kept (nil when not traced: a
// test without prefix is traced only while targeted orders of its pair
// are left to choose from). A trace that fails leaves the prefix as it
// is.
func (r *typeRun) prune(c *testgen.Case) *[2][]int {
	t := c.Target
	if t.Seq || r.sites == nil || r.cfg.Sched == SchedStress || len(c.Test.Prefix) == 0 && r.ordersLeft(t) {
		return nil
	}
	req := r.request(harness.OpTrace, c.Test, t.M1, t.M2)
	req.MaxTime = max(traceTime, r.cfg.Budget/100) // slow objects: trace little, keep the rest
	rep := r.do(req)
	if rep == nil || rep.Result == nil || rep.Result.Status != harness.StatusOK {
		return nil
	}
	prefix := make([]harness.Call, 0, len(rep.Result.Kept))
	for _, i := range rep.Result.Kept {
		if i >= 0 && i < len(c.Test.Prefix) {
			prefix = append(prefix, c.Test.Prefix[i])
		}
	}
	r.rep.PrefixCalls += len(c.Test.Prefix)
	r.rep.PrefixPruned += len(c.Test.Prefix) - len(prefix)
	c.Test.Prefix = prefix
	return &rep.Result.Reached
}
