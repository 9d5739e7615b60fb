// Package handoff holds a counter with a data race that the program's own
// lock hides in one order of its two methods and not in the other: a
// scheduler that forces the orders must not hide it in both.
package handoff

import "sync"

// Counter counts events; it is meant to be safe for concurrent use.
type Counter struct {
	mu    sync.Mutex
	n     int
	total int
}

// Inc counts one event.
func (c *Counter) Inc() {
	c.n++ // not under the mutex
	c.mu.Lock()
	c.total++
	c.mu.Unlock()
}

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n + c.total - c.total
}
