// Package atomicity holds atomicity violations that neither the race
// detector nor a panic shows: every access is locked or atomic, but a
// check and an act, or the reads of a snapshot, are in separate critical
// sections. Each buggy type has a correct twin whose calls also leave
// the lock between two sections, and whose outcomes are still those of
// a sequential order.
package atomicity

import (
	"sync"
	"sync/atomic"
	"time"
)

// Counter loses updates: Add composes two locked calls, Load and Store.
type Counter struct {
	mu sync.Mutex
	n  int
}

// NewCounter returns a counter at zero.
func NewCounter() *Counter { return &Counter{} }

// Load returns the count.
func (c *Counter) Load() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Store sets the count.
func (c *Counter) Store(n int) {
	c.mu.Lock()
	c.n = n
	c.mu.Unlock()
}

// Add adds d to the count and returns the new count.
func (c *Counter) Add(d int) int {
	n := c.Load() + d
	c.Store(n)
	return n
}

// IDs hands out sequence numbers; two callers may get the same one.
type IDs struct {
	last int64
}

// NewIDs returns a generator whose first ID is 1.
func NewIDs() *IDs { return &IDs{} }

// Next returns the next ID.
func (g *IDs) Next() int64 {
	id := atomic.LoadInt64(&g.last) + 1
	atomic.StoreInt64(&g.last, id)
	return id
}

// Stats are a cache's counters: Lookups is always Hits + Misses.
type Stats struct {
	Hits, Misses, Lookups int64
}

// Cache counts its lookups; Stats may return a snapshot whose parts do
// not add up.
type Cache struct {
	mu    sync.RWMutex
	items map[string]string
	hits  int64
	miss  int64
	total int64
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{items: map[string]string{}} }

// Set stores v under k.
func (c *Cache) Set(k, v string) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

// Get returns the value stored under k.
func (c *Cache) Get(k string) (string, bool) {
	c.mu.RLock()
	v, ok := c.items[k]
	c.mu.RUnlock()
	atomic.AddInt64(&c.total, 1)
	if ok {
		atomic.AddInt64(&c.hits, 1)
	} else {
		atomic.AddInt64(&c.miss, 1)
	}
	return v, ok
}

// Stats returns the counters.
func (c *Cache) Stats() Stats {
	return Stats{Hits: atomic.LoadInt64(&c.hits), Misses: atomic.LoadInt64(&c.miss), Lookups: atomic.LoadInt64(&c.total)}
}

// Registry registers names once. Register leaves the lock while it builds
// the entry, and checks again before it stores it: it is linearizable.
type Registry struct {
	mu    sync.Mutex
	names map[string]int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{names: map[string]int{}} }

// Register registers name and reports whether it was new.
func (r *Registry) Register(name string) bool {
	r.mu.Lock()
	_, dup := r.names[name]
	r.mu.Unlock()
	if dup {
		return false
	}
	entry := len(name) // building the entry, outside the lock
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.names[name]; dup {
		return false
	}
	r.names[name] = entry
	return true
}

// Len returns the number of names registered.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.names)
}

// Clock counts ticks and remembers the last one. Tick returns the time
// since the previous tick, which no two runs agree on; the count is
// exact.
type Clock struct {
	mu    sync.Mutex
	last  time.Time
	ticks int
}

// NewClock returns a clock started now.
func NewClock() *Clock { return &Clock{last: time.Now()} }

// Tick records a tick and returns the time since the previous one.
func (c *Clock) Tick() time.Duration {
	c.mu.Lock()
	d := time.Since(c.last)
	c.mu.Unlock()
	c.mu.Lock()
	c.last = time.Now()
	c.ticks++
	c.mu.Unlock()
	return d
}

// Ticks returns the number of ticks.
func (c *Clock) Ticks() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ticks
}

// Slots hands out slot numbers up to a limit. Take gives up, reporting
// false, when another Take won the compare-and-swap: by design, as a
// lock-free queue's Put does, and its callers try again; its outcomes
// under contention are no sequential order's, and no defect.
type Slots struct {
	next  uint32
	limit uint32
}

// NewSlots returns 8 free slots.
func NewSlots() *Slots { return &Slots{limit: 8} }

// Take takes the next slot, and reports whether it got one.
func (s *Slots) Take() (slot uint32, ok bool) {
	n := atomic.LoadUint32(&s.next)
	if n >= s.limit {
		return 0, false
	}
	if !atomic.CompareAndSwapUint32(&s.next, n, n+1) {
		return 0, false
	}
	return n, true
}

// Free returns the number of free slots.
func (s *Slots) Free() uint32 { return s.limit - atomic.LoadUint32(&s.next) }

// Tickets hands out ticket numbers; when its compare-and-swap fails,
// Next returns the number it read, which the winner got too: two
// callers may get the same ticket.
type Tickets struct {
	next int64
}

// NewTickets returns a generator whose first ticket is 0.
func NewTickets() *Tickets { return &Tickets{} }

// Next returns the next ticket.
func (t *Tickets) Next() int64 {
	n := atomic.LoadInt64(&t.next)
	if !atomic.CompareAndSwapInt64(&t.next, n, n+1) {
		return n
	}
	return n
}
