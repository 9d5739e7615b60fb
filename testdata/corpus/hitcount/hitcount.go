// Package hitcount counts requests and tracks the largest request size.
package hitcount

import "sync/atomic"

// Counter counts hits and the bytes they carried. A Counter is safe for
// concurrent use by multiple goroutines.
type Counter struct {
	name  string
	hits  atomic.Int64
	bytes atomic.Int64
	max   atomic.Int64
}

// NewCounter returns a Counter called name.
func NewCounter(name string) *Counter {
	return &Counter{name: name}
}

// Name returns the counter name.
func (c *Counter) Name() string { return c.name }

// Hit records one hit of size bytes.
func (c *Counter) Hit(size int) {
	c.hits.Add(1)
	if size <= 0 {
		return
	}
	c.bytes.Add(int64(size))
	for {
		cur := c.max.Load()
		if int64(size) <= cur || c.max.CompareAndSwap(cur, int64(size)) {
			return
		}
	}
}

// Hits returns the number of hits.
func (c *Counter) Hits() int64 { return c.hits.Load() }

// Bytes returns the total size of all hits.
func (c *Counter) Bytes() int64 { return c.bytes.Load() }

// Max returns the largest hit size seen.
func (c *Counter) Max() int64 { return c.max.Load() }

// Reset zeroes the hit count and returns its previous value.
func (c *Counter) Reset() int64 {
	c.bytes.Store(0)
	c.max.Store(0)
	return c.hits.Swap(0)
}
