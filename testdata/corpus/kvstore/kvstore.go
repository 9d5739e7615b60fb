// Package kvstore provides an in-memory string-to-integer store.
package kvstore

import (
	"sort"
	"sync"
)

// Store maps string keys to integers. A Store is safe for concurrent use by
// multiple goroutines.
type Store struct {
	mu sync.Mutex
	m  map[string]int
}

// NewStore returns an empty Store.
func NewStore() *Store {
	return &Store{m: make(map[string]int)}
}

// Get returns the value of key.
func (s *Store) Get(key string) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok
}

// Set stores value under key.
func (s *Store) Set(key string, value int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = value
}

// Add adds delta to the value of key and returns the new value.
func (s *Store) Add(key string, delta int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] += delta
	return s.m[key]
}

// Delete removes key and reports whether it was present.
func (s *Store) Delete(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.m[key]
	delete(s.m, key)
	return ok
}

// Len returns the number of keys.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

// Keys returns the keys, sorted.
func (s *Store) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.m))
	for k := range s.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
