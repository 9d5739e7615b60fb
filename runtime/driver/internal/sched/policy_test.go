package sched

import (
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/driver/internal/instrument"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/testgen"
)

// TestReopen: an order left blind is tried again once reopened; one
// that reached its sites, or is not left, stays as it is.
func TestReopen(t *testing.T) {
	blind := orderCov{OrderCoverage: report.OrderCoverage{Tests: blindTries, Skipped: maxSeenPerOrder - blindTries}}
	if !blind.left() {
		t.Fatalf("%+v not left", blind)
	}
	blind.reopen()
	if blind.left() {
		t.Errorf("reopened %+v still left", blind)
	}
	blind.Skipped += maxSeenPerOrder
	if !blind.left() {
		t.Errorf("%+v: left again after maxSeenPerOrder more tests, want left", blind)
	}
	reached := orderCov{OrderCoverage: report.OrderCoverage{Tests: triesPerOrder, Forced: 10}, reached: triesPerOrder}
	reached.reopen()
	if !reached.left() {
		t.Errorf("reopened %+v, whose sites were reached, is not left", reached)
	}
}

// TestBetter checks which targeted order a test goes to: under -sched
// all one its calls reach before one tried blindly, whatever their tests;
// under -sched targeted, where no order is ever left (one always reached
// would starve the others), the least tried, then one the calls reach.
func TestBetter(t *testing.T) {
	blind, reached := &orderCov{OrderCoverage: report.OrderCoverage{Tests: 0}}, &orderCov{OrderCoverage: report.OrderCoverage{Tests: 3}}
	all := New(Config{Scheduler: All})
	if !all.better(reached, true, blind, false) || all.better(blind, false, reached, true) {
		t.Error("-sched all: want the order the calls reach first")
	}
	targeted := New(Config{Scheduler: Targeted})
	if targeted.better(reached, true, blind, false) || !targeted.better(blind, false, reached, true) {
		t.Error("-sched targeted: want the least tried first")
	}
	if !targeted.better(&orderCov{OrderCoverage: report.OrderCoverage{Tests: 3}}, true, reached, false) {
		t.Error("-sched targeted: want, between equally tried orders, the one the calls reach")
	}
}

// TestScheduleSkips checks that, under -sched all, a test whose calls
// reach no open order of its pair goes to PCT while the pair needs PCT
// runs, and is not run once it has had them; a test that reaches an open
// order is run under it.
func TestScheduleSkips(t *testing.T) {
	tgt := &testgen.Target{M1: "Get", M2: "Put", Pair: &deps.Pair{M1: "Get", M2: "Put"}}
	o := Order{Name: "b·a", Holds: []harness.Hold{{G: 1, At: 7, UntilSite: 9}}}
	ps := &pairSched{orders: []Order{o}, cov: []orderCov{{OrderCoverage: report.OrderCoverage{Order: o.Name, Tests: blindTries, Why: map[string]int{}}}},
		delayDone: true, steps: 5}
	p := New(Config{Scheduler: All, Sites: &instrument.Result{}, Type: "T", Depth: 3})
	p.scheds[tgt] = ps
	blind := &[2][]int{{3}, {4}}
	if _, oi := p.Next(tgt, blind, 0); oi != PCTOrder {
		t.Errorf("before its PCT runs: order %d, want PCT (%d)", oi, PCTOrder)
	}
	ps.pctRuns = pctRunsFor(ps.steps, p.cfg.Depth)
	if _, oi := p.Next(tgt, blind, 0); oi == SkipOrder {
		t.Error("PCT runs done, no stress test yet: the test skipped, want it run")
	}
	ps.tests = stressEvery
	if _, oi := p.Next(tgt, blind, 0); oi != SkipOrder {
		t.Errorf("after its PCT runs: order %d, want the test skipped (%d)", oi, SkipOrder)
	}
	// Once the delay-bounded schedules ran every schedule with two
	// delays, which PCT's depth 3 needs, a few PCT tests are enough.
	ps.steps, ps.pctRuns = 25, pctAfterDelay
	if _, oi := p.Next(tgt, blind, 0); oi == SkipOrder {
		t.Errorf("%d PCT runs over %d hook calls: the test skipped, want it run", ps.pctRuns, ps.steps)
	}
	ps.delayBound = 1
	if _, oi := p.Next(tgt, blind, 0); oi == SkipOrder {
		t.Errorf("delay bound 1: the test skipped, want it run")
	}
	ps.delayBound = 2
	if _, oi := p.Next(tgt, blind, 0); oi != SkipOrder {
		t.Errorf("delay bound 2 and %d PCT runs: order %d, want the test skipped (%d)", ps.pctRuns, oi, SkipOrder)
	}
	if _, oi := p.Next(tgt, &[2][]int{{9}, {7}}, 0); oi != 0 {
		t.Errorf("a test reaching the open order: order %d, want 0", oi)
	}
}

// TestDelayResumed checks that a delay-bounded enumeration cut short (its
// time ran out, a failure) is resumed by the pair's next test where it
// was left, over the same hook calls, and is left after maxDelayTests
// tests; one that ran every schedule says which bound it covered.
func TestDelayResumed(t *testing.T) {
	tgt := &testgen.Target{M1: "Get", M2: "Put", Pair: &deps.Pair{M1: "Get", M2: "Put"}}
	p := New(Config{Scheduler: All, Sites: &instrument.Result{}, Type: "T", Depth: 3})
	sc, oi := p.Next(tgt, nil, 0)
	if oi != DelayOrder || sc.From != 0 || sc.Horizon != 0 {
		t.Fatalf("first test: order %d, schedule %+v, want the enumeration from its start", oi, sc)
	}
	p.Record(tgt, oi, &harness.SchedResult{Iters: 150, Next: 150, Horizon: 20}, false)
	sc, oi = p.Next(tgt, nil, 0)
	if oi != DelayOrder || sc.From != 150 || sc.Horizon != 20 {
		t.Fatalf("after 150 schedules: order %d, schedule %+v, want the enumeration resumed at 150 over 20", oi, sc)
	}
	p.Record(tgt, oi, &harness.SchedResult{Iters: 0, Next: 150, Horizon: 20}, true)
	if sc, _ = p.Next(tgt, nil, 0); sc.From != 151 {
		t.Fatalf("after a test that failed at its first schedule: from %d, want 151", sc.From)
	}
	p.Record(tgt, DelayOrder, &harness.SchedResult{Iters: 270, Next: 421, Horizon: 20, Exhausted: true, DelayBound: 2}, false)
	ps := p.schedFor(tgt)
	if !ps.delayDone || ps.delayBound != 2 || p.pctNeeded(ps) != pctAfterDelay {
		t.Errorf("exhausted: done %v, bound %d, PCT needed %d; want done, bound 2, %d", ps.delayDone, ps.delayBound,
			p.pctNeeded(ps), pctAfterDelay)
	}
	other := &testgen.Target{M1: "Put", M2: "Put", Pair: &deps.Pair{M1: "Put", M2: "Put"}}
	for i := 0; i < maxDelayTests; i++ {
		p.Record(other, DelayOrder, &harness.SchedResult{Iters: 10, Next: 10 * (i + 1), Horizon: 30}, false)
	}
	if ps := p.schedFor(other); !ps.delayDone || ps.delayBound != 0 {
		t.Errorf("after %d tests cut short: done %v, bound %d; want left, bound 0", maxDelayTests, ps.delayDone, ps.delayBound)
	}
}

// TestPCTRunsFor checks the PCT runs a pair needs to be saturated: PCT's
// bound for a bug of depth d among k hook calls, at a 5% miss, within
// [minPCTRuns, maxPCTRuns]; an unknown horizon counts as 20 hook calls,
// as the harness's.
func TestPCTRunsFor(t *testing.T) {
	for _, tc := range []struct{ k, d, want int }{
		{5, 3, minPCTRuns},  // 149 runs would do
		{20, 3, maxPCTRuns}, // 1 in 800 per run: 2,396 would do
		{0, 3, maxPCTRuns},  // not seen yet: 20
		{12, 3, 862},        // 1 in 288
		{15, 3, 1347},       // 1 in 450
		{40, 3, maxPCTRuns}, // 9,585 runs would do
		{40, 1, minPCTRuns},
	} {
		if got := pctRunsFor(tc.k, tc.d); got != tc.want {
			t.Errorf("pctRunsFor(%d, %d) = %d, want %d", tc.k, tc.d, got, tc.want)
		}
	}
}

// TestRecord checks the coverage the tests of a targeted order leave: a
// test whose child died counts as tried and failed; one with a result
// adds its iterations, those forced and why the others were not, and
// reached the holds when some iteration did.
func TestRecord(t *testing.T) {
	tgt := &testgen.Target{M1: "Get", M2: "Put", Pair: &deps.Pair{M1: "Get", M2: "Put"}}
	p := New(Config{Scheduler: All})
	p.scheds[tgt] = &pairSched{orders: []Order{{Name: "b·a"}},
		cov: []orderCov{{OrderCoverage: report.OrderCoverage{Order: "b·a", Why: map[string]int{}}}}}
	p.Record(tgt, 0, nil, true)
	p.Record(tgt, 0, &harness.SchedResult{Iters: 10, Forced: 7, Why: map[string]int{harness.WhyNotReached: 3}}, false)
	c := p.scheds[tgt].cov[0]
	if c.Tests != 2 || c.Failed != 1 || c.Iters != 10 || c.Forced != 7 || c.Why[harness.WhyNotReached] != 3 || c.reached != 1 {
		t.Errorf("coverage %+v, want 2 tests, 1 failed, 7 of 10 forced, 3 not reached", c)
	}
	p.Record(tgt, 0, &harness.SchedResult{Iters: 10, Why: map[string]int{harness.WhyNotReached: 10}}, false)
	if c := p.scheds[tgt].cov[0]; c.reached != 1 {
		t.Errorf("after a test no iteration of which reached the holds: reached in %d tests, want 1", c.reached)
	}
}
