// Package mapeq has a map wrapper whose Equal holds its own lock while it
// takes the other map's: a.Equal(b) and b.Equal(a) run concurrently take
// the two locks in opposite orders and may deadlock (the JDK Hashtable bug
// of the DepCon+ paper, Figure 3).
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

// Equal reports whether m and o hold the same entries. BUG: it calls
// o.Len and o.Get, which lock o, while it holds m's lock.
func (m *Map) Equal(o *Map) bool {
	if o == m {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if o.Len() != len(m.m) {
		return false
	}
	for k, v := range m.m {
		if w, ok := o.Get(k); !ok || w != v {
			return false
		}
	}
	return true
}
