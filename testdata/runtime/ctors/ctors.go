// Package ctors builds its types the ways real packages do: behind an
// interface, through an unexported implementation, with a builder, and
// with functional options. Each type has a race that depcon test finds
// only on an object built by its constructor: the zero value panics.
package ctors

import (
	"sync"
	"time"
)

// Registry records named counters.
type Registry interface {
	Register(name string)
	Count(name string) int
}

// StandardRegistry is the registry NewRegistry returns.
type StandardRegistry struct {
	mu    sync.Mutex
	names map[string]int
	last  string
}

// NewRegistry returns a registry: its only constructor returns the
// interface.
func NewRegistry() Registry { return &StandardRegistry{names: map[string]int{}} }

// Register records name.
func (r *StandardRegistry) Register(name string) {
	r.mu.Lock()
	r.names[name]++ // panics on the zero value: the map is nil
	r.mu.Unlock()
	r.last = name // the race: written after the unlock
}

// Count returns how many times name was registered.
func (r *StandardRegistry) Count(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	_ = r.last
	return r.names[name]
}

// Set is a set of strings.
type Set interface {
	Add(s string)
	Has(s string) bool
}

// NewSet returns a set safe for concurrent use: its implementation is
// unexported.
func NewSet() Set { return &threadSafeSet{m: map[string]bool{}} }

// threadSafeSet is a set guarded by a mutex, but for its size.
type threadSafeSet struct {
	mu   sync.RWMutex
	m    map[string]bool
	size int
}

func (s *threadSafeSet) Add(v string) {
	s.mu.Lock()
	s.m[v] = true
	s.mu.Unlock()
	s.size++ // the race
}

func (s *threadSafeSet) Has(v string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.m[v] && s.size > 0
}

// Builder builds caches.
type Builder struct {
	size int
	ttl  time.Duration
}

// NewBuilder starts a cache of at most size entries.
func NewBuilder(size int) *Builder { return &Builder{size: size} }

// TTL sets the entries' time to live.
func (b *Builder) TTL(d time.Duration) *Builder { b.ttl = d; return b }

// Build returns the cache.
func (b *Builder) Build() *Cache {
	return &Cache{items: make(map[string]string, b.size), ttl: b.ttl}
}

// Cache is built only by a Builder.
type Cache struct {
	mu    sync.Mutex
	items map[string]string
	ttl   time.Duration
	hits  int
}

// Put stores v under k.
func (c *Cache) Put(k, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = v // panics on the zero value
}

// Get returns the value stored under k.
func (c *Cache) Get(k string) string {
	c.mu.Lock()
	v := c.items[k]
	c.mu.Unlock()
	if v != "" {
		c.hits++ // the race
	}
	return v
}
