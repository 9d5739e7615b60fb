// Package queue has a queue whose Put checks that the queue is open and
// sends in two separate critical sections: a Close in between makes Put
// send on a closed channel, which panics.
package queue

import (
	"runtime"
	"sync"
)

// Queue is a buffered queue of ints, safe for concurrent use.
type Queue struct {
	mu     sync.Mutex
	ch     chan int
	closed bool
	sum    int
}

// New returns an open queue that buffers up to 64 values.
func New() *Queue { return &Queue{ch: make(chan int, 64)} }

// Put adds v to the queue and reports whether it was open. It drops v
// when the queue is full.
func (q *Queue) Put(v int) bool {
	q.mu.Lock()
	closed := q.closed
	q.mu.Unlock()
	if closed {
		return false
	}
	// BUG: Close may run here, and all the more likely as Put yields the
	// processor (as a logger or a metric would).
	runtime.Gosched()
	q.mu.Lock()
	defer q.mu.Unlock()
	q.sum += v
	select {
	case q.ch <- v:
	default:
	}
	return true
}

// Take returns the oldest value, or false when there is none.
func (q *Queue) Take() (int, bool) {
	select {
	case v, ok := <-q.ch:
		return v, ok
	default:
		return 0, false
	}
}

// Close closes the queue; later Puts return false.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.ch)
	}
}
