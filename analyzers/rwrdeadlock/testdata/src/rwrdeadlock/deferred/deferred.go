// want package:"deferred.Cache.mu"

// Package deferred holds deferred re-locks.
package deferred

import "sync"

// Cache drops its read lock on a miss to load under the write lock, and
// takes the read lock back at return, before the deferred RUnlock: the
// read lock is never held twice.
type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

func (c *Cache) load(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = 1
	return 1
}

// Get is correct: the deferred RLock runs only on the miss path, after
// the explicit RUnlock.
func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	c.mu.RUnlock()
	defer c.mu.RLock()
	return c.load(k)
}

// Peek defers the re-lock without releasing first: at return the
// deferred RLock runs while the read lock is held.
func (c *Cache) Peek(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	defer c.mu.RLock() // want `c.mu is read-locked while already read-locked`
	return c.m[k]
}
