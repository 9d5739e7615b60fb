// Package genericlib declares a generic type whose methods another
// package promotes (genericforeign): their summaries reach it as facts
// on the generic methods.
package genericlib

import "sync"

// Map is a map guarded by a read-write mutex, but for Len, which reads
// the count without it.
type Map[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
	n  int
}

// NewMap returns an empty Map.
func NewMap[K comparable, V any]() *Map[K, V] { return &Map[K, V]{m: map[K]V{}} }

func (m *Map[K, V]) Load(k K) (V, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	v, ok := m.m[k]
	return v, ok
}

func (m *Map[K, V]) Store(k K, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.m[k]; !ok {
		m.n++
	}
	m.m[k] = v
}

// Len reads the count without the lock.
func (m *Map[K, V]) Len() int { return m.n }
