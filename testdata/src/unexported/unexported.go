// plan: Store: |M|=3 pc=0 d=0

// Package unexported has unexported methods and types: they are planned
// in the full view only, for tests that run inside the package.
package unexported

import "sync"

// Store is a map under a mutex.
type Store struct {
	mu sync.Mutex
	m  map[string]int
}

// Put stores k under the lock.
func (s *Store) Put(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.put(k)
}

// put stores k; the caller holds the lock.
func (s *Store) put(k string) { s.m[k] = 1 }

// Get reads k under the lock.
func (s *Store) Get(k string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[k]
}

// worker is an unexported type.
type worker struct{ n int }

func (w *worker) inc()     { w.n++ }
func (w *worker) get() int { return w.n }
