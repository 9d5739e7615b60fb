// plan: Cache: |M|=3 pc=0 d=0; Leaky: |M|=3 pc=1 d=0

// Package embedptr promotes methods through an embedded pointer, the
// layout of github.com/patrickmn/go-cache (type Cache struct{ *cache }):
// the promoted methods keep the locks their bodies hold, and the
// pointer to the embedded struct, set once by the constructor, is not
// shared mutable state.
package embedptr

import "sync"

type cache struct {
	mu    sync.RWMutex
	items map[string]int
}

func (c *cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.items[k]
}

func (c *cache) Set(k string, v int) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

// Cache is safe for concurrent use: Get and Set, promoted from *cache,
// both hold recv.cache.mu.
type Cache struct{ *cache }

// New returns an empty Cache.
func New() *Cache { return &Cache{&cache{items: map[string]int{}}} }

type leaky struct {
	mu    sync.Mutex
	items map[string]int
}

// Get reads the map without the lock.
func (c *leaky) Get(k string) int { return c.items[k] }

func (c *leaky) Set(k string, v int) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

// Leaky is the negative twin of Cache: its promoted Get reads the map
// without the lock, so Get and Set stay dependent.
type Leaky struct{ *leaky }
