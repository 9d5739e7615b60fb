package harness

import (
	"runtime"
	"sync/atomic"
	"time"
)

// The scheduler of a scheduled test (Request.Sched) decides, at the hooks
// of the rewritten package, which of the two suffix goroutines goes on.
//
// It runs in a goroutine of its own that owns all its state; a managed
// goroutine at a hook sends it an event and waits for its answer. Every
// handoff happens with the race detector's synchronisation events
// disabled (raceDisable), on both sides: a goroutine kept waiting and
// then released gains no happens-before edge the program does not have,
// so a race between the two goroutines is reported under every schedule.
// For the same reason, the state other goroutines may read (the current
// scheduler, the managed goroutines' IDs) is only accessed atomically.

// handoff stands for a hold index: the goroutine waits for the other,
// which a forced order released, to finish or block.
const handoff = -2

// Event kinds.
const (
	evPoint = iota + 1
	evLocked
	evUnlocked
	evWait     // about to block on a lock
	evWaited   // got the lock after blocking
	evFinished // the suffix call returned
	evParked   // the scheduler's watcher saw a goroutine parked after evWait
)

// An event is a hook call (or the end of a call) of managed goroutine g.
// depth is the number of frames on g's stack at the hook, inlined ones
// included: a site counts as gone past once g reaches a hook in the same
// frame or a caller's, not at the hooks of the calls the site's
// statement makes.
// seq numbers the evWait events of a goroutine, and tells which one an
// evParked is about.
type event struct{ g, kind, site, depth, seq int }

// Outcomes of a hold, after the Why constants.
const (
	outNone = iota
	outForced
	outNotReached
	outFinished
	outBlocked
	outPatience
	outBothHeld
)

// whyOf returns the Why text of an outcome. (The harness uses no
// package-level name as a composite literal key.)
func whyOf(out int) string {
	switch out {
	case outNotReached:
		return WhyNotReached
	case outFinished:
		return WhyFinished
	case outBlocked:
		return WhyBlocked
	case outPatience:
		return WhyPatience
	case outBothHeld:
		return WhyBothHeld
	}
	return ""
}

// A scheduler runs the schedule of one request.
type scheduler struct {
	ids    [2]int64 // the managed goroutines, -1 between iterations
	sched  Schedule
	events chan event
	resume [2]chan struct{}
	ctl    chan int // ctlStart, ctlEnd, ctlStop
	out    chan iterResult
	kick   chan struct{} // both managed goroutines are blocked on locks
	quit   chan struct{} // tells the watcher that the scheduler ended
	// watches go to the watcher, one per evWait (see iteration.on).
	watches chan watch
	// horizon is the number of hook calls of the first iteration, over
	// which the delay-bounded schedules are enumerated.
	horizon int
}

const (
	ctlStart = iota
	ctlEnd
	ctlStop
)

type iterResult struct {
	forced bool
	why    int
	steps  int
	last   bool // the schedules to enumerate are exhausted
	bound  int  // with last, the delay bound they covered (delayBound)
	next   int  // delay-bounded: the index of the next schedule
	k      int  // delay-bounded: the hook calls the enumeration is over
}

// dispatcher forwards the hooks to the current sink: the scheduler of a
// scheduled test, the tracer of a traced one, or none.
type dispatcher struct{ cur atomic.Value } // a sinkBox

// A sink receives the hook calls of every goroutine; it ignores those of
// the goroutines it does not manage. It is called with the race
// detector's synchronisation events disabled.
type sink interface{ hook(kind, site int) }

// sinkBox gives atomic.Value one concrete type to hold.
type sinkBox struct{ s sink }

// setSink makes s the current sink (nil for none).
func setSink(s sink) {
	installHooks()
	dispatch.cur.Store(sinkBox{s})
}

var dispatch = &dispatcher{}

// installHooks connects the hooks to the dispatcher, once.
func installHooks() {
	if atomic.LoadInt32(&hooked) == 0 {
		hookTo = dispatch
		atomic.StoreInt32(&hooked, 1)
	}
}

// newScheduler starts the scheduler of schedule sc and makes it current.
func newScheduler(sc Schedule) *scheduler {
	installHooks()
	s := &scheduler{ids: [2]int64{-1, -1}, sched: sc, horizon: sc.Horizon, events: make(chan event, 8), ctl: make(chan int),
		out: make(chan iterResult), kick: make(chan struct{}, 1),
		quit: make(chan struct{}, 1), watches: make(chan watch, 8)}
	s.resume[0] = make(chan struct{}, 1)
	s.resume[1] = make(chan struct{}, 1)
	if s.sched.Patience <= 0 {
		s.sched.Patience = 20 * time.Millisecond
	}
	go s.watcher()
	go s.loop()
	setSink(s)
	return s
}

// startIter makes the goroutines ids managed for one iteration.
func (s *scheduler) startIter(ids []int) {
	atomic.StoreInt64(&s.ids[0], int64(ids[0]))
	atomic.StoreInt64(&s.ids[1], int64(ids[1]))
	raceDisable()
	s.ctl <- ctlStart
	raceEnable()
}

// endIter ends the iteration and returns how it went.
func (s *scheduler) endIter() iterResult {
	raceDisable()
	s.ctl <- ctlEnd
	r := <-s.out
	raceEnable()
	atomic.StoreInt64(&s.ids[0], -1)
	atomic.StoreInt64(&s.ids[1], -1)
	return r
}

// stop releases every waiting goroutine and ends the scheduler.
func (s *scheduler) stop() {
	setSink(nil)
	atomic.StoreInt64(&s.ids[0], -1)
	atomic.StoreInt64(&s.ids[1], -1)
	raceDisable()
	s.ctl <- ctlStop
	raceEnable()
}

// finished tells the scheduler that goroutine g's call returned.
func (s *scheduler) finished(g int) {
	raceDisable()
	s.events <- event{g: g, kind: evFinished}
	raceEnable()
}

// A watch asks the watcher to look at managed goroutine g (goroutine
// id), let go at a lock it found taken (its evWait number seq).
type watch struct {
	g, id, seq int
	deadline   time.Time
}

// watcher watches the goroutines let go at a lock they found taken: it
// sends evParked once a goroutine dump shows one parked there, or when
// its patience ran out, and drops it without a word once it got the lock
// (it is back at a hook, or done). It runs in a goroutine started before
// the loop, with the race detector's events enabled, as a goroutine dump
// needs.
func (s *scheduler) watcher() {
	var active []watch
	buf := make([]byte, 64<<10)
	for {
		if len(active) == 0 {
			select {
			case w := <-s.watches:
				active = append(active, w)
			case <-s.quit:
				return
			}
		}
		time.Sleep(parkPoll)
		for more := true; more; {
			select {
			case w := <-s.watches:
				active = append(active, w)
			default:
				more = false
			}
		}
		n := runtime.Stack(buf, true)
		for n == len(buf) {
			buf = make([]byte, 2*len(buf))
			n = runtime.Stack(buf, true)
		}
		dump := string(buf[:n])
		kept := active[:0]
		for _, w := range active {
			state, held, found := stateIn(dump, w.id)
			switch {
			case !found || held: // it got the lock
			case Blocked(state) || time.Now().After(w.deadline):
				raceDisable()
				select {
				case s.events <- event{g: w.g, kind: evParked, seq: w.seq}:
				case <-s.quit:
				}
				raceEnable()
			default:
				kept = append(kept, w)
			}
		}
		active = kept
	}
}

// parkPoll is how often the watcher looks at the goroutines it watches.
const parkPoll = 100 * time.Microsecond

// managed returns the index of the calling goroutine, or -1.
func (s *scheduler) managed() int {
	if atomic.LoadInt64(&s.ids[0]) < 0 && atomic.LoadInt64(&s.ids[1]) < 0 {
		return -1
	}
	return suffixOf()
}

// hook passes a hook call to the current sink.
func (d *dispatcher) hook(kind, site int) {
	raceDisable()
	defer raceEnable()
	if b, ok := d.cur.Load().(sinkBox); ok && b.s != nil {
		b.s.hook(kind, site)
	}
}

// hook sends the event of the calling goroutine, if it is managed, and
// waits for the scheduler's answer.
func (s *scheduler) hook(kind, site int) {
	g := s.managed()
	if g < 0 {
		return
	}
	var pcs [256]uintptr
	s.events <- event{g: g, kind: kind, site: site, depth: runtime.Callers(0, pcs[:])}
	<-s.resume[g]
}

func (d *dispatcher) point(site int)    { d.hook(evPoint, site) }
func (d *dispatcher) locked(site int)   { d.hook(evLocked, site) }
func (d *dispatcher) unlocked(site int) { d.hook(evUnlocked, site) }

func (d *dispatcher) wait(site int, lock func()) {
	d.hook(evWait, site)
	lock()
	d.hook(evWaited, site)
}

// loop serves the events; it owns the iteration state.
func (s *scheduler) loop() {
	raceDisable()
	var it *iteration
	k := 0            // the most hook calls seen in an iteration: PCT's horizon
	n := s.sched.From // iterations started, or the delay-bounded schedule to run next
	timer := time.NewTimer(time.Hour)
	for {
		var due <-chan time.Time
		if it != nil {
			if d, ok := it.nextDeadline(); ok {
				timer.Reset(time.Until(d))
				due = timer.C
			}
		}
		select {
		case c := <-s.ctl:
			switch c {
			case ctlStart:
				h := k
				if s.sched.Kind == SchedDelay {
					h = s.horizon
				}
				it = newIteration(s, n, h)
				n++
			case ctlEnd:
				var r iterResult
				for drained := false; !drained && it != nil; { // events sent before the end
					select {
					case e := <-s.events:
						it.on(e)
					default:
						drained = true
					}
				}
				if it != nil {
					r = it.result()
					if r.steps > k {
						k = r.steps
					}
					if s.horizon == 0 {
						s.horizon = r.steps // the steps of the schedule without delays
					}
					if s.sched.Kind == SchedDelay {
						_, _, more := delayPoints(n, s.horizon, s.sched.Depth)
						r.last = !more
						r.bound = delayBound(s.horizon, s.sched.Depth)
						r.next, r.k = n, s.horizon
					}
					it.releaseAll()
				}
				it = nil
				s.out <- r
			case ctlStop:
				if it != nil {
					it.releaseAll()
				}
				s.quit <- struct{}{} // one token: the watcher returns when it takes it
				raceEnable()
				return
			}
		case e := <-s.events:
			if it == nil {
				if e.kind != evFinished && e.kind != evParked {
					s.resume[e.g] <- struct{}{}
				}
				continue
			}
			it.on(e)
		case <-due:
			it.timeout()
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}
