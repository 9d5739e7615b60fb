package demo

import "sync"

// Counter counts; Inc holds the lock, Get forgets it.
type Counter struct {
	mu sync.Mutex
	n  int
}

// NewCounter returns a zero counter.
func NewCounter() *Counter { return &Counter{} }

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Get returns the count, without the lock: it races with Inc.
func (c *Counter) Get() int {
	return c.n
}
