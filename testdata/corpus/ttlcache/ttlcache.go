// Package ttlcache provides a string cache whose entries expire after a
// fixed time to live.
package ttlcache

import (
	"sync"
	"time"
)

type entry[V any] struct {
	val V
	at  time.Time
}

type cache[K comparable, V any] struct {
	ttl time.Duration

	mu           sync.RWMutex
	m            map[K]entry[V]
	hits, misses int
}

func newCache[K comparable, V any](ttl time.Duration) *cache[K, V] {
	return &cache[K, V]{ttl: ttl, m: make(map[K]entry[V])}
}

func (c *cache[K, V]) get(k K) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.m[k]
	if !ok || (c.ttl > 0 && time.Since(e.at) > c.ttl) {
		c.misses++
		var zero V
		return zero, false
	}
	c.hits++
	return e.val, true
}

func (c *cache[K, V]) set(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = entry[V]{val: v, at: time.Now()}
}

func (c *cache[K, V]) remove(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
}

func (c *cache[K, V]) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

func (c *cache[K, V]) stats() (hits, misses int) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hits, c.misses
}

// Cache maps strings to strings; entries older than the time to live are
// treated as absent. A Cache is safe for concurrent use by multiple
// goroutines.
type Cache struct {
	c *cache[string, string]
}

// NewCache returns an empty Cache whose entries live for ttl; a
// non-positive ttl keeps entries forever.
func NewCache(ttl time.Duration) *Cache {
	return &Cache{c: newCache[string, string](ttl)}
}

// Get returns the live value for key.
func (c *Cache) Get(key string) (string, bool) { return c.c.get(key) }

// Set stores value under key.
func (c *Cache) Set(key, value string) { c.c.set(key, value) }

// Delete removes key.
func (c *Cache) Delete(key string) { c.c.remove(key) }

// Len returns the number of stored entries, live or expired.
func (c *Cache) Len() int { return c.c.len() }

// Stats returns the number of cache hits and misses so far.
func (c *Cache) Stats() (hits, misses int) { return c.c.stats() }
