// Package app has a self-deadlock (Cache.Put calls Len, which locks the
// mutex Put holds) and a lock-order inversion with package lib (Swap).
package app

import (
	"sync"

	"example.com/vetmod/lib"
)

// Cache is a map guarded by mu.
type Cache struct {
	mu sync.Mutex
	m  map[string]int
}

// Len returns the number of entries.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Put adds k unless the cache is full — « plein ».
func (c *Cache) Put(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if /* « plein » */ c.Len() > 10 {
		return
	}
	c.m[k] = 1
}

// Swap locks p's mutexes in the order opposite to lib's.
func Swap(p *lib.Pair) {
	p.Second.Lock()
	defer p.Second.Unlock()
	p.First.Lock()
	defer p.First.Unlock()
}

// Good is correctly synchronised.
type Good struct {
	mu sync.Mutex
	n  int
}

// Inc increments the counter.
func (g *Good) Inc() { g.mu.Lock(); g.n++; g.mu.Unlock() }

// Get returns the counter.
func (g *Good) Get() int { g.mu.Lock(); defer g.mu.Unlock(); return g.n }

// Ledger has two accounts, each with its lock.
type Ledger struct {
	a, b sync.Mutex
	x, y int
}

// AB locks a, then b.
func (l *Ledger) AB() {
	l.a.Lock()
	defer l.a.Unlock()
	l.b.Lock()
	defer l.b.Unlock()
	l.x++
}

// BA locks b, then a.
func (l *Ledger) BA() {
	l.b.Lock()
	defer l.b.Unlock()
	l.a.Lock()
	defer l.a.Unlock()
	l.y++
}
