// Package sched chooses the schedule of each test of a pair; harness/sched.go executes it.
//
// A [Policy] decides, for each test of a target, which schedule it runs
// under: one of the targeted orders derived from the pair's evidence and
// the hook sites of the rewritten package ([Order]), the delay-bounded
// enumeration, PCT, or stress. It keeps the coverage of the targeted
// orders, tells when a pair's interleavings are saturated, and reports
// the coverage of each pair. The execution of a schedule is
// runtime/harness/sched.go, compiled into the child process.
package sched

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/depcon/depcon/runtime/driver/internal/instrument"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/testgen"
)

// Schedulers: the values of Config.Scheduler (depcon test's -sched flag).
const (
	Targeted = "targeted" // the targeted orders only
	PCT      = "pct"      // PCT schedules only
	Stress   = "stress"   // no hooks: the Go scheduler interleaves the two calls
	All      = "all"      // the targeted orders, then the delay-bounded schedules, PCT and stress
)

// Config is what a Policy is built from.
type Config struct {
	// Scheduler is how the two goroutines of a test are interleaved:
	// Targeted, PCT, Stress or All.
	Scheduler string
	// Sites are the hooks placed in the package (nil when it was not
	// rewritten: every test is then a stress test).
	Sites *instrument.Result
	// Gen generates the type's tests: Saturated and Rank read its
	// targets and how many tests of each it generated.
	Gen *testgen.Generator
	// Seed is the run's seed, Type the name of the type under test: the
	// seed of each PCT test derives from them.
	Seed uint64
	Type string
	// Depth is the bug depth d of the PCT schedules (d-1 priority
	// change points).
	Depth int
}

// A Policy chooses the schedules of the tests of one type and keeps,
// for each target, the scheduling state that decides them.
type Policy struct {
	cfg    Config
	scheds map[*testgen.Target]*pairSched
}

// New returns the policy of a type's tests.
func New(cfg Config) *Policy {
	return &Policy{cfg: cfg, scheds: map[*testgen.Target]*pairSched{}}
}

// Scheduling of the tests.
const (
	TargetedIters = 10   // iterations of a test under a targeted order
	DelayIters    = 1700 // most delay-bounded schedules of a test: all those of bound 2 (harness: 1,641 at most)
	DelayTests    = 5    // the delay-bounded test may take as long as this many tests
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
)

// Indexes Next returns where a targeted order's is expected: NoOrder
// for a plain stress test, DelayOrder and PCTOrder for the
// delay-bounded schedules and PCT, SkipOrder for a test not worth
// running (see Next).
const (
	NoOrder    = -1
	DelayOrder = -2
	PCTOrder   = -3
	SkipOrder  = -4
)

// A pairSched is the scheduling state of one target.
type pairSched struct {
	orders []Order
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

// An orderCov is the coverage of a targeted order of a pair, with what
// the policy keeps of it besides (see left and reopen).
type orderCov struct {
	report.OrderCoverage
	reached int // tests in which some iteration reached the holds
	// tests0 and seen0 are Tests and Tests+Skipped when the order was
	// last reopened (see reopen).
	tests0, seen0 int
}

// schedFor returns the scheduling state of target t.
func (p *Policy) schedFor(t *testgen.Target) *pairSched {
	if ps, ok := p.scheds[t]; ok {
		return ps
	}
	ps := &pairSched{}
	if !t.Seq {
		ps.orders = orders(t.Pair, p.cfg.Sites)
		for _, o := range ps.orders {
			ps.cov = append(ps.cov, orderCov{OrderCoverage: report.OrderCoverage{Order: o.Name, About: o.About, Why: map[string]int{}}})
		}
	}
	p.scheds[t] = ps
	return ps
}

// Orders returns the targeted orders of target t.
func (p *Policy) Orders(t *testgen.Target) []Order { return p.schedFor(t).orders }

// Next returns the schedule of the next test of target t (nil for a
// plain stress test), and the index of its targeted order (NoOrder,
// DelayOrder, PCTOrder). reached holds the hook sites each of the
// test's calls reached when traced (nil: not traced); seq is the
// slowest sequential run of the pair's methods (see patience).
// Under All the targeted orders go first, least tried first, each
// on a test whose calls reach its sites (see reaches); once each was
// tried, tests alternate between PCT and stress. A test whose calls
// reach no order still open, once the pair has had its PCT runs, is not
// run (SkipOrder).
func (p *Policy) Next(t *testgen.Target, reached *[2][]int, seq time.Duration) (*harness.Schedule, int) {
	if t.Seq || p.cfg.Sites == nil || p.cfg.Scheduler == Stress {
		return nil, NoOrder
	}
	ps := p.schedFor(t)
	patience := patience(seq)
	if p.cfg.Scheduler == All || p.cfg.Scheduler == Targeted {
		best, bestHits := -1, false
		for i := range ps.cov {
			c := &ps.cov[i]
			if p.cfg.Scheduler == All && c.left() {
				continue
			}
			hits := reached == nil || reaches(ps.orders[i], *reached)
			if !hits && c.Tests-c.tests0 >= blindTries {
				c.Skipped++
				continue
			}
			// Under All, an order whose sites the test's calls reach
			// goes before one tried blindly (each is left after a few
			// tests), then the least tried; under Targeted, where no
			// order is ever left, the least tried goes first, then one
			// the calls reach (see better).
			if best < 0 || p.better(c, hits, &ps.cov[best], bestHits) {
				best, bestHits = i, hits
			}
		}
		if best >= 0 {
			return &harness.Schedule{Kind: harness.SchedTargeted, Holds: ps.orders[best].Holds, Patience: patience}, best
		}
		if p.cfg.Scheduler == Targeted {
			return nil, NoOrder // nothing to target: plain stress
		}
	}
	if p.cfg.Scheduler == All && p.pctDone(ps) {
		// PCT and stress have had their runs, and the orders still open
		// need sites this test's calls do not reach: running it would
		// add nothing the pair's saturation waits for.
		return nil, SkipOrder
	}
	if p.cfg.Scheduler == All && !ps.delayDone {
		// Then every schedule with up to two delays, when the calls
		// reach few hooks (the harness enumerates them, one per
		// iteration, and ends the test when they are exhausted).
		return &harness.Schedule{Kind: harness.SchedDelay, Depth: 2, Patience: patience,
			From: ps.delayNext, Horizon: ps.delayHorizon}, DelayOrder
	}
	ps.tests++
	if p.cfg.Scheduler == All && ps.tests%stressEvery == 0 {
		return nil, NoOrder
	}
	return &harness.Schedule{Kind: harness.SchedPCT, Seed: p.pctSeed(t, ps.tests), Depth: p.cfg.Depth,
		Patience: patience}, PCTOrder
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
func (p *Policy) pctDone(ps *pairSched) bool {
	return ps.delayDone && ps.pctRuns >= p.pctNeeded(ps) && ps.tests >= stressEvery
}

// pctNeeded returns how many PCT runs pair state ps needs to be
// saturated: pctRunsFor its hook calls, or pctAfterDelay once the
// delay-bounded schedules ran every schedule with as many delays as a
// bug of PCT's depth needs (d-1 context switches past the first choice
// of goroutine, two goroutines).
func (p *Policy) pctNeeded(ps *pairSched) int {
	if d := p.cfg.Depth; ps.delayBound > 0 && ps.delayBound >= d-1 {
		return pctAfterDelay
	}
	return pctRunsFor(ps.steps, p.cfg.Depth)
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

// Saturated reports whether every pair still tested has saturated its
// interleavings (under All, in a package with scheduling hooks): the
// type's testing then ends before its budget, which is a ceiling.
func (p *Policy) Saturated() bool {
	if p.cfg.Scheduler != All || p.cfg.Sites == nil {
		return false
	}
	left := false
	for _, t := range p.cfg.Gen.Targets() {
		if !p.cfg.Gen.Usable(t) {
			continue
		}
		left = true
		if !p.pairSaturated(t) {
			return false
		}
	}
	return left
}

// pairSaturated reports whether target t has saturated its
// interleavings.
func (p *Policy) pairSaturated(t *testgen.Target) bool {
	if t.Seq {
		return p.cfg.Gen.Tests(t) >= seqSaturationTests+p.cfg.Gen.Variants(t)
	}
	ps := p.schedFor(t)
	return p.OrdersLeft(t) && p.pctDone(ps)
}

// Rank ranks target t for the next test under All (see
// testgen.Generator.Rank): the targeted orders of every pair (ten
// iterations a test) go before the PCT and stress tests of any (a
// hundred), and a saturated pair waits for the others.
func (p *Policy) Rank(t *testgen.Target) int {
	switch {
	case t.Seq && p.cfg.Gen.Tests(t) == 0, !t.Seq && !p.OrdersLeft(t):
		return 0
	case !p.pairSaturated(t):
		return 1
	}
	return 2
}

// better reports whether order coverage c, whose sites a test's calls
// reach when hits is set, goes before o (bestHits for o).
func (p *Policy) better(c *orderCov, hits bool, o *orderCov, bestHits bool) bool {
	if p.cfg.Scheduler == All {
		return hits && !bestHits || hits == bestHits && c.Tests < o.Tests
	}
	return c.Tests < o.Tests || c.Tests == o.Tests && hits && !bestHits
}

// OrdersLeft reports whether every targeted order of t is left (under
// All; under Targeted none ever is).
func (p *Policy) OrdersLeft(t *testgen.Target) bool {
	if p.cfg.Scheduler != All {
		return p.cfg.Scheduler != Targeted
	}
	ps := p.schedFor(t)
	for i := range ps.cov {
		if !ps.cov[i].left() {
			return false
		}
	}
	return true
}

// left reports whether the targeted order c is left under All: once
// tried on triesPerOrder tests that reached its sites (forced or not),
// or after maxTestsPerOrder tests whose objects never got there, or
// once maxSeenPerOrder tests of its pair were run under it or skipped.
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

// Reopen tries again the orders left blind of the pairs of method m: a
// call of m reached sites no call of it had reached (with arguments
// that passed its checks, say), and the orders may now be reached.
func (p *Policy) Reopen(m string) {
	for t, ps := range p.scheds {
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
func reaches(o Order, reached [2][]int) bool {
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

// patience is how long a goroutine is kept at a hook, given seq, the
// slowest sequential run of the pair's methods: long enough for the
// other call to get through its method, short enough that an order
// that cannot happen costs little.
func patience(seq time.Duration) time.Duration {
	return min(max(5*time.Millisecond, 4*seq), 500*time.Millisecond)
}

// pctSeed derives the seed of a PCT test from the run's seed, the pair
// and the test's number: a run is replayed from its seed.
func (p *Policy) pctSeed(t *testgen.Target, n int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%s|%s|%d", p.cfg.Seed, p.cfg.Type, t.M1, t.M2, n)
	return h.Sum64() >> 1
}

// Record records how a test of t went under the schedule of index i
// (as Next returned it): res is nil when the test failed before a
// result (the child died); failed is set when the test failed.
func (p *Policy) Record(t *testgen.Target, i int, res *harness.SchedResult, failed bool) {
	if res != nil {
		ps := p.schedFor(t)
		ps.steps = max(ps.steps, res.Steps)
		if i == PCTOrder {
			ps.pctRuns += res.Iters
		}
	}
	if i == DelayOrder {
		ps := p.schedFor(t)
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
	c := &p.schedFor(t).cov[i]
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

// OrdersReached reports, for a target whose tests were scheduled,
// whether it has targeted orders (known) and whether a test got to the
// hooks of one of them (reached); both are false for a target that had
// no scheduled test.
func (p *Policy) OrdersReached(t *testgen.Target) (known, reached bool) {
	ps, ok := p.scheds[t]
	if !ok {
		return false, false
	}
	for _, c := range ps.cov {
		known = true
		reached = reached || c.reached > 0 || c.Forced > 0
	}
	return known, reached
}

// Coverage returns the coverage of the targeted orders, by pair.
func (p *Policy) Coverage() []report.PairCoverage {
	var out []report.PairCoverage
	for t, ps := range p.scheds {
		if len(ps.cov) == 0 && ps.delay == 0 {
			continue
		}
		out = append(out, report.PairCoverage{Pair: [2]string{t.M1, t.M2}, Orders: coverages(ps.cov), DelaySchedules: ps.delay,
			PCTRuns: ps.pctRuns, PCTNeeded: p.pctNeeded(ps), Steps: ps.steps})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Pair, out[j].Pair
		return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
	})
	return out
}

// coverages returns the report's coverage of the orders of cov.
func coverages(cov []orderCov) []report.OrderCoverage {
	if cov == nil {
		return nil
	}
	out := make([]report.OrderCoverage, len(cov))
	for i, c := range cov {
		out[i] = c.OrderCoverage
	}
	return out
}

// Describe says how a test was scheduled, for reports: sc is its
// schedule (nil for stress), o its targeted order (nil for none).
func Describe(sc *harness.Schedule, o *Order) string {
	switch {
	case sc == nil:
		return Stress
	case sc.Kind == harness.SchedPCT:
		return fmt.Sprintf("pct (seed %d, depth %d)", sc.Seed, sc.Depth)
	case sc.Kind == harness.SchedDelay:
		delays := "delays"
		if sc.Depth == 1 {
			delays = "delay"
		}
		return fmt.Sprintf("delay-bounded (up to %d %s)", sc.Depth, delays)
	case o != nil:
		return fmt.Sprintf("targeted %s (%s)", o.Name, o.About)
	}
	return sc.Kind
}
