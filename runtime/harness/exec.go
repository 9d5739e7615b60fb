package harness

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"
)

// run stress-tests the two suffixes: Iters times, it builds fresh objects,
// runs the prefix, and releases the two suffix goroutines together.
func (x *execution) run() Message {
	setupStart := time.Now()
	p, res := x.prepareFirst()
	if res != nil {
		return *res
	}
	if setup := time.Since(setupStart); x.req.Lin != nil && setup > linMaxSetup {
		x.req.Lin = nil
		x.linOff = fmt.Sprintf("a set-up takes %v: the sequential orders would cost more than the test", setup.Round(time.Millisecond))
	}
	if x.req.Lin != nil {
		// A death here is the sequential orders', not the suffixes'.
		x.progress(StepReference)
		runs := x.req.Lin.Runs
		if runs < 1 {
			runs = 1
		}
		x.ref, x.linOff = x.references(nil, runs, true)
	}
	x.progress("suffix")
	var slowest time.Duration
	lastTick := time.Now()
	iters := x.req.Test.Iters
	if iters < 1 {
		iters = 1
	}
	began := time.Now()
	var sch *scheduler
	var sres *SchedResult
	if x.req.Sched != nil {
		sch = newScheduler(*x.req.Sched)
		defer sch.stop()
		sres = &SchedResult{}
	}
	if x.ref != nil {
		x.linBase = settledGoroutines(x.settled)
	}
	for it := 0; it < iters; it++ {
		if it > 0 && x.req.MaxTime > 0 && time.Since(began) > x.req.MaxTime {
			break
		}
		if it > 0 {
			// A death while rebuilding the objects is the set-up's, not
			// the suffixes': the driver must know which it was in.
			x.progress(StepSetup)
			x.r.closeConns() // the last iteration's objects are done
			if p, res = x.prepareNext(); res != nil {
				res.Iter = it
				return *res
			}
			if x.ref != nil && !x.prefixBusy && !prefixDone(p) {
				// The sequential orders start once what the prefix left
				// to goroutines is done (an asynchronous Stop, a flush);
				// these suffixes would not: their outcome may be the
				// prefix's work half done, no outcome of the two calls.
				x.prefixBusy = true
			}
			x.progress("suffix")
		}
		watchdog := longer(x.watchdog, 50*slowest)
		elapsed, outs, res := x.concurrent(p, watchdog, sch, sres)
		if res == nil && x.ref != nil && !x.prefixBusy {
			var off string
			if res, off = x.checkLin(p, outs); off != "" {
				x.ref, x.linOff = nil, off
			}
		}
		if res != nil {
			res.Iter = it
			res.Dropped = x.drops()
			res.Sched = sres
			res.LinOff, res.LinVaried = x.linOff, x.linVaried
			return *res
		}
		slowest = longer(slowest, elapsed)
		if sres != nil && sres.Exhausted {
			break
		}
		if time.Since(lastTick) > time.Second {
			_ = x.send(Message{Ev: EvTick, Goroutine: -1})
			lastTick = time.Now()
		}
	}
	return Message{Status: StatusOK, Goroutine: -1, Dropped: x.drops(), Sched: sres, LinOff: x.linOff, LinVaried: x.linVaried}
}

// concurrent runs the two suffixes of p in two goroutines released by a
// start barrier and waits for them, under scheduler sch when it is not
// nil (adding to sres how the iteration went). It returns how long they
// took and what they did, or the failure.
func (x *execution) concurrent(p *prepared, watchdog time.Duration, sch *scheduler, sres *SchedResult) (time.Duration,
	[2]outcome, *Message) {
	var (
		outs  [2]outcome
		ids   = make([]int, 2)
		ready sync.WaitGroup
		gate  sync.WaitGroup // the start barrier: Done releases both
		done  = make(chan int, 2)
	)
	ready.Add(2)
	gate.Add(1)
	for i := 0; i < 2; i++ {
		go func(g int) {
			ids[g] = currentGoroutine()
			ready.Done()
			gate.Wait()
			outs[g] = invokeAs(g, p.fns[g], p.ins[g])
			// A request served by the other call ends with this one:
			// its client leaves.
			p.sc.endRequests()
			if sch != nil {
				sch.finished(g)
			}
			done <- g
		}(i)
	}
	ready.Wait()
	var kick chan struct{}
	if sch != nil {
		sch.startIter(ids)
		kick = sch.kick
	}
	began := time.Now()
	gate.Done()
	w := x.wait(ids, done, watchdog, kick)
	elapsed := time.Since(began)
	if sch != nil && !w.hung {
		r := sch.endIter()
		sres.Iters++
		if r.forced {
			sres.Forced++
		} else {
			if sres.Why == nil {
				sres.Why = map[string]int{}
			}
			sres.Why[whyOf(r.why)]++
		}
		if r.steps > sres.Steps {
			sres.Steps = r.steps
		}
		sres.Exhausted = r.last
		if r.last {
			sres.DelayBound = r.bound
		}
		if x.req.Sched.Kind == SchedDelay {
			sres.Next, sres.Horizon = r.next, r.k
		}
	}
	// Only the outcomes of finished goroutines may be read: the others
	// may still write theirs.
	for i := 0; i < 2; i++ {
		if w.finished[i] && outs[i].panic != "" {
			res := &Message{Status: StatusPanic, Goroutine: i, Step: fmt.Sprintf("suffix %d", i), Msg: outs[i].panic}
			res.Stacks[i] = outs[i].stack
			if !w.finished[1-i] {
				res.Waits[1-i], res.Stacks[1-i] = w.states[1-i], w.stacks[1-i]
			}
			return elapsed, outs, res
		}
	}
	if w.hung {
		res := &Message{Status: StatusHang, Goroutine: -1, Step: "suffix"}
		for i := range w.states {
			res.Waits[i], res.Stacks[i] = w.states[i], w.stacks[i]
		}
		return elapsed, outs, res
	}
	return elapsed, outs, nil
}

// seq runs the suffix calls one after the other, each watched like a
// sequential call.
func (x *execution) seq() Message { return x.seqWith(nil) }

// seqWith is seq with the suffix calls traced by tr, if not nil.
func (x *execution) seqWith(tr *tracer) Message {
	p, res := x.prepareFirst()
	if res != nil {
		return *res
	}
	var durs []time.Duration
	var denied []string
	deny := func(i int, msg string) {
		for len(denied) <= i {
			denied = append(denied, "")
		}
		denied[i] = msg
	}
	for i := range p.fns {
		step := fmt.Sprintf("suffix %d", i)
		x.progress(step)
		fn, in, k := p.fns[i], p.ins[i], i
		o, res := x.step(step, func() outcome {
			if tr == nil {
				return invoke(fn, in)
			}
			tr.begin(k)
			defer tr.end()
			return invokeAs(k, fn, in)
		})
		if res != nil {
			res.Goroutine = i
			res.Dropped = x.drops()
			return *res
		}
		if o.panic != "" {
			if deniedText(o.panic) {
				deny(i, "panic: "+o.panic)
			}
			res := Message{Status: StatusPanic, Step: step, Goroutine: i, Msg: o.panic, Dropped: x.drops(), Denied: denied}
			res.Stacks[0] = o.stack
			return res
		}
		if deniedErr(o.err) {
			deny(i, o.err.Error())
		}
		durs = append(durs, o.elapsed)
	}
	return Message{Status: StatusOK, Goroutine: -1, Dropped: x.drops(), Durations: durs, Denied: denied}
}

// step runs f in a goroutine of its own and waits for it as for a
// sequential call. It returns f's outcome, or a StatusBlocked or
// StatusRunning message when f does not return.
func (x *execution) step(name string, f func() outcome) (outcome, *Message) {
	var o outcome
	ids := make([]int, 1)
	ready := make(chan struct{}, 1)
	done := make(chan int, 1)
	go func() {
		ids[0] = currentGoroutine()
		ready <- struct{}{}
		o = f()
		done <- 0
	}()
	<-ready
	w := x.wait(ids, done, x.watchdog, nil)
	if !w.hung {
		return o, nil // o is written before done is sent
	}
	res := &Message{Status: StatusBlocked, Step: name, Goroutine: -1, Msg: w.states[0]}
	if !Blocked(w.states[0]) {
		res.Status = StatusRunning
	}
	res.Waits[0], res.Stacks[0] = w.states[0], w.stacks[0]
	if res.Status == StatusBlocked && !LockWait(w.states[0]) {
		res.Offspring = lockedOffspring(w.dump, ids[0])
	}
	return outcome{}, res // f may still write o
}

// A waited records how the watched goroutines ended up.
type waited struct {
	finished []bool
	hung     bool     // some did not finish
	states   []string // of the unfinished ones, at the last dump
	stacks   []string
	dump     []Goroutine // the last dump
}

// wait waits for the goroutines ids to send their index on done. When the
// watchdog fires it dumps the goroutines: the unfinished ones are hung
// when they are blocked (lock, channel, ...) in the same states at two
// dumps in a row, half a watchdog apart, or still busy at HardCap. A
// receive on kick (the scheduler saw every goroutine block on a lock)
// makes it look at once, and again a few milliseconds later.
func (x *execution) wait(ids []int, done <-chan int, watchdog time.Duration, kick <-chan struct{}) waited {
	w := waited{finished: make([]bool, len(ids))}
	left := len(ids)
	start := time.Now()
	timer := time.NewTimer(watchdog)
	defer timer.Stop()
	var prev []string
	for left > 0 {
		select {
		case i := <-done:
			w.finished[i] = true
			left--
			continue
		case <-kick:
			watchdog = kicked
		case <-timer.C:
		}
		w.dump = dumpAll()
		w.states, w.stacks = states(w.dump, ids, w.finished)
		blocked := true
		for i, s := range w.states {
			if !w.finished[i] && !Blocked(s) {
				blocked = false
			}
		}
		if blocked && sameStrings(w.states, prev) || !blocked && time.Since(start) >= x.req.HardCap {
			// Drain what finished meanwhile, so that finished is exact.
		drain:
			for {
				select {
				case i := <-done:
					w.finished[i] = true
					w.states[i], w.stacks[i] = "", ""
				default:
					break drain
				}
			}
			w.hung = false
			for _, f := range w.finished {
				if !f {
					w.hung = true
				}
			}
			return w
		}
		prev = nil
		if blocked {
			prev = w.states
		}
		timer.Reset(longer(watchdog/2, time.Millisecond))
	}
	w.states, w.stacks = make([]string, len(ids)), make([]string, len(ids))
	return w
}

// StateHeld is the state of a goroutine the scheduler keeps at a hook:
// not blocked, since the scheduler lets it go at the latest when its
// patience runs out.
const StateHeld = "held at a scheduling hook"

// heldByScheduler reports whether a goroutine's stack is waiting in the
// scheduler's hook for its turn.
func heldByScheduler(stack string) bool {
	return strings.Contains(stack, "scheduler).hook(")
}

// kicked is the watchdog once every goroutine was seen blocked on a lock.
const kicked = 10 * time.Millisecond

// states returns the states and stacks of the goroutines ids in dump, ""
// for finished ones. A goroutine missing from the dump is "running": it is
// about to finish.
func states(dump []Goroutine, ids []int, finished []bool) (states, stacks []string) {
	states, stacks = make([]string, len(ids)), make([]string, len(ids))
	for i, id := range ids {
		if finished[i] {
			continue
		}
		states[i] = "running"
		for _, g := range dump {
			if g.ID == id {
				states[i], stacks[i] = g.State, g.Stack
				if heldByScheduler(g.Stack) {
					// Kept at a hook: the scheduler lets it go at the
					// latest when its patience runs out.
					states[i] = StateHeld
				}
			}
		}
	}
	return states, stacks
}

// longer returns the longer of a and b.
func longer(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// sameStrings reports whether a and b hold the same strings in the same
// order.
func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// invokeAs makes call g of the two concurrent calls through a function
// of its own, suffixA or suffixB, so that a stack (a race report's
// access, or where a goroutine was created) tells which call it is in.
func invokeAs(g int, fn reflect.Value, in []reflect.Value) outcome {
	if g == 0 {
		return suffixA(fn, in)
	}
	return suffixB(fn, in)
}

// suffixA runs the first of the two concurrent calls.
//
//go:noinline
func suffixA(fn reflect.Value, in []reflect.Value) outcome { return invoke(fn, in) }

// suffixB runs the second of the two concurrent calls.
//
//go:noinline
func suffixB(fn reflect.Value, in []reflect.Value) outcome { return invoke(fn, in) }

// suffixEntries are the entry points of suffixA and suffixB.
var suffixEntries = [2]uintptr{funcEntry(reflect.ValueOf(suffixA)), funcEntry(reflect.ValueOf(suffixB))}

func funcEntry(f reflect.Value) uintptr {
	if fn := runtime.FuncForPC(f.Pointer()); fn != nil {
		return fn.Entry()
	}
	return 0
}

// suffixDepth is how many frames from the bottom of a goroutine's stack
// suffixOf looks at: runtime.goexit, the harness's function that started
// the goroutine, the closure a sequential step runs, invokeAs, then
// suffixA or suffixB.
const suffixDepth = 8

// suffixOf returns which of the two suffix calls (0 or 1) the calling
// goroutine makes through invokeAs, or -1 for a goroutine making
// neither: one a call started, the harness's own. It reads the frames at
// the bottom of the stack; runtime.Callers unwinds it without printing
// it, which makes it several times cheaper than a goroutine ID read from
// runtime.Stack, and a scheduling hook asks at every call. A goroutine
// in suffixA is the current iteration's: the next starts once both
// calls returned.
func suffixOf() int {
	var buf [64]uintptr
	pcs := buf[:]
	n := runtime.Callers(2, pcs)
	for n == len(pcs) {
		pcs = make([]uintptr, 2*len(pcs))
		n = runtime.Callers(2, pcs)
	}
	for i := n - 1; i >= 0 && i >= n-suffixDepth; i-- {
		if f := runtime.FuncForPC(pcs[i] - 1); f != nil {
			switch f.Entry() {
			case suffixEntries[0]:
				return 0
			case suffixEntries[1]:
				return 1
			}
		}
	}
	return -1
}
