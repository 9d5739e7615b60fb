// Package closer counts the goroutines that must finish before a Closer
// closes. A Closer's zero value is no Closer: NewCloser makes one.
package closer

import "sync/atomic"

// Closer counts goroutines.
type Closer struct {
	counts  map[string]int
	running atomic.Int64
}

// NewCloser returns a Closer counting n goroutines.
func NewCloser(n int) *Closer { return &Closer{counts: map[string]int{"": n}} }

// Add counts n more goroutines, before they start.
func (c *Closer) Add(n int) {
	c.counts[""] += n // a zero Closer has no map
	c.running.Add(int64(n))
}

// Done counts a goroutine out.
func (c *Closer) Done() { c.running.Add(-1) }
