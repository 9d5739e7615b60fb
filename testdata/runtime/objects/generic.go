// Types obtained through generic functions: Cache is built only by a
// generic builder (NewBuilder[K, V](n).Build()), and Registry's Add needs
// a Source, which only the generic NewStatic[T] makes. Cache counts its
// hits without its lock and Registry its loads; SafeRegistry, Registry's
// twin, is correct.

package objects

import (
	"errors"
	"sync"
)

// Builder configures a Cache.
type Builder[K comparable, V any] struct{ size int }

// NewBuilder returns a builder of caches of size entries.
func NewBuilder[K comparable, V any](size int) *Builder[K, V] { return &Builder[K, V]{size: size} }

// Build returns the cache.
func (b *Builder[K, V]) Build() (*Cache[K, V], error) {
	if b.size <= 0 {
		return nil, errors.New("size must be positive")
	}
	return &Cache[K, V]{m: make(map[K]V), size: b.size}, nil
}

// Cache is a map of at most size entries.
type Cache[K comparable, V any] struct {
	mu   sync.Mutex
	m    map[K]V
	size int
	hits int
}

// Set sets k to v.
func (c *Cache[K, V]) Set(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) < c.size {
		c.m[k] = v
	}
}

// Get returns the value of k, counting a hit without the lock.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		c.hits++
	}
	return v, ok
}

// Hits returns the number of hits.
func (c *Cache[K, V]) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// A Source loads a value.
type Source interface{ Load() (int, error) }

// Static is a Source of a fixed value.
type Static[T any] struct{ v T }

// NewStatic returns a Source of v.
func NewStatic[T any](v T) *Static[T] { return &Static[T]{v: v} }

// Load returns 1.
func (s *Static[T]) Load() (int, error) { return 1, nil }

// Registry refreshes its sources.
type Registry struct {
	mu    sync.Mutex
	srcs  []Source
	loads int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

// Add adds s, which must not be nil.
func (r *Registry) Add(s Source) {
	if s == nil {
		panic("generic: nil Source")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.srcs = append(r.srcs, s)
}

// Refresh loads every source, counting the loads without the lock.
func (r *Registry) Refresh() {
	r.mu.Lock()
	srcs := r.srcs
	r.mu.Unlock()
	for _, s := range srcs {
		if _, err := s.Load(); err == nil {
			r.loads++
		}
	}
}

// Loads returns the number of loads.
func (r *Registry) Loads() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.loads
}

// SafeRegistry is Registry with its loads counted under the lock.
type SafeRegistry struct {
	mu    sync.Mutex
	srcs  []Source
	loads int
}

// NewSafeRegistry returns an empty registry.
func NewSafeRegistry() *SafeRegistry { return &SafeRegistry{} }

// Add adds s, which must not be nil.
func (r *SafeRegistry) Add(s Source) {
	if s == nil {
		panic("generic: nil Source")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.srcs = append(r.srcs, s)
}

// Refresh loads every source.
func (r *SafeRegistry) Refresh() {
	r.mu.Lock()
	srcs := r.srcs
	r.mu.Unlock()
	n := 0
	for _, s := range srcs {
		if _, err := s.Load(); err == nil {
			n++
		}
	}
	r.mu.Lock()
	r.loads += n
	r.mu.Unlock()
}

// Loads returns the number of loads.
func (r *SafeRegistry) Loads() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.loads
}
