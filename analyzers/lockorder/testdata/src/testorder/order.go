// want package:"testorder.Cache.mu -> testorder.Journal.mu"

// Package testorder has a lock order of its own, which a test reverses.
package testorder

import "sync"

type Journal struct {
	mu    sync.Mutex
	lines []string
}

type Cache struct {
	mu sync.Mutex
	j  *Journal
	m  map[string]int
}

func (c *Cache) Put(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k]++
	c.j.mu.Lock()
	c.j.lines = append(c.j.lines, k)
	c.j.mu.Unlock()
}
