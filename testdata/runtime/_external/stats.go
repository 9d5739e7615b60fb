// Package external is a module of its own that does not depend on depcon:
// depcon test must work on it without writing into it.
package external

import "sync"

// Stats counts events. It is meant to be safe for concurrent use.
type Stats struct {
	mu     sync.Mutex
	counts map[string]int
	total  int
}

// NewStats returns empty statistics.
func NewStats() *Stats { return &Stats{counts: map[string]int{}} }

// Record counts an event. BUG: total is updated outside the lock.
func (s *Stats) Record(event string) {
	s.mu.Lock()
	s.counts[event]++
	s.mu.Unlock()
	s.total++
}

// Total returns the number of events.
func (s *Stats) Total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}
