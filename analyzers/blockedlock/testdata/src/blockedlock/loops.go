package blockedlock

import (
	"sync"
	"time"
)

// Dispatcher's loop handles events through a method that locks mu; Stop
// holds mu while it sends on the loop's stop channel. A Stop during an
// event leaves the loop waiting for mu and Stop waiting for the loop.
type Dispatcher struct {
	mu     sync.Mutex
	stopCh chan struct{}
	events chan int
	n      int
}

func NewDispatcher() *Dispatcher {
	d := &Dispatcher{stopCh: make(chan struct{}), events: make(chan int)}
	go d.run()
	return d
}

func (d *Dispatcher) run() {
	for {
		select {
		case <-d.stopCh:
			return
		case e := <-d.events:
			d.handle(e)
		}
	}
}

func (d *Dispatcher) handle(e int) {
	d.mu.Lock()
	d.n += e
	d.mu.Unlock()
}

func (d *Dispatcher) Stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopCh <- struct{}{} // want `send on d.stopCh blocks while holding d.mu .*, but the receive that would unblock it \(in run at loops.go:27\) happens after locking d.mu on some path \(its goroutine may be waiting for d.mu instead\): then neither side can proceed`
}

func (d *Dispatcher) Post(e int) { d.events <- e }

// Janitor's loop locks mu at every tick; Close holds mu while it sends
// on quit.
type Janitor struct {
	mu   sync.Mutex
	quit chan bool
	m    map[int]int
}

func NewJanitor() *Janitor {
	j := &Janitor{quit: make(chan bool), m: map[int]int{}}
	go j.loop()
	return j
}

func (j *Janitor) loop() {
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			j.mu.Lock()
			j.m = map[int]int{}
			j.mu.Unlock()
		case <-j.quit:
			return
		}
	}
}

func (j *Janitor) Close() {
	j.mu.Lock()
	j.quit <- true // want `send on j.quit blocks while holding j.mu .*, but the receive that would unblock it \(in loop at loops.go:72\) happens after locking j.mu on some path`
	j.mu.Unlock()
}

// Batch's workers record through a method that locks mu, then call Done;
// Wait holds mu while it waits for them.
type Batch struct {
	mu sync.Mutex
	wg sync.WaitGroup
	r  []int
}

func (b *Batch) Run(n int) {
	for i := 0; i < n; i++ {
		b.wg.Add(1)
		go func(i int) {
			defer b.wg.Done()
			b.record(i)
		}(i)
	}
}

func (b *Batch) record(i int) {
	b.mu.Lock()
	b.r = append(b.r, i)
	b.mu.Unlock()
}

func (b *Batch) Wait() []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.wg.Wait() // want `Wait on b.wg blocks while holding b.mu .*, but the Done that would unblock it \(in Run\$1 at loops.go:96\) happens only after locking b.mu`
	return b.r
}

// Correct twins.

// Reaper's loop locks mu at every tick, but Close sends on quit after
// releasing mu.
type Reaper struct {
	mu      sync.Mutex
	quit    chan bool
	closing bool
}

func NewReaper() *Reaper {
	r := &Reaper{quit: make(chan bool)}
	go r.loop()
	return r
}

func (r *Reaper) loop() {
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			r.mu.Lock()
			r.mu.Unlock()
		case <-r.quit:
			return
		}
	}
}

func (r *Reaper) Close() {
	r.mu.Lock()
	r.closing = true
	r.mu.Unlock()
	r.quit <- true
}

// Tally's workers call a method that takes no lock before Done.
type Tally struct {
	mu sync.Mutex
	wg sync.WaitGroup
	n  int
}

func (t *Tally) Run(n int) {
	for i := 0; i < n; i++ {
		t.wg.Add(1)
		go func(i int) {
			defer t.wg.Done()
			t.note(i)
		}(i)
	}
}

func (t *Tally) note(i int) { _ = i * 2 }

func (t *Tally) Wait() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.wg.Wait()
	return t.n
}

// Relay's loop locks mu only after its last receive (on the way out):
// the receive is never reached again after locking.
type Relay struct {
	mu   sync.Mutex
	quit chan bool
	done bool
}

func NewRelay() *Relay {
	r := &Relay{quit: make(chan bool)}
	go r.wait()
	return r
}

func (r *Relay) wait() {
	<-r.quit
	r.mu.Lock()
	r.done = true
	r.mu.Unlock()
}

func (r *Relay) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.quit <- true
}
