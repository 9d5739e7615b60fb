// Throttles whose lock is their sync.Cond's, behind an interface, whose
// Next waits for the next Trigger: no iterator, although Next returns a
// bool. throttler's Reset forgets the lock; safeThrottler, its twin, is
// correct.

package objects

import "sync"

// A Throttle lets a waiter through once per trigger.
type Throttle interface {
	Trigger()
	Next() bool
	Stop()
	Reset()
	Count() int
}

type throttler struct {
	cond    *sync.Cond
	waiting bool
	stop    bool
	count   int
}

// NewThrottle returns a throttle.
func NewThrottle() Throttle { return &throttler{cond: sync.NewCond(&sync.Mutex{})} }

// Trigger lets one waiter through.
func (t *throttler) Trigger() {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	if !t.waiting && !t.stop {
		t.waiting = true
		t.count++
		t.cond.Broadcast()
	}
}

// Next waits for a trigger, and reports false once the throttle is
// stopped.
func (t *throttler) Next() bool {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	for !t.waiting && !t.stop {
		t.cond.Wait()
	}
	t.waiting = false
	return !t.stop
}

// Stop ends the waits.
func (t *throttler) Stop() {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	t.stop = true
	t.cond.Broadcast()
}

// Reset forgets the triggers counted.
func (t *throttler) Reset() { t.count = 0 }

// Count returns the triggers counted.
func (t *throttler) Count() int {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	return t.count
}

type safeThrottler struct {
	cond    *sync.Cond
	waiting bool
	stop    bool
	count   int
}

// NewSafeThrottle returns a throttle.
func NewSafeThrottle() Throttle { return &safeThrottler{cond: sync.NewCond(&sync.Mutex{})} }

// Trigger lets one waiter through.
func (t *safeThrottler) Trigger() {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	if !t.waiting && !t.stop {
		t.waiting = true
		t.count++
		t.cond.Broadcast()
	}
}

// Next waits for a trigger, and reports false once the throttle is
// stopped.
func (t *safeThrottler) Next() bool {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	for !t.waiting && !t.stop {
		t.cond.Wait()
	}
	t.waiting = false
	return !t.stop
}

// Stop ends the waits.
func (t *safeThrottler) Stop() {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	t.stop = true
	t.cond.Broadcast()
}

// Reset forgets the triggers counted.
func (t *safeThrottler) Reset() {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	t.count = 0
}

// Count returns the triggers counted.
func (t *safeThrottler) Count() int {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	return t.count
}
