package harness

import (
	"math/rand"
	"sync/atomic"
	"time"
)

// An iteration is the scheduler's state during one iteration.
type iteration struct {
	s       *scheduler
	open    [2][]reached    // sites each has reached and not yet gone past, innermost last
	past    [2]map[int]bool // sites each has gone past
	depth   [2]int          // locks held
	locks   [2]int          // acquisitions made
	blocked [2]bool         // parked on a lock (see parking)
	// parking marks a goroutine that found a lock taken and was let go
	// to wait for it, until the runtime shows it parked (or it gets the
	// lock): only then does it count as blocked, so that a goroutine
	// held until the other blocks does not run into the lock first.
	parking  [2]bool
	parkSeq  [2]int // the evWait a parking goroutine is at
	waits    [2]int // evWait events
	finished [2]bool
	waiting  [2]bool // kept at a hook
	since    [2]time.Time
	holdOf   [2]int  // the hold a waiting goroutine is kept by, -1 for PCT, handoff
	trail    [2]bool // a goroutine whose next hook waits for the other (handoff)
	fired    []bool
	outcome  []int
	steps    int
	// PCT
	pct     bool
	prio    [2]int
	change  map[int]int // step → the new priority of the goroutine making it
	changed map[int]bool
	away    [2]bool // did not reach a hook within the patience
}

func newIteration(s *scheduler, n, horizon int) *iteration {
	it := &iteration{s: s, holdOf: [2]int{-1, -1}, fired: make([]bool, len(s.sched.Holds)),
		outcome: make([]int, len(s.sched.Holds))}
	it.past[0], it.past[1] = map[int]bool{}, map[int]bool{}
	if s.sched.Kind == SchedDelay {
		it.pct = true
		it.change, it.changed = map[int]int{}, map[int]bool{}
		first, points, _ := delayPoints(n, horizon, s.sched.Depth)
		it.prio[first], it.prio[1-first] = 2, 1
		for i, k := range points {
			it.change[k] = -i // each delay drops the running goroutine below the other
		}
		return it
	}
	if s.sched.Kind == SchedPCT {
		it.pct = true
		rng := rand.New(rand.NewSource(int64(s.sched.Seed) + int64(n)*7919))
		d := s.sched.Depth
		if d < 1 {
			d = 1
		}
		it.prio = [2]int{d + 1, d + 2}
		if rng.Intn(2) == 0 {
			it.prio = [2]int{d + 2, d + 1}
		}
		if horizon < 4 {
			horizon = 20
		}
		it.change, it.changed = map[int]int{}, map[int]bool{}
		for i := 1; i < d; i++ {
			it.change[1+rng.Intn(horizon)] = d - i
		}
	}
	return it
}

// A reached site: a site and the depth of the hook there.
type reached struct{ site, depth int }

// on handles one event.
func (it *iteration) on(e event) {
	g, o := e.g, 1-e.g
	if e.kind == evParked {
		if it.parking[g] && it.parkSeq[g] == e.seq {
			it.parked(g)
		}
		return
	}
	if e.kind != evFinished && e.kind != evWaited {
		it.reach(g, e)
		it.away[g] = false
	}
	switch e.kind {
	case evPoint, evUnlocked:
		it.steps++
		if e.kind == evUnlocked && it.depth[g] > 0 {
			it.depth[g]--
		}
	case evLocked:
		it.steps++
		it.depth[g]++
		it.locks[g]++
	case evWait:
		it.waits[g]++
		it.parking[g], it.parkSeq[g] = true, it.waits[g]
		select {
		case it.s.watches <- watch{g: g, id: int(atomic.LoadInt64(&it.s.ids[g])), seq: it.waits[g],
			deadline: time.Now().Add(it.s.sched.Patience)}:
		default: // the watcher is behind: take it as parked
			it.parked(g)
		}
		it.release(g)
		return
	case evWaited:
		it.parking[g], it.blocked[g] = false, false
	case evFinished:
		for _, r := range it.open[g] {
			it.past[g][r.site] = true
		}
		it.open[g] = nil
		it.finished[g] = true
	}
	if it.pct {
		if p, ok := it.change[it.steps]; ok && !it.changed[it.steps] &&
			(e.kind == evPoint || e.kind == evLocked || e.kind == evUnlocked) {
			it.prio[g] = p
			it.changed[it.steps] = true
		}
	}
	// The other goroutine may be waiting for what g just did.
	if it.waiting[o] {
		it.recheck(o)
	}
	switch e.kind {
	case evFinished:
		return
	case evWaited:
		it.release(g)
		return
	}
	if it.pct {
		it.pctStep(g)
		return
	}
	it.targetedStep(g, e)
}

// parked records that goroutine g, let go at a lock it found taken,
// is now parked on it: the other goroutine may be waiting for that.
func (it *iteration) parked(g int) {
	o := 1 - g
	it.parking[g], it.blocked[g] = false, true
	if it.waiting[o] {
		it.recheck(o)
	}
	// Both managed goroutines wait for locks, and one of them holds one:
	// they may wait for each other. (When neither holds a lock, a third
	// goroutine does, a timer's say, and may release it: the watchdog
	// decides.)
	if it.blocked[o] && !it.finished[o] && (it.depth[g] > 0 || it.depth[o] > 0) {
		select {
		case it.s.kick <- struct{}{}:
		default:
		}
	}
}

// targetedStep decides whether g waits at this hook.
func (it *iteration) targetedStep(g int, e event) {
	o := 1 - g
	if it.trail[g] {
		it.trail[g] = false
		if !it.finished[o] && !it.blocked[o] && !it.waiting[o] {
			it.waiting[g], it.since[g], it.holdOf[g] = true, time.Now(), handoff
			return
		}
	}
	for i, h := range it.s.sched.Holds {
		if h.G != g || it.fired[i] || !it.matches(h, g, e) {
			continue
		}
		it.fired[i] = true
		if out := it.settled(h, o); out != outNone { // the order holds already, or cannot be forced
			it.outcome[i] = out
			continue
		}
		it.waiting[g], it.since[g], it.holdOf[g] = true, time.Now(), i
		if it.waiting[o] {
			// The other may be kept until g is (UntilHeld): let it go
			// then. If it still waits, neither can go on.
			it.recheck(o)
			it.trail[g] = false
			if it.waiting[o] {
				it.waiting[g], it.holdOf[g] = false, -1
				it.outcome[i] = outBothHeld
				continue
			}
		}
		return
	}
	it.release(g)
}

// settled returns how hold h ends now, given the other goroutine o:
// forced when o meets its Until conditions, let go when o finished or
// blocked, outNone while it must go on waiting.
func (it *iteration) settled(h Hold, o int) int {
	switch {
	case it.until(h, o):
		return outForced
	case it.finished[o]:
		return outFinished
	case it.blocked[o]:
		return outBlocked
	}
	return outNone
}

// reach records that g reached e's site: the sites it reached before in
// the same frame or in deeper ones (the calls of a statement, a function
// that returned) are now gone past; those of its callers are not, as the
// statement that called is still running.
func (it *iteration) reach(g int, e event) {
	open := it.open[g]
	for len(open) > 0 && open[len(open)-1].depth >= e.depth {
		it.past[g][open[len(open)-1].site] = true
		open = open[:len(open)-1]
	}
	it.open[g] = append(open, reached{e.site, e.depth})
}

// matches reports whether g's event meets the conditions of hold h.
func (it *iteration) matches(h Hold, g int, e event) bool {
	if e.kind != evPoint && e.kind != evLocked && e.kind != evUnlocked {
		return false
	}
	return (h.At == 0 || h.At == e.site) && (h.Past == 0 || it.past[g][h.Past]) &&
		(!h.Free || it.depth[g] == 0) && (h.Depth == 0 || e.kind == evLocked && it.depth[g] == h.Depth)
}

// until reports whether goroutine o meets hold h's Until conditions.
func (it *iteration) until(h Hold, o int) bool {
	if h.UntilSite == 0 && !h.UntilLock && !h.UntilBlocked && !h.UntilHeld {
		return it.finished[o]
	}
	return (h.UntilSite == 0 || it.past[o][h.UntilSite]) && (!h.UntilLock || it.locks[o] > 0) &&
		(!h.UntilBlocked || it.blocked[o]) && (!h.UntilHeld || it.waiting[o] && it.holdOf[o] >= 0)
}

// recheck releases the waiting goroutine w when the other meets its
// hold's conditions, finished or blocked.
func (it *iteration) recheck(w int) {
	o := 1 - w
	if it.pct {
		if it.finished[o] || it.blocked[o] || it.prio[w] > it.prio[o] {
			it.release(w)
		}
		return
	}
	i := it.holdOf[w]
	if i == handoff {
		if it.finished[o] || it.blocked[o] {
			it.release(w)
		}
		return
	}
	out := it.settled(it.s.sched.Holds[i], o)
	if out == outNone {
		return
	}
	it.outcome[i] = out
	if out == outForced {
		// The order is forced: o, which just went past its site, now
		// waits at this hook for w to finish (or block), so that what
		// follows runs in that order too, not as a race.
		it.trail[o] = true
	}
	it.release(w)
}

// pctStep lets g go on while it has the higher priority among the
// goroutines that can run, and hands over to the other otherwise.
func (it *iteration) pctStep(g int) {
	o := 1 - g
	if it.finished[o] || it.blocked[o] || it.away[o] || it.prio[g] > it.prio[o] {
		it.release(g)
		return
	}
	it.waiting[g], it.since[g] = true, time.Now()
	if it.waiting[o] {
		it.release(o)
	}
}

// release lets goroutine g go on.
func (it *iteration) release(g int) {
	it.waiting[g] = false
	it.holdOf[g] = -1
	it.s.resume[g] <- struct{}{}
}

// releaseAll lets every waiting goroutine go on.
func (it *iteration) releaseAll() {
	for g := 0; g < 2; g++ {
		if it.waiting[g] {
			it.release(g)
		}
	}
}

// nextDeadline returns when the patience of a waiting goroutine ends.
func (it *iteration) nextDeadline() (time.Time, bool) {
	var d time.Time
	ok := false
	for g := 0; g < 2; g++ {
		if it.waiting[g] {
			t := it.since[g].Add(it.s.sched.Patience)
			if !ok || t.Before(d) {
				d, ok = t, true
			}
		}
	}
	return d, ok
}

// timeout lets go the goroutines whose patience ran out.
func (it *iteration) timeout() {
	now := time.Now()
	for g := 0; g < 2; g++ {
		if !it.waiting[g] || now.Sub(it.since[g]) < it.s.sched.Patience {
			continue
		}
		if it.pct {
			it.away[1-g] = true
		} else if i := it.holdOf[g]; i >= 0 {
			it.outcome[i] = outPatience
		}
		it.release(g)
	}
}

// result sums up the iteration.
func (it *iteration) result() iterResult {
	r := iterResult{forced: true, steps: it.steps}
	for i := range it.outcome {
		out := it.outcome[i]
		switch {
		case !it.fired[i]:
			out = outNotReached
		case out == outNone: // still kept at the end
			out = outPatience
		}
		if out != outForced && r.forced {
			r.forced, r.why = false, out
		}
	}
	return r
}
