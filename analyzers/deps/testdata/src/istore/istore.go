// Package istore's exported Cache holds only a pointer to a type of its
// internal package, where the locks live: it is tested through its own
// methods.
package istore

import "istore/internal/store"

// Cache is a cache.
type Cache struct {
	s *store.Store
}

// New returns a cache.
func New() *Cache { return &Cache{s: store.New()} }

// Put stores v under k.
func (c *Cache) Put(k string, v int) { c.s.Put(k, v) }

// Len returns the number of puts.
func (c *Cache) Len() int { return c.s.Len() }
