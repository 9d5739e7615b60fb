package selfdeadlock

import "sync"

// MemStore's get takes the read lock only when its caller does not hold
// the lock: Find calls it with false, Pop holding the lock with true.
// Each call has the effect of get for its argument: silent.
type MemStore struct {
	mu    sync.RWMutex
	items map[string]int
}

func (m *MemStore) get(key string, locked bool) (int, bool) {
	if !locked {
		m.mu.RLock()
		defer m.mu.RUnlock()
	}
	v, ok := m.items[key]
	return v, ok
}

func (m *MemStore) Find(key string) (int, bool) { return m.get(key, false) }

func (m *MemStore) Pop(key string) (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.get(key, true)
	delete(m.items, key)
	return v, ok
}

// Take passes false while holding the lock: get locks it again.
func (m *MemStore) Take(key string) (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.get(key, false) // want `m.mu is locked \(in get\) while already held`
	delete(m.items, key)
	return v, ok
}

// Counter's add takes its lock unless told it is held, on the else
// branch of a comparison with a constant; Reset passes a variable and
// has add's general effect: it may take the lock it holds.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) add(held bool, d int) {
	if held != false {
		c.n += d
		return
	}
	c.mu.Lock()
	c.n += d
	c.mu.Unlock()
}

func (c *Counter) Add(d int) { c.add(false, d) }

func (c *Counter) Double() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.add(true, c.n)
}

func (c *Counter) Reset(held bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.add(held, -c.n) // want `c.mu is locked \(in add\) while already held`
}

// Tree's walk locks unless told its caller holds the lock, and recurses
// with true: Count's call has walk's effect for false, whose recursive
// calls have its general effect (a specialisation is not computed
// within itself): silent.
type Tree struct {
	mu   sync.Mutex
	kids map[string]*Tree
	n    int
}

func (t *Tree) walk(root *Tree, locked bool) int {
	if !locked {
		t.mu.Lock()
		defer t.mu.Unlock()
	}
	n := root.n
	for _, k := range root.kids {
		n += t.walk(k, true)
	}
	return n
}

func (t *Tree) Count() int { return t.walk(t, false) }
