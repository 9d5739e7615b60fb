// Package counter declares at package level names of builtins and of
// standard packages, which the code depcon adds must not rely on.
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
	c.n = max(c.n+1, min(c.n, 0))
	c.mu.Unlock()
}

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear()
	return c.n + new()
}

type any = struct{}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func clear() {}

func new() int { return 0 }

var (
	testing = any{}
	fmt     = 1
	reflect = "reflect"
	os      = []int{}
	sync2   = sync.Mutex{}
	time    = 0
	json    = 0
)
