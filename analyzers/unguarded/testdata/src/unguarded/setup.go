package unguarded

import (
	"sync"
	"sync/atomic"
)

// MaxLimiter's WithMax is a fluent setter, chained after the constructor
// before the limiter is shared: its plain write is no race with the
// atomic accesses of the other methods.
type MaxLimiter struct {
	n   int64
	max int64
}

func NewMaxLimiter() *MaxLimiter { return &MaxLimiter{max: 10} }

func (l *MaxLimiter) WithMax(m int64) *MaxLimiter {
	l.max = m
	return l
}

func (l *MaxLimiter) SetMax(m int64) { atomic.StoreInt64(&l.max, m) }

func (l *MaxLimiter) Allow() bool { return atomic.AddInt64(&l.n, 1) <= atomic.LoadInt64(&l.max) }

// HashTable's hash function is configuration: SetHash is its only writer,
// without a lock, and Get reads it without one too.
type HashTable struct {
	mu   sync.Mutex
	m    map[int]int
	hash func(int) int
}

func (t *HashTable) SetHash(f func(int) int) { t.hash = f }

func (t *HashTable) Get(k int) int {
	h := t.hash
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[h(k)]
}

func (t *HashTable) Put(k, v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m[t.hash(k)] = v
}

func (t *HashTable) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}

// Pool1's Configure is documented nowhere as a set-up method, and the
// other methods read its field under the lock, but its maintainer wrote
// the contract down: its plain write is no race.
type Pool1 struct {
	mu      sync.Mutex
	workers int
	queue   []int
}

//depcon:setup called by main before Serve
func (s *Pool1) Configure(n int) { s.workers = n }

func (s *Pool1) Workers() int { s.mu.Lock(); defer s.mu.Unlock(); return s.workers }

func (s *Pool1) Grow() { s.mu.Lock(); s.workers++; s.mu.Unlock() }

// Twin without the directive: reported.
type Pool2 struct {
	mu      sync.Mutex
	workers int
}

func (s *Pool2) Configure(n int) { s.workers = n } // want `s.workers is written in Configure without s.mu`

func (s *Pool2) Workers() int { s.mu.Lock(); defer s.mu.Unlock(); return s.workers }

func (s *Pool2) Grow() { s.mu.Lock(); s.workers++; s.mu.Unlock() }
