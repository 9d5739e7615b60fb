// Package router maps request paths to backend targets and keeps per-path
// traffic statistics.
package router

import (
	"sort"
	"strings"
	"sync"
)

// Router resolves paths to targets. A Router is safe for concurrent use by
// multiple goroutines.
type Router struct {
	prefix string

	mu     sync.Mutex // guards routes
	routes map[string]string

	statsMu sync.Mutex // guards hits and misses
	hits    map[string]int
	misses  int
}

// NewRouter returns a Router whose paths all start with prefix.
func NewRouter(prefix string) *Router {
	return &Router{
		prefix: prefix,
		routes: make(map[string]string),
		hits:   make(map[string]int),
	}
}

// Handle registers target for path, replacing any previous target.
func (r *Router) Handle(path, target string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.routes[r.prefix+path] = target
}

// Remove unregisters path.
func (r *Router) Remove(path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.routes, r.prefix+path)
}

// Route returns the target for path and records the lookup.
func (r *Router) Route(path string) (string, bool) {
	key := r.prefix + strings.TrimSuffix(path, "/")
	r.mu.Lock()
	defer r.mu.Unlock()
	target, ok := r.routes[key]
	r.statsMu.Lock()
	if ok {
		r.hits[key]++
	} else {
		r.misses++
	}
	r.statsMu.Unlock()
	return target, ok
}

// Hits returns how many lookups resolved path.
func (r *Router) Hits(path string) int {
	r.statsMu.Lock()
	defer r.statsMu.Unlock()
	return r.hits[r.prefix+path]
}

// Misses returns the number of lookups that found no route.
func (r *Router) Misses() int {
	r.statsMu.Lock()
	defer r.statsMu.Unlock()
	return r.misses
}

// Prune removes the routes that have never been hit and returns them in
// sorted order.
func (r *Router) Prune() []string {
	r.statsMu.Lock()
	defer r.statsMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	var removed []string
	for key := range r.routes {
		if r.hits[key] == 0 {
			delete(r.routes, key)
			removed = append(removed, strings.TrimPrefix(key, r.prefix))
		}
	}
	sort.Strings(removed)
	return removed
}
