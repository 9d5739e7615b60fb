package harness

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// Traced is a type whose methods call the hooks the way the rewritten
// package does, and record the order of their critical sections.
type Traced struct {
	mu  sync.Mutex
	log []string
}

// Check does two critical sections (sites 1–6); it panics when Act's
// section ran between them: the atomicity order a1·b·a2.
func (t *Traced) Check() {
	t.lock(1)
	t.log = append(t.log, "a1")
	t.unlock(3)
	Point(4)
	t.lock(5)
	if strings.Join(t.log, " ") == "a1 b" {
		t.unlock(7)
		panic("a1 b a2")
	}
	t.log = append(t.log, "a2")
	t.unlock(7)
}

// Act does one critical section (sites 11–13).
func (t *Traced) Act() {
	t.lock(11)
	t.log = append(t.log, "b")
	t.unlock(13)
}

func (t *Traced) lock(site int)   { hookedLock(&t.mu, site) }
func (t *Traced) unlock(site int) { hookedUnlock(&t.mu, site) }

// hookedLock takes mu as the rewritten code does: Point(site), a TryLock
// or Wait(site), Locked(site+1).
func hookedLock(mu *sync.Mutex, site int) {
	Point(site)
	if !mu.TryLock() {
		Wait(site, mu.Lock)
	}
	Locked(site + 1)
}

// hookedUnlock releases mu as the rewritten code does.
func hookedUnlock(mu *sync.Mutex, site int) {
	mu.Unlock()
	Unlocked(site)
}

// Pair locks its own mutex, then the other's (sites 21–23, 24–26).
type Pair struct{ mu sync.Mutex }

func (p *Pair) Swap(q *Pair) {
	Point(21)
	p.mu.Lock()
	Locked(22)
	Point(24)
	if !q.mu.TryLock() {
		Wait(24, q.mu.Lock)
	}
	Locked(25)
	q.mu.Unlock()
	Unlocked(26)
	p.mu.Unlock()
	Unlocked(23)
}

// Helped checks and acts through helpers that take the lock themselves,
// the way a rewritten Sell calls Open and take: the hook of the statement
// that calls open (31) comes before open's own hooks (32–34).
type Helped struct {
	mu sync.Mutex
	n  int
}

// Sell panics when Recall emptied the stock between its check and act.
func (h *Helped) Sell() {
	Point(31)
	if !h.open() {
		return
	}
	Point(36)
	h.take()
}

func (h *Helped) open() bool {
	h.lock(32)
	ok := h.n > 0
	h.unlock(34)
	return ok
}

func (h *Helped) take() {
	h.lock(37)
	defer h.unlock(39)
	if h.n == 0 {
		panic("take from an empty stock")
	}
	h.n--
}

// Recall empties the stock (sites 41–43).
func (h *Helped) Recall() {
	h.lock(41)
	h.n = 0
	h.unlock(43)
}

func (h *Helped) lock(site int)   { hookedLock(&h.mu, site) }
func (h *Helped) unlock(site int) { hookedUnlock(&h.mu, site) }

// Reader read-locks stats for a short unrelated section (sites 51–53),
// then read-locks mu (54–56) and, at 57, read-locks mu again (58–60)
// when nested: a writer that queues between the two read locks of mu
// deadlocks with it.
type Reader struct {
	stats, mu sync.RWMutex
	nested    bool
}

func (r *Reader) Describe() {
	hookedRLock(&r.stats, 51)
	hookedRUnlock(&r.stats, 53)
	hookedRLock(&r.mu, 54)
	Point(57)
	if r.nested {
		hookedRLock(&r.mu, 58)
		hookedRUnlock(&r.mu, 60)
	}
	hookedRUnlock(&r.mu, 56)
}

// Set write-locks mu (sites 61–63).
func (r *Reader) Set() {
	Point(61)
	if !r.mu.TryLock() {
		Wait(61, r.mu.Lock)
	}
	Locked(62)
	r.mu.Unlock()
	Unlocked(63)
}

func hookedRLock(mu *sync.RWMutex, site int) {
	Point(site)
	if !mu.TryRLock() {
		Wait(site, mu.RLock)
	}
	Locked(site + 1)
}

func hookedRUnlock(mu *sync.RWMutex, site int) {
	mu.RUnlock()
	Unlocked(site)
}

func schedRegistry() *Registry {
	r := NewRegistry()
	r.RegisterType("Reader", func() any { return &Reader{nested: true} })
	r.RegisterType("FlatReader", func() any { return &Reader{} })
	r.RegisterType("Traced", func() any { return new(Traced) })
	r.RegisterType("Pair", func() any { return new(Pair) })
	r.RegisterType("Helped", func() any { return &Helped{n: 1} })
	return r
}

// TestTargetedPastAStatementThatCalls checks that a goroutine goes past
// a site only when it reaches a hook in the site's frame or a caller's:
// Sell is held after its check (the statement at 31, whose call runs
// hooks 32–34 first), not inside it, so Recall runs between the check and
// the act and take panics.
func TestTargetedPastAStatementThatCalls(t *testing.T) {
	req := Request{Op: OpRun, Test: Test{Type: "Helped", Objects: []Call{{}},
		Suffix: []Call{{Fn: "Sell"}, {Fn: "Recall"}}, Iters: 10},
		Sched: &Schedule{Kind: SchedTargeted, Patience: time.Second,
			Holds: []Hold{{G: 0, Past: 31, Free: true}, {G: 1, UntilSite: 31}}}}
	res, _ := do(t, schedRegistry(), req)
	if res.Status != StatusPanic || res.Msg != "take from an empty stock" || res.Iter != 0 {
		t.Fatalf("status %s %q at iteration %d, want take's panic at iteration 0", res.Status, res.Msg, res.Iter)
	}
}

func TestTargetedAtomicityOrder(t *testing.T) {
	req := Request{Op: OpRun, Test: Test{Type: "Traced", Objects: []Call{{}},
		Suffix: []Call{{Fn: "Check"}, {Fn: "Act"}}, Iters: 20}}
	// Without a schedule, Act almost never lands between Check's two
	// sections; the order is forced by keeping Act at its first hook
	// until Check has gone past its first acquisition (site 2), and
	// Check, once past it and holding no lock, until Act has gone past
	// its own (site 12).
	req.Sched = &Schedule{Kind: SchedTargeted, Patience: time.Second,
		Holds: []Hold{{G: 0, Past: 2, Free: true, UntilSite: 12}, {G: 1, UntilSite: 2}}}
	res, _ := do(t, schedRegistry(), req)
	if res.Status != StatusPanic || res.Msg != "a1 b a2" || res.Iter != 0 {
		t.Fatalf("status %s %q at iteration %d, want the panic a1 b a2 at iteration 0", res.Status, res.Msg, res.Iter)
	}
	if res.Sched == nil || res.Sched.Iters != 1 || res.Sched.Forced != 1 {
		t.Errorf("sched result %+v, want one forced iteration", res.Sched)
	}
}

func TestTargetedOtherOrderIsCovered(t *testing.T) {
	// Act first: keep Check at its first hook until Act has gone past
	// its acquisition. Check then runs both sections: no panic.
	req := Request{Op: OpRun, Test: Test{Type: "Traced", Objects: []Call{{}},
		Suffix: []Call{{Fn: "Check"}, {Fn: "Act"}}, Iters: 10},
		Sched: &Schedule{Kind: SchedTargeted, Patience: time.Second, Holds: []Hold{{G: 0, UntilSite: 12}}}}
	res, _ := do(t, schedRegistry(), req)
	if res.Status != StatusOK {
		t.Fatalf("status %s %q, want ok", res.Status, res.Msg)
	}
	if res.Sched.Iters != 10 || res.Sched.Forced != 10 {
		t.Errorf("sched result %+v, want 10 forced iterations", res.Sched)
	}
}

func TestTargetedHoldLetGo(t *testing.T) {
	// A hold whose goroutine never gets there: Act has no site 5.
	req := Request{Op: OpRun, Test: Test{Type: "Traced", Objects: []Call{{}},
		Suffix: []Call{{Fn: "Act"}, {Fn: "Act"}}, Iters: 3},
		Sched: &Schedule{Kind: SchedTargeted, Patience: time.Second, Holds: []Hold{{G: 0, At: 5, UntilSite: 12}}}}
	res, _ := do(t, schedRegistry(), req)
	if res.Status != StatusOK || res.Sched.Forced != 0 || res.Sched.Why[WhyNotReached] != 3 {
		t.Fatalf("status %s, sched %+v, want ok and 3 iterations not reached", res.Status, res.Sched)
	}
}

func TestDoubleLockHoldsDeadlockAtOnce(t *testing.T) {
	// Each goroutine is kept right after its first acquisition until
	// the other has one: both then block on the second lock, which the
	// scheduler sees at once (no watchdog of a minute needed).
	req := Request{Op: OpRun, Watchdog: time.Minute, HardCap: 2 * time.Minute, Test: Test{Type: "Pair",
		Objects: []Call{{}, {}},
		Suffix:  []Call{{Recv: 0, Fn: "Swap", Args: []Value{{K: KObj, Obj: 1}}}, {Recv: 1, Fn: "Swap", Args: []Value{{K: KObj, Obj: 0}}}},
		Iters:   5},
		Sched: &Schedule{Kind: SchedTargeted, Patience: time.Second, Holds: []Hold{
			{G: 0, Depth: 1, UntilLock: true}, {G: 1, Depth: 1, UntilLock: true}}}}
	start := time.Now()
	res, _ := do(t, schedRegistry(), req)
	if res.Status != StatusHang || res.Iter != 0 || !LockWait(res.Waits[0]) || !LockWait(res.Waits[1]) {
		t.Fatalf("status %s at iteration %d, waits %q, want a hang in two lock waits at iteration 0", res.Status, res.Iter, res.Waits)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the deadlock took %v to be seen, want it seen without waiting for the watchdog", d)
	}
}

// TestReadWriteReadHold checks the r·w·r order: the reader is kept at
// its nested read lock (57) until the writer is parked on its Lock, and
// the writer is kept until the reader is kept there, however long the
// reader's unrelated first section takes. Every iteration deadlocks at
// once; the reader that does not nest finishes under the same holds.
func TestReadWriteReadHold(t *testing.T) {
	holds := []Hold{{G: 0, At: 57, UntilBlocked: true}, {G: 1, UntilHeld: true}}
	req := func(typ string) Request {
		return Request{Op: OpRun, Watchdog: time.Minute, HardCap: 2 * time.Minute, Test: Test{Type: typ,
			Objects: []Call{{}}, Suffix: []Call{{Fn: "Describe"}, {Fn: "Set"}}, Iters: 20},
			Sched: &Schedule{Kind: SchedTargeted, Patience: time.Second, Holds: holds}}
	}
	start := time.Now()
	res, _ := do(t, schedRegistry(), req("Reader"))
	if res.Status != StatusHang || res.Iter != 0 || !LockWait(res.Waits[0]) || !LockWait(res.Waits[1]) {
		t.Fatalf("status %s at iteration %d, waits %q, want a hang in two lock waits at iteration 0", res.Status, res.Iter, res.Waits)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the deadlock took %v to be seen, want it seen without waiting for the watchdog", d)
	}
	res, _ = do(t, schedRegistry(), req("FlatReader"))
	if res.Status != StatusOK || res.Sched.Forced != 20 {
		t.Fatalf("status %s, sched %+v, want ok with the order forced in all 20 iterations", res.Status, res.Sched)
	}
}

func TestPCTRuns(t *testing.T) {
	for depth := 1; depth <= 3; depth++ {
		req := Request{Op: OpRun, Test: Test{Type: "Traced", Objects: []Call{{}},
			Suffix: []Call{{Fn: "Act"}, {Fn: "Act"}}, Iters: 30},
			Sched: &Schedule{Kind: SchedPCT, Seed: 7, Depth: depth, Patience: 50 * time.Millisecond}}
		res, _ := do(t, schedRegistry(), req)
		if res.Status != StatusOK || res.Sched.Iters != 30 || res.Sched.Steps != 6 {
			t.Errorf("depth %d: status %s %q, sched %+v, want ok, 30 iterations of 6 steps", depth, res.Status, res.Msg, res.Sched)
		}
	}
}

func TestPCTFindsAtomicityViolation(t *testing.T) {
	// With depth 2, some iteration switches from Check to Act between
	// Check's sections.
	req := Request{Op: OpRun, Test: Test{Type: "Traced", Objects: []Call{{}},
		Suffix: []Call{{Fn: "Check"}, {Fn: "Act"}}, Iters: 200},
		Sched: &Schedule{Kind: SchedPCT, Seed: 1, Depth: 2, Patience: 50 * time.Millisecond}}
	res, _ := do(t, schedRegistry(), req)
	if res.Status != StatusPanic || res.Msg != "a1 b a2" {
		t.Fatalf("status %s %q, want the panic a1 b a2", res.Status, res.Msg)
	}
}

// Gate lets calls through once opened (sites 31–44).
type Gate struct {
	mu   sync.Mutex
	open bool
	n    int
}

func (g *Gate) Open() {
	Point(31)
	g.mu.Lock()
	Locked(32)
	g.open = true
	g.mu.Unlock()
	Unlocked(33)
}

func (g *Gate) Noop() {}

func (g *Gate) Pass() {
	Point(41)
	g.mu.Lock()
	Locked(42)
	if g.open {
		Point(43)
		g.n++
	}
	g.mu.Unlock()
	Unlocked(44)
}

func TestTraceKeepsPrefixCallsThatChangeBranches(t *testing.T) {
	r := schedRegistry()
	r.RegisterType("Gate", func() any { return new(Gate) })
	req := Request{Op: OpTrace, Test: Test{Type: "Gate", Objects: []Call{{}},
		Prefix: []Call{{Fn: "Noop"}, {Fn: "Open"}, {Fn: "Noop"}, {Fn: "Open"}},
		Suffix: []Call{{Fn: "Pass"}, {Fn: "Pass"}}}}
	res, _ := do(t, r, req)
	if res.Status != StatusOK || len(res.Kept) != 1 || res.Kept[0] != 1 {
		t.Fatalf("status %s %q, kept %v: want the first Open only (1)", res.Status, res.Msg, res.Kept)
	}
}

// TestTraceReached checks the sites a trace says each suffix call
// reaches: in either order of the two, so that Pass gets past the open
// gate (43) when Open runs first.
func TestTraceReached(t *testing.T) {
	r := schedRegistry()
	r.RegisterType("Gate", func() any { return new(Gate) })
	req := Request{Op: OpTrace, Test: Test{Type: "Gate", Objects: []Call{{}}, Suffix: []Call{{Fn: "Pass"}, {Fn: "Open"}}}}
	res, _ := do(t, r, req)
	if res.Status != StatusOK || fmt.Sprint(res.Reached) != "[[41 42 43 44] [31 32 33]]" {
		t.Errorf("status %s %q, reached %v: want Pass at 41–44 and Open at 31–33", res.Status, res.Msg, res.Reached)
	}
}

// Latch's Wait blocks until Done is called.
type Latch struct{ ch chan struct{} }

func (l *Latch) Done() { close(l.ch) }

func (l *Latch) Wait() { <-l.ch }

// TestTraceSwappedBlocks checks that a trace whose second order leaves a
// call blocked (Wait before the Done it waits for) says so, for the
// driver to replace the child, instead of leaving the goroutine behind.
func TestTraceSwappedBlocks(t *testing.T) {
	r := schedRegistry()
	r.RegisterType("Latch", func() any { return &Latch{ch: make(chan struct{})} })
	req := Request{Op: OpTrace, Watchdog: 50 * time.Millisecond,
		Test: Test{Type: "Latch", Objects: []Call{{}}, Suffix: []Call{{Fn: "Done"}, {Fn: "Wait"}}}}
	res, _ := do(t, r, req)
	if res.Status != StatusBlocked && res.Status != StatusRunning {
		t.Errorf("status %s %q, want the blocked Wait of the swapped order", res.Status, res.Msg)
	}
}

func TestDelayPointsEnumeration(t *testing.T) {
	seen := map[string]bool{}
	n := 0
	for ; ; n++ {
		first, points, ok := delayPoints(n, 4, 2)
		if !ok {
			break
		}
		key := fmt.Sprint(first, points)
		if seen[key] {
			t.Errorf("schedule %s twice", key)
		}
		seen[key] = true
	}
	// One without delays, 2·4 with one delay, 2·(4·3/2) with two.
	if n != 1+8+12 {
		t.Errorf("%d schedules, want 21", n)
	}
	k := maxDelayHorizon2 + 1
	if _, _, ok := delayPoints(1+2*k, k, 2); ok {
		t.Errorf("bound 2 enumerated over %d hook calls, want bound 1 only beyond %d", k, maxDelayHorizon2)
	}
	for _, tc := range []struct{ k, depth, want int }{
		{4, 2, 2}, {maxDelayHorizon2, 2, 2}, {maxDelayHorizon2, 1, 1}, {k, 2, 1}, {maxDelayHorizon1 + 1, 2, 0},
	} {
		n := 0
		for ; ; n++ {
			if _, _, ok := delayPoints(n, tc.k, tc.depth); !ok {
				break
			}
		}
		if got := delayBound(tc.k, tc.depth); got != tc.want {
			t.Errorf("delayBound(%d, %d) = %d, want %d (%d schedules enumerated)", tc.k, tc.depth, got, tc.want, n)
		}
	}
}

func TestDelayBoundedFindsAtomicityViolation(t *testing.T) {
	// Check's two sections are split by Act with one delay: found
	// before the enumeration ends, whatever the Go scheduler does.
	req := Request{Op: OpRun, Test: Test{Type: "Traced", Objects: []Call{{}},
		Suffix: []Call{{Fn: "Check"}, {Fn: "Act"}}, Iters: 1000},
		Sched: &Schedule{Kind: SchedDelay, Depth: 2, Patience: 50 * time.Millisecond}}
	res, _ := do(t, schedRegistry(), req)
	if res.Status != StatusPanic || res.Msg != "a1 b a2" {
		t.Fatalf("status %s %q, want the panic a1 b a2", res.Status, res.Msg)
	}
	// Act alone against itself never fails: the enumeration ends.
	req.Test.Suffix = []Call{{Fn: "Act"}, {Fn: "Act"}}
	res, _ = do(t, schedRegistry(), req)
	if res.Status != StatusOK || !res.Sched.Exhausted || res.Sched.DelayBound != 2 || res.Sched.Iters != 1+2*6+6*5 {
		t.Errorf("status %s, sched %+v: want ok after the 43 schedules of 6 hook calls", res.Status, res.Sched)
	}
	// Cut after 10 schedules, the enumeration is resumed where it was
	// left, over the hook calls it measured.
	req.Test.Iters = 10
	res, _ = do(t, schedRegistry(), req)
	if res.Sched.Exhausted || res.Sched.Next != 10 || res.Sched.Horizon != 6 {
		t.Fatalf("sched %+v after 10 iterations: want next 10 over 6 hook calls", res.Sched)
	}
	req.Test.Iters = 1000
	req.Sched.From, req.Sched.Horizon = res.Sched.Next, res.Sched.Horizon
	res, _ = do(t, schedRegistry(), req)
	if res.Status != StatusOK || !res.Sched.Exhausted || res.Sched.DelayBound != 2 || res.Sched.Iters != 43-10 {
		t.Errorf("status %s, sched %+v: want the 33 schedules left", res.Status, res.Sched)
	}
}

func TestTraceKeepsUntracedCallsPastMaxTime(t *testing.T) {
	r := schedRegistry()
	r.RegisterType("Gate", func() any { return new(Gate) })
	req := Request{Op: OpTrace, MaxTime: time.Nanosecond, Test: Test{Type: "Gate", Objects: []Call{{}},
		Prefix: []Call{{Fn: "Noop"}, {Fn: "Open"}, {Fn: "Noop"}},
		Suffix: []Call{{Fn: "Pass"}, {Fn: "Pass"}}}}
	res, _ := do(t, r, req)
	if res.Status != StatusOK || len(res.Kept) != 3 {
		t.Fatalf("status %s, kept %v: want every call kept when there is no time to trace", res.Status, res.Kept)
	}
}

// Slow waits on a timer (sites 71–72); Held has two points (81–82).
type Slow struct{}

func (Slow) Wait() {
	Point(71)
	<-time.After(300 * time.Millisecond)
	Point(72)
}

func (Slow) Held() {
	Point(81)
	Point(82)
}

func TestHeldGoroutineIsNotBlocked(t *testing.T) {
	// Held is kept at its first hook until Wait finishes; Wait waits on
	// a timer the scheduler does not see. With a 50-ms watchdog, two
	// dumps find them still, but a goroutine kept by the scheduler is
	// not blocked: no hang.
	r := schedRegistry()
	r.RegisterType("Slow", func() any { return new(Slow) })
	req := Request{Op: OpRun, Watchdog: 50 * time.Millisecond, HardCap: time.Minute,
		Test:  Test{Type: "Slow", Objects: []Call{{}}, Suffix: []Call{{Fn: "Held"}, {Fn: "Wait"}}, Iters: 1},
		Sched: &Schedule{Kind: SchedTargeted, Patience: 5 * time.Second, Holds: []Hold{{G: 0, At: 81}}}}
	res, _ := do(t, r, req)
	if res.Status != StatusOK || res.Sched.Forced != 1 {
		t.Fatalf("status %s (waits %q), sched %+v: want ok, the hold met when Wait returned", res.Status, res.Waits, res.Sched)
	}
}

// TestSuffixOf: a goroutine making a suffix call through invokeAs is
// that call's, whatever its depth in the call; a goroutine the call
// starts, and the harness's own, are neither.
func TestSuffixOf(t *testing.T) {
	var inner, started int
	var deep func(n int) int
	deep = func(n int) int {
		if n == 0 {
			return suffixOf()
		}
		return deep(n - 1)
	}
	fn := reflect.ValueOf(func() {
		inner = deep(100) // past the first 64 frames
		done := make(chan int)
		go func() { done <- suffixOf() }()
		started = <-done
	})
	for g := 0; g < 2; g++ {
		inner, started = -2, -2
		ch := make(chan struct{})
		go func() {
			defer close(ch)
			invokeAs(g, fn, nil)
		}()
		<-ch
		if inner != g || started != -1 {
			t.Errorf("call %d: suffixOf = %d in the call, %d in a goroutine it started; want %d, -1", g, inner, started, g)
		}
	}
	if got := suffixOf(); got != -1 {
		t.Errorf("suffixOf in the test's goroutine = %d, want -1", got)
	}
}
