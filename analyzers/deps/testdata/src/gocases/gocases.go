// plan: Cache: |M|=6 pc=1 d=0; Counter: |M|=3 pc=1 d=0; Point: |M|=3 pc=1 d=0

// Package gocases holds the Go-specific cases of the dependence analysis:
// a promoted mutex, a value receiver, a generic type.
package gocases

import "sync"

// Counter embeds its mutex: Lock and Unlock are promoted (and exported,
// so they are methods under test too).
type Counter struct {
	sync.Mutex
	n int
}

func (c *Counter) Inc() {
	c.Lock()
	defer c.Unlock()
	c.n++
}

// Peek reads n without the lock.
func (c *Counter) Peek() int { return c.n }

// Point has a value-receiver method: calling it through *Point copies (reads)
// the whole value.
type Point struct {
	mu   sync.Mutex
	x, y int
}

func (p Point) Sum() int { return p.x + p.y }

func (p *Point) Move(dx int) {
	p.mu.Lock()
	p.x += dx
	p.mu.Unlock()
}

// Cache is generic.
type Cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

// Get reads the map without the lock.
func (c *Cache[K, V]) Get(k K) V { return c.m[k] }

func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
