// Package mapeq is the fixed variant of testdata/runtime/mapeq: Equal
// copies the other map before it takes its own lock.
package mapeq

import "sync"

// Map is a map from strings to ints, safe for concurrent use.
type Map struct {
	mu sync.Mutex
	m  map[string]int
}

// NewMap returns an empty Map.
func NewMap() *Map { return &Map{m: map[string]int{}} }

// Put sets the value of k.
func (m *Map) Put(k string, v int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[k] = v
}

// Get returns the value of k.
func (m *Map) Get(k string) (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[k]
	return v, ok
}

// Len returns the number of keys.
func (m *Map) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.m)
}

// Equal reports whether m and o hold the same entries. It copies o
// before it locks m, so it never holds both locks.
func (m *Map) Equal(o *Map) bool {
	if o == m {
		return true
	}
	o.mu.Lock()
	other := make(map[string]int, len(o.m))
	for k, v := range o.m {
		other[k] = v
	}
	o.mu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(other) != len(m.m) {
		return false
	}
	for k, v := range m.m {
		if w, ok := other[k]; !ok || w != v {
			return false
		}
	}
	return true
}
