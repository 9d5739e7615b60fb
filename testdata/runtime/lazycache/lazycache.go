// Package lazycache has a cache that fills its map lazily on a miss
// without taking the lock that Put takes: two goroutines may write the
// map at once.
package lazycache

import (
	"strings"
	"sync"
)

// Cache caches the upper-case form of strings. It is meant to be safe for
// concurrent use.
type Cache struct {
	mu sync.Mutex
	m  map[string]string
}

// New returns an empty Cache.
func New() *Cache { return &Cache{m: map[string]string{}} }

// Put stores v for k.
func (c *Cache) Put(k, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

// Get returns the value for k, computing and storing it on a miss. BUG:
// the miss path writes c.m without the lock.
func (c *Cache) Get(k string) string {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = strings.ToUpper(k)
	c.m[k] = v
	return v
}

// Len returns the number of cached strings.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
