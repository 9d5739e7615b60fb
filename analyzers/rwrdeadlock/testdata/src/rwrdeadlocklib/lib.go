// want package:"rwrdeadlocklib.Table.mu"

// Package rwrdeadlocklib holds a table guarded by an RWMutex, read and
// written by importing packages in the rwrdeadlock tests.
package rwrdeadlocklib

import "sync"

// Table maps keys to values; safe for concurrent use.
type Table struct {
	mu sync.RWMutex
	m  map[string]int
}

// Get returns the value of k.
func (t *Table) Get(k string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.m[k]
}

// Set sets the value of k.
func (t *Table) Set(k string, v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m[k] = v
}

// Each calls f for every key, with the table read-locked.
func (t *Table) Each(f func(string)) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for k := range t.m {
		f(k)
	}
}

// RLock and RUnlock let callers read several values consistently.
func (t *Table) RLock()   { t.mu.RLock() }
func (t *Table) RUnlock() { t.mu.RUnlock() }

// Stats holds counters read under a read lock and never write-locked.
type Stats struct {
	mu sync.RWMutex
	n  int
}

// N returns the counter.
func (s *Stats) N() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.n
}

// Each calls f with the stats read-locked.
func (s *Stats) Each(f func(int)) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	f(s.n)
}
