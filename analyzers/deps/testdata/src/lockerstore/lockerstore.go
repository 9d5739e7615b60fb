// Package lockerstore holds a store behind an interface, guarded by a
// sync.Locker: calls into the store are the state the lock guards.
package lockerstore

import "sync"

// Store is the package's storage abstraction.
type Store interface {
	Get(k string) int
	Put(k string, v int)
}

type mapStore struct{ m map[string]int }

func (s *mapStore) Get(k string) int    { return s.m[k] }
func (s *mapStore) Put(k string, v int) { s.m[k] = v }

// Guarded wraps a store with a lock, but Put forgets it.
type Guarded struct {
	mu    sync.Locker
	store Store
}

// New returns a guarded store.
func New() *Guarded { return &Guarded{mu: &sync.Mutex{}, store: &mapStore{m: map[string]int{}}} }

// Get reads under the lock.
func (g *Guarded) Get(k string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.store.Get(k)
}

// Put writes without the lock.
func (g *Guarded) Put(k string, v int) { g.store.Put(k, v) }

// Locked is Guarded without the bug.
type Locked struct {
	mu    sync.Locker
	store Store
}

// Get reads under the lock.
func (l *Locked) Get(k string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.store.Get(k)
}

// Put writes under the lock.
func (l *Locked) Put(k string, v int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.store.Put(k, v)
}
