// Package queue provides a bounded FIFO of strings that can be closed.
package queue

import (
	"errors"
	"sync"
)

var (
	// ErrClosed is returned when pushing onto a closed Queue.
	ErrClosed = errors.New("queue: closed")
	// ErrFull is returned when the Queue has no free slot.
	ErrFull = errors.New("queue: full")
)

// Queue is a bounded FIFO of strings. A Queue is safe for concurrent use by
// multiple goroutines.
type Queue struct {
	ch chan string

	mu     sync.Mutex
	closed bool
	pushed int
}

// NewQueue returns a Queue holding up to capacity items (at least one).
func NewQueue(capacity int) *Queue {
	if capacity < 1 {
		capacity = 1
	}
	return &Queue{ch: make(chan string, capacity)}
}

// Push appends item without blocking.
func (q *Queue) Push(item string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	select {
	case q.ch <- item:
		q.pushed++
		return nil
	default:
		return ErrFull
	}
}

// TryPop removes the oldest item without blocking.
func (q *Queue) TryPop() (string, bool) {
	select {
	case item, ok := <-q.ch:
		return item, ok
	default:
		return "", false
	}
}

// Len returns the number of queued items.
func (q *Queue) Len() int { return len(q.ch) }

// Pushed returns the number of items accepted so far.
func (q *Queue) Pushed() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.pushed
}

// Closed reports whether Close has been called.
func (q *Queue) Closed() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.closed
}

// Close stops the Queue from accepting items and reports whether this call
// closed it; queued items can still be popped.
func (q *Queue) Close() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	q.closed = true
	close(q.ch)
	return true
}
