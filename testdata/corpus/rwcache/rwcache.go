// Package rwcache provides a read-mostly string cache.
package rwcache

import (
	"sort"
	"sync"
)

// Cache maps string keys to string values and favours concurrent readers.
// A Cache is safe for concurrent use by multiple goroutines.
type Cache struct {
	mu sync.RWMutex
	m  map[string]string
}

// NewCache returns an empty Cache.
func NewCache() *Cache {
	return &Cache{m: make(map[string]string)}
}

// Get returns the value of key.
func (c *Cache) Get(key string) (string, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[key]
	return v, ok
}

// Has reports whether key is present.
func (c *Cache) Has(key string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.m[key]
	return ok
}

// Len returns the number of entries.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

func (c *Cache) keysLocked() []string {
	keys := make([]string, 0, len(c.m))
	for k := range c.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Keys returns the keys, sorted.
func (c *Cache) Keys() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.keysLocked()
}

// Set stores value under key.
func (c *Cache) Set(key, value string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = value
}

// Delete removes key.
func (c *Cache) Delete(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, key)
}

// Clear removes all entries and returns the keys it removed.
func (c *Cache) Clear() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := c.keysLocked()
	clear(c.m)
	return keys
}
