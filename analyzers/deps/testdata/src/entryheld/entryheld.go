// Package entryheld has a helper that writes and then releases its
// caller's lock: entered holding that lock as far as its own summary
// goes, but in a caller that does not hold it (Reset) the write is
// unguarded, and Get ∥ Reset stays a dependent pair; in Set, which holds
// it, the write is guarded.
package entryheld

import "sync"

type Gauge struct {
	mu  sync.Mutex
	val int
}

func (g *Gauge) setAndUnlock(v int) {
	g.val = v
	g.mu.Unlock()
}

func (g *Gauge) Set(v int) {
	g.mu.Lock()
	g.setAndUnlock(v)
}

func (g *Gauge) Get() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.val
}

func (g *Gauge) Reset() {
	g.setAndUnlock(0)
}

// Locked lets its callers take its lock (Lock): SetAndUnlock writes and
// releases the lock its caller took, and its write is guarded, though
// the lock is unexported: Get ∥ SetAndUnlock is not dependent.
type Locked struct {
	mu  sync.Mutex
	val int
}

func (l *Locked) Lock() { l.mu.Lock() }

func (l *Locked) SetAndUnlock(v int) {
	l.val = v
	l.mu.Unlock()
}

func (l *Locked) Get() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.val
}
