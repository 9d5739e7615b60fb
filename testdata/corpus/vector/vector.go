// Package vector provides a growable array of integers.
package vector

import "sync"

// Vector is a growable array of integers. A Vector is safe for concurrent
// use by multiple goroutines.
type Vector struct {
	mu    sync.Mutex
	items []int
}

// NewVector returns an empty Vector with room for capacity elements.
func NewVector(capacity int) *Vector {
	if capacity < 0 {
		capacity = 0
	}
	return &Vector{items: make([]int, 0, capacity)}
}

// Add appends x.
func (v *Vector) Add(x int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.items = append(v.items, x)
}

// Get returns the element at index i.
func (v *Vector) Get(i int) (int, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if i < 0 || i >= len(v.items) {
		return 0, false
	}
	return v.items[i], true
}

// Set replaces the element at index i and reports whether i was in range.
func (v *Vector) Set(i, x int) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if i < 0 || i >= len(v.items) {
		return false
	}
	v.items[i] = x
	return true
}

// Len returns the number of elements.
func (v *Vector) Len() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.items)
}

// Values returns a copy of the elements.
func (v *Vector) Values() []int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]int(nil), v.items...)
}

// AddAll appends all elements of other and returns how many were added.
func (v *Vector) AddAll(other *Vector) int {
	if other == nil {
		return 0
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	var src []int
	if other == v {
		src = append([]int(nil), v.items...)
	} else {
		src = other.Values()
	}
	v.items = append(v.items, src...)
	return len(src)
}

// Clear removes all elements.
func (v *Vector) Clear() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.items = v.items[:0]
}
