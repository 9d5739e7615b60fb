// Package counter is a module at go 1.13 with a type under test, whose
// own code fails vet and whose own tests do not compile.
package counter

import (
	"fmt"
	"sync"
)

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
	return c.n
}

// String fails vet's printf check.
func (c *Counter) String() string { return fmt.Sprintf("%d", "count") }
