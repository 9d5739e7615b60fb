package driver

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/testgen"
)

// Scheduling of the tests.
const (
	targetedIters = 10   // iterations of a test under a targeted order
	delayIters    = 1700 // most delay-bounded schedules of a test: all those of bound 2 (harness: 1,641 at most)
	delayTests    = 5    // the delay-bounded test may take as long as this many tests
	maxDelayTests = 3    // tests that may resume one enumeration
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
	// once their enumeration ended, or was left after maxDelayTests
	// tests or a test that ended without a result; delayBound to the
	// bound they covered when it ended with all of them run. A test
	// that stopped before (its time ran out, it failed) is resumed by
	// the next from delayNext over delayHorizon hook calls.
	delay        int
	delayDone    bool
	delayBound   int
	delayTests   int
	delayNext    int
	delayHorizon int
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
	if r.cfg.Sched == SchedAll && r.pctDone(ps) {
		// PCT and stress have had their runs, and the orders still open
		// need sites this test's calls do not reach: running it would
		// add nothing the pair's saturation waits for.
		return nil, skipOrder
	}
	if r.cfg.Sched == SchedAll && !ps.delayDone {
		// Then every schedule with up to two delays, when the calls
		// reach few hooks (the harness enumerates them, one per
		// iteration, and ends the test when they are exhausted).
		return &harness.Schedule{Kind: harness.SchedDelay, Depth: 2, Patience: patience,
			From: ps.delayNext, Horizon: ps.delayHorizon}, delayOrder
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
	// pctAfterDelay is the PCT runs of a pair whose delay-bounded
	// schedules covered PCT's depth: two tests, other prefixes and
	// arguments than the delay-bounded test's.
	pctAfterDelay = 200
	// stressEvery: after the targeted orders and the delay-bounded
	// schedules, every stressEvery-th test of a pair is a stress test,
	// the others PCT tests.
	stressEvery = 3
)

// pctDone reports whether pair state ps had its delay-bounded
// schedules, its PCT runs and, among the tests of that last phase, a
// stress test.
func (r *typeRun) pctDone(ps *pairSched) bool {
	return ps.delayDone && ps.pctRuns >= r.pctNeeded(ps) && ps.tests >= stressEvery
}

// pctNeeded returns how many PCT runs pair state ps needs to be
// saturated: pctRunsFor its hook calls, or pctAfterDelay once the
// delay-bounded schedules ran every schedule with as many delays as a
// bug of PCT's depth needs (d-1 context switches past the first choice
// of goroutine, two goroutines).
func (r *typeRun) pctNeeded(ps *pairSched) int {
	if d := r.pctDepth(); ps.delayBound > 0 && ps.delayBound >= d-1 {
		return pctAfterDelay
	}
	return pctRunsFor(ps.steps, r.pctDepth())
}

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
	return r.ordersLeft(t) && r.pctDone(ps)
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
		ps.delayTests++
		switch {
		case res == nil:
			ps.delayDone = true
		case res.Exhausted:
			ps.delayDone, ps.delayBound = true, res.DelayBound
		case res.Horizon == 0 || ps.delayTests >= maxDelayTests:
			ps.delayDone = true
		case res.Next <= ps.delayNext:
			ps.delayNext++ // past a schedule that failed before its end (a deadlock)
		default:
			ps.delayNext = res.Next
		}
		if res != nil {
			ps.delay += res.Iters
			ps.delayHorizon = res.Horizon
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
			PCTRuns: ps.pctRuns, PCTNeeded: r.pctNeeded(ps), Steps: ps.steps})
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
