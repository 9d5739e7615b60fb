// Package bitset implements a growable set of small non-negative integers.
package bitset

import (
	"math/bits"
	"sync"
)

// Set is a set of non-negative integers stored as a bit vector. A Set is
// safe for concurrent use by multiple goroutines.
type Set struct {
	mu    sync.Mutex
	words []uint64
}

// NewSet returns an empty Set.
func NewSet() *Set { return &Set{} }

// Add inserts i and reports whether it was newly added. Negative values are
// ignored.
func (s *Set) Add(i int) bool {
	if i < 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := i / 64
	for len(s.words) <= w {
		s.words = append(s.words, 0)
	}
	had := s.words[w]&(1<<(i%64)) != 0
	s.words[w] |= 1 << (i % 64)
	return !had
}

// Remove deletes i from the set.
func (s *Set) Remove(i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= 0 && i/64 < len(s.words) {
		s.words[i/64] &^= 1 << (i % 64)
	}
}

// Contains reports whether i is in the set.
func (s *Set) Contains(i int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return i >= 0 && i/64 < len(s.words) && s.words[i/64]&(1<<(i%64)) != 0
}

// Count returns the number of elements.
func (s *Set) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, w := range s.words {
		n += bits.OnesCount64(w)
	}
	return n
}

func (s *Set) snapshot() []uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]uint64(nil), s.words...)
}

// Union adds every element of other to s.
func (s *Set) Union(other *Set) {
	if other == nil {
		return
	}
	ow := other.snapshot()
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.words) < len(ow) {
		s.words = append(s.words, 0)
	}
	for i, w := range ow {
		s.words[i] |= w
	}
}

// Intersects reports whether s and other have an element in common.
func (s *Set) Intersects(other *Set) bool {
	if other == nil {
		return false
	}
	if other == s {
		return s.Count() > 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ow := other.snapshot()
	for i := 0; i < len(s.words) && i < len(ow); i++ {
		if s.words[i]&ow[i] != 0 {
			return true
		}
	}
	return false
}
