// Package demo is the module the language server's tests open: a
// self-deadlock the analyzers report, and a counter with a data race
// that depcon test finds.
package demo

import "sync"

// Registry maps names to values; it is meant for concurrent use.
type Registry struct {
	mu    sync.Mutex
	items map[string]int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{items: map[string]int{}} }

// Len returns the number of names.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.items)
}

// Put sets a name, and locks the registry again through Len while it
// holds its lock: a self-deadlock.
func (r *Registry) Put(name string, v int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items[name] = v
	return r.Len()
}
