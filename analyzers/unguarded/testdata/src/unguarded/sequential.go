package unguarded

import "sync"

// A Fields' Reset is documented never to run concurrently: its plain
// write races with nothing, by contract. Clear has no such documentation.
type Fields struct {
	mu     sync.Mutex
	fields map[string]string
	n      int
}

func (h *Fields) Set(k, v string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fields[k] = v
	h.n++
}

func (h *Fields) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// Reset empties the fields. It must not be called concurrently with
// other methods.
func (h *Fields) Reset() { h.n = 0 }

// Clear empties the fields.
func (h *Fields) Clear() {
	h.n = 0 // want `h.n is written in Clear without h.mu`
}

// MockClock's Add reads the time before taking the lock; its
// documentation keeps its calls apart, and it is the only writer:
// silent.
type MockClock struct {
	mu  sync.Mutex
	now int64
}

func (c *MockClock) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock forward by d. This should only be called from a
// single goroutine at a time.
func (c *MockClock) Add(d int64) {
	t := c.now + d
	for c.fire(t) {
	}
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// fire moves the clock to the next timer before t, if any.
func (c *MockClock) fire(t int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.now+1 >= t {
		return false
	}
	c.now++
	return true
}

// FreeClock is MockClock without the documentation.
type FreeClock struct {
	mu  sync.Mutex
	now int64
}

func (c *FreeClock) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock forward by d.
func (c *FreeClock) Add(d int64) {
	t := c.now + d // want `c.now is read in Add before c.mu is locked`
	for c.fire(t) {
	}
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// fire moves the clock to the next timer before t, if any.
func (c *FreeClock) fire(t int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.now+1 >= t {
		return false
	}
	c.now++
	return true
}
