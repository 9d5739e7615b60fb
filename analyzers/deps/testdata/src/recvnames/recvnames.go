// Package recvnames checks that the plan names receivers as the source
// does: in text about a type, by the name its methods give their receiver
// most often (the first in source order on a tie), "recv" when none names
// it; in the text of a pair, by the method's own name when both name it
// alike, else by the type's.
package recvnames

import "sync"

// Store's methods call their receiver s, but for Peek's st, declared
// first: the type's text says s.
type Store struct {
	mu sync.Mutex
	m  map[string]int
}

func (st *Store) Peek(k string) int { return st.m[k] }

func (s *Store) Put(k string, v int) {
	s.mu.Lock()
	s.m[k] = v
	s.mu.Unlock()
}

func (s *Store) Del(k string) {
	s.mu.Lock()
	delete(s.m, k)
	s.mu.Unlock()
}

// Tie's two methods name their receiver b and a: b, declared first, is
// the type's.
type Tie struct {
	mu sync.Mutex
	n  int
}

func (b *Tie) Bump() {
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
}

func (a *Tie) Get() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n
}

type inner struct {
	mu sync.Mutex
	n  int
}

func (in *inner) Add(k int) {
	in.mu.Lock()
	in.n += k
	in.mu.Unlock()
}

// Anon names no receiver: its own methods leave it unnamed or _, and Add,
// promoted from *inner, is in's. Its text says recv.
type Anon struct {
	mu sync.Mutex
	*inner
}

func (*Anon) Kind() string { return "anon" }

func (_ *Anon) Size() int { return 0 }
