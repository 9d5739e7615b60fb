// Package locklib holds lock helpers used across packages in the tests.
package locklib

import "sync"

// WithLock calls f with mu held.
func WithLock(mu *sync.Mutex, f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}

// Counter is a counter safe for concurrent use.
type Counter struct {
	sync.Mutex
	n int
}

// Inc increments the counter.
func (c *Counter) Inc() {
	c.Lock()
	c.n++
	c.Unlock()
}

// Locked calls f while holding mu; f must not lock mu.
func Locked(mu *sync.Mutex, f func()) {
	mu.Lock()
	f()
	mu.Unlock()
}

// Order locks a then b.
func Order(a, b *sync.Mutex) {
	a.Lock()
	b.Lock()
	b.Unlock()
	a.Unlock()
}

// Pair holds two locks, always taken First then Second.
type Pair struct {
	First, Second sync.Mutex
	n             int
}

// Both increments the pair's counter with both locks held.
func (p *Pair) Both() {
	p.First.Lock()
	defer p.First.Unlock()
	p.Second.Lock()
	defer p.Second.Unlock()
	p.n++
}
