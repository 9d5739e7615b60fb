// Package peerset tracks the members of a cluster and picks one per key.
package peerset

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Set is a set of peers. Membership is read without locking from an
// immutable snapshot; changes build a new snapshot under a lock and drop
// the cached picks. A Set is safe for concurrent use by multiple
// goroutines.
type Set struct {
	peers atomic.Pointer[[]string]
	picks atomic.Int64

	mu      sync.Mutex // serialises changes; taken before cacheMu
	cacheMu sync.Mutex
	cache   map[string]string
}

// NewSet returns an empty set.
func NewSet() *Set {
	s := &Set{cache: make(map[string]string)}
	s.peers.Store(new([]string))
	return s
}

// Add adds peer. It reports false if peer is already a member.
func (s *Set) Add(peer string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := *s.peers.Load()
	if slices.Contains(old, peer) {
		return false
	}
	s.replace(append(slices.Clip(old), peer))
	return true
}

// Remove removes peer. It reports false if peer is not a member.
func (s *Set) Remove(peer string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := *s.peers.Load()
	i := slices.Index(old, peer)
	if i < 0 {
		return false
	}
	s.replace(slices.Delete(slices.Clone(old), i, i+1))
	return true
}

// Has reports whether peer is a member.
func (s *Set) Has(peer string) bool {
	return slices.Contains(*s.peers.Load(), peer)
}

// Peers returns the members in the order they were added.
func (s *Set) Peers() []string {
	return slices.Clone(*s.peers.Load())
}

// Pick returns the member responsible for key, or "" when the set is
// empty.
func (s *Set) Pick(key string) string {
	s.picks.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if p, ok := s.cache[key]; ok {
		return p
	}
	peers := *s.peers.Load()
	if len(peers) == 0 {
		return ""
	}
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h = (h ^ uint32(key[i])) * 16777619
	}
	p := peers[h%uint32(len(peers))]
	s.cache[key] = p
	return p
}

// Picks returns the number of calls to Pick so far.
func (s *Set) Picks() int64 { return s.picks.Load() }

// replace installs peers and drops the cached picks; s.mu must be held.
func (s *Set) replace(peers []string) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	s.peers.Store(&peers)
	clear(s.cache)
}
