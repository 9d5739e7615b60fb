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
