// Queues whose Poll delivers items until its quit channel is closed:
// Delays's Poll counts the items polled without its lock as it returns,
// and Offer reads the count; SafeDelays, its twin, is correct. Only a
// test that closes Poll's quit channel once the other call has returned
// sees the race.

package objects

import "sync"

// Delays is a queue of items, safe for concurrent use.
type Delays struct {
	mu     sync.Mutex
	items  []int
	polled int
	wake   chan struct{}
}

// NewDelays returns an empty queue.
func NewDelays() *Delays { return &Delays{wake: make(chan struct{}, 1)} }

// Offer adds v, and returns how many items were offered so far.
func (d *Delays) Offer(v int) int {
	d.mu.Lock()
	d.items = append(d.items, v)
	n := len(d.items) + d.polled
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
	return n
}

// Poll takes the items as they come until quit is closed, and returns
// how many it took.
func (d *Delays) Poll(quit <-chan struct{}) int {
	n := 0
	for {
		d.mu.Lock()
		n += len(d.items)
		d.items = d.items[:0]
		d.mu.Unlock()
		select {
		case <-quit:
			d.polled += n // the race
			return n
		case <-d.wake:
		}
	}
}

// SafeDelays is a queue of items, safe for concurrent use.
type SafeDelays struct {
	mu     sync.Mutex
	items  []int
	polled int
	wake   chan struct{}
}

// NewSafeDelays returns an empty queue.
func NewSafeDelays() *SafeDelays { return &SafeDelays{wake: make(chan struct{}, 1)} }

// Offer adds v, and returns how many items were offered so far.
func (d *SafeDelays) Offer(v int) int {
	d.mu.Lock()
	d.items = append(d.items, v)
	n := len(d.items) + d.polled
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
	return n
}

// Poll takes the items as they come until quit is closed, and returns
// how many it took.
func (d *SafeDelays) Poll(quit <-chan struct{}) int {
	n := 0
	for {
		d.mu.Lock()
		n += len(d.items)
		d.items = d.items[:0]
		d.mu.Unlock()
		select {
		case <-quit:
			d.mu.Lock()
			d.polled += n
			d.mu.Unlock()
			return n
		case <-d.wake:
		}
	}
}
