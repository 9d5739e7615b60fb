package seqfail

import (
	"sort"
	"sync"
)

// Slots is a table whose methods but Sort need a slot its zero value,
// the only value the package gives, lacks: every dependent pair has a
// call that panics, alone as in the pair, so no test passes and Slots is
// "not tested", never "no violation found".
type Slots struct {
	mu  sync.Mutex
	tab []int
}

// Swap exchanges slots i and j.
func (s *Slots) Swap(i, j int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tab[i], s.tab[j] = s.tab[j], s.tab[i]
}

// Sort sorts the slots.
func (s *Slots) Sort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	sort.Ints(s.tab)
}

// Set writes slot i.
func (s *Slots) Set(i, v int) { s.tab[i] = v }
