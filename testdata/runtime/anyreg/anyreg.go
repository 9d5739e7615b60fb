// Package anyreg has a registry whose Register takes any and keeps only
// the package's own metrics: a value of another type fails its first
// check, so the race behind it needs a *Counter the package builds.
package anyreg

import (
	"errors"
	"sync"
)

// ErrNotMetric is returned by Register for a value that is not a metric.
var ErrNotMetric = errors.New("anyreg: not a metric")

// Counter counts.
type Counter struct {
	mu sync.Mutex
	n  int
}

// NewCounter returns a counter at zero.
func NewCounter() *Counter { return &Counter{} }

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Registry names metrics. It is safe for concurrent use.
type Registry struct {
	mu      sync.Mutex
	metrics map[string]*Counter
	added   int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{metrics: map[string]*Counter{}} }

// Register adds metric m under name.
func (r *Registry) Register(name string, m any) error {
	c, ok := m.(*Counter)
	if !ok {
		return ErrNotMetric
	}
	r.mu.Lock()
	r.metrics[name] = c
	r.mu.Unlock()
	r.added++ // outside the lock
	return nil
}

// Added returns how many metrics were registered.
func (r *Registry) Added() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.added
}

// SafeRegistry is Registry with the count under the lock.
type SafeRegistry struct {
	mu      sync.Mutex
	metrics map[string]*Counter
	added   int
}

// NewSafeRegistry returns an empty registry.
func NewSafeRegistry() *SafeRegistry { return &SafeRegistry{metrics: map[string]*Counter{}} }

// Register adds metric m under name.
func (r *SafeRegistry) Register(name string, m any) error {
	c, ok := m.(*Counter)
	if !ok {
		return ErrNotMetric
	}
	r.mu.Lock()
	r.metrics[name] = c
	r.added++
	r.mu.Unlock()
	return nil
}

// Added returns how many metrics were registered.
func (r *SafeRegistry) Added() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.added
}
