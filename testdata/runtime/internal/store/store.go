// Package store is an internal package whose unexported methods are
// helpers run under their caller's lock: they are entry points of the
// tests only with -unexported.
package store

import "sync"

// Store holds values.
type Store struct {
	mu sync.Mutex
	m  map[string]int
}

// Put stores v under k, compacting under the lock.
func (s *Store) Put(k string, v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = v
	s.compact()
}

// compact drops the zero values; its caller holds s.mu.
func (s *Store) compact() {
	for k, v := range s.m {
		if v == 0 {
			delete(s.m, k)
		}
	}
}
