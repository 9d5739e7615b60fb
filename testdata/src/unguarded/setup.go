package unguarded

import (
	"sync"
	"sync/atomic"
)

// Limiter's WithMax is a fluent setter, chained after the constructor
// before the limiter is shared: its plain write is no race with the
// atomic accesses of the other methods.
type Limiter struct {
	n   int64
	max int64
}

func NewLimiter() *Limiter { return &Limiter{max: 10} }

func (l *Limiter) WithMax(m int64) *Limiter {
	l.max = m
	return l
}

func (l *Limiter) SetMax(m int64) { atomic.StoreInt64(&l.max, m) }

func (l *Limiter) Allow() bool { return atomic.AddInt64(&l.n, 1) <= atomic.LoadInt64(&l.max) }

// Table's hash function is configuration: SetHash is its only writer,
// without a lock, and Get reads it without one too.
type Table struct {
	mu   sync.Mutex
	m    map[int]int
	hash func(int) int
}

func (t *Table) SetHash(f func(int) int) { t.hash = f }

func (t *Table) Get(k int) int {
	h := t.hash
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[h(k)]
}

func (t *Table) Put(k, v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m[t.hash(k)] = v
}

func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}
