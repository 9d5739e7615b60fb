// Package lazyinit has a window that exists only on an object's first
// use: a lookup table built on the first call and published by two
// atomic stores inside a helper. A caller that arrives between the two
// stores takes the fast path and finds no table.
package lazyinit

import (
	"sync"
	"sync/atomic"
)

// Squares answers i*i from a table it builds on first use. The fast
// path checks ready without the lock; build sets ready before it stores
// the table, so a concurrent first Lookup may load a nil table.
type Squares struct {
	mu    sync.Mutex
	ready atomic.Bool
	table atomic.Pointer[[]int]
	size  int
	name  string
}

// NewSquares returns a table of the squares below size.
func NewSquares(size int) *Squares {
	if size < 1 {
		size = 1
	}
	return &Squares{size: size}
}

// Lookup returns i*i for i in [0, size), and -1 otherwise.
func (s *Squares) Lookup(i int) int {
	s.ensure()
	t := *s.table.Load()
	if i < 0 || i >= len(t) {
		return -1
	}
	return t[i]
}

// Sum returns the sum of the squares in the table.
func (s *Squares) Sum() int {
	s.ensure()
	n := 0
	for _, v := range *s.table.Load() {
		n += v
	}
	return n
}

// Contains reports whether v is a square in the table.
func (s *Squares) Contains(v int) bool {
	s.ensure()
	for _, w := range *s.table.Load() {
		if w == v {
			return true
		}
	}
	return false
}

// Name returns the table's name.
func (s *Squares) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name
}

// SetName names the table.
func (s *Squares) SetName(name string) {
	s.mu.Lock()
	s.name = name
	s.mu.Unlock()
}

// Len returns the number of squares in the table.
func (s *Squares) Len() int {
	s.ensure()
	return len(*s.table.Load())
}

func (s *Squares) ensure() {
	if !s.ready.Load() {
		s.mu.Lock()
		if !s.ready.Load() {
			s.build()
		}
		s.mu.Unlock()
	}
}

func (s *Squares) build() {
	t := make([]int, s.size)
	for i := range t {
		t[i] = i * i
	}
	s.ready.Store(true)
	s.table.Store(&t)
}

// SafeSquares is Squares with build's stores in the right order: the
// table first, then the flag that lets readers skip the lock.
type SafeSquares struct {
	mu    sync.Mutex
	ready atomic.Bool
	table atomic.Pointer[[]int]
	size  int
	name  string
}

// NewSafeSquares returns a table of the squares below size.
func NewSafeSquares(size int) *SafeSquares {
	if size < 1 {
		size = 1
	}
	return &SafeSquares{size: size}
}

// Lookup returns i*i for i in [0, size), and -1 otherwise.
func (s *SafeSquares) Lookup(i int) int {
	s.ensure()
	t := *s.table.Load()
	if i < 0 || i >= len(t) {
		return -1
	}
	return t[i]
}

// Sum returns the sum of the squares in the table.
func (s *SafeSquares) Sum() int {
	s.ensure()
	n := 0
	for _, v := range *s.table.Load() {
		n += v
	}
	return n
}

// Contains reports whether v is a square in the table.
func (s *SafeSquares) Contains(v int) bool {
	s.ensure()
	for _, w := range *s.table.Load() {
		if w == v {
			return true
		}
	}
	return false
}

// Name returns the table's name.
func (s *SafeSquares) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name
}

// SetName names the table.
func (s *SafeSquares) SetName(name string) {
	s.mu.Lock()
	s.name = name
	s.mu.Unlock()
}

// Len returns the number of squares in the table.
func (s *SafeSquares) Len() int {
	s.ensure()
	return len(*s.table.Load())
}

func (s *SafeSquares) ensure() {
	if !s.ready.Load() {
		s.mu.Lock()
		if !s.ready.Load() {
			s.build()
		}
		s.mu.Unlock()
	}
}

func (s *SafeSquares) build() {
	t := make([]int, s.size)
	for i := range t {
		t[i] = i * i
	}
	s.table.Store(&t)
	s.ready.Store(true)
}
