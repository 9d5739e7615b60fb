package unguardedtrunc

import "sync"

// S is T with a whole summary: Big writes last without the lock that
// Last and Set hold, and PeekG reads g without the lock that Big and
// SetG hold. Both are reported.
type S struct {
	mu   sync.Mutex
	last int
	g    int
}

// Big writes last without the lock and reads g under it.
func (s *S) Big() int {
	s.last = 1 // want `s.last is written in Big without s.mu`
	s.mu.Lock()
	g := s.g
	s.mu.Unlock()
	return g
}

// Last reads last under the lock.
func (s *S) Last() int { s.mu.Lock(); defer s.mu.Unlock(); return s.last }

// Set writes last under the lock.
func (s *S) Set(n int) { s.mu.Lock(); s.last = n; s.mu.Unlock() }

// SetG writes g under the lock.
func (s *S) SetG(n int) { s.mu.Lock(); s.g = n; s.mu.Unlock() }

// PeekG reads g without the lock.
func (s *S) PeekG() int {
	return s.g // want `s.g is read in PeekG without s.mu`
}
