// Package counter is a module at go 1.18 with a type under test.
package counter

import "sync"

// Counter counts under a mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

// NewCounter returns a Counter.
func NewCounter() *Counter { return &Counter{} }

// Inc increments the count.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return first(c.n, 0)
}

func first[T any](a, _ T) T { return a }
