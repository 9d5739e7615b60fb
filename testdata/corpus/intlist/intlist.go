// Package intlist provides a list of integers that can be compared with
// and extended by other lists.
package intlist

import (
	"slices"
	"sync"
)

// List is an ordered list of integers. A List is safe for concurrent use by
// multiple goroutines.
type List struct {
	mu    sync.Mutex
	items []int
}

// NewList returns a List holding n zeros.
func NewList(n int) *List {
	if n < 0 {
		n = 0
	}
	return &List{items: make([]int, n)}
}

// Add appends x.
func (l *List) Add(x int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, x)
}

// Len returns the number of elements.
func (l *List) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.items)
}

// Contains reports whether x is in the list.
func (l *List) Contains(x int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Contains(l.items, x)
}

// Values returns a copy of the elements.
func (l *List) Values() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.items)
}

// Equal reports whether l and other hold the same elements in the same
// order.
func (l *List) Equal(other *List) bool {
	if other == nil {
		return false
	}
	theirs := other.Values()
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Equal(l.items, theirs)
}

// AddAll appends the elements of other.
func (l *List) AddAll(other *List) {
	if other == nil {
		return
	}
	theirs := other.Values()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, theirs...)
}

// Truncate keeps the first n elements.
func (l *List) Truncate(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n >= 0 && n < len(l.items) {
		l.items = l.items[:n]
	}
}
