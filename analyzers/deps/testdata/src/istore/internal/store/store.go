// Package store is the internal store of istore, where the locks live.
package store

import "sync"

// Store is a map under a lock, but for Len, which forgets it.
type Store struct {
	mu sync.Mutex
	m  map[string]int
	n  int
}

// New returns an empty store.
func New() *Store { return &Store{m: map[string]int{}} }

// Put stores v under k.
func (s *Store) Put(k string, v int) {
	s.mu.Lock()
	s.m[k] = v
	s.n++
	s.mu.Unlock()
}

// Len reads the count without the lock.
func (s *Store) Len() int { return s.n }
