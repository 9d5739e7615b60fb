package unguarded

import "sync"

// LazyRegistry initialises m in its constructor: the "if nil" store in
// Set never runs on an object the constructor built.
type LazyRegistry struct {
	mu sync.Mutex
	m  map[string]int
}

func NewLazyRegistry() *LazyRegistry { return &LazyRegistry{m: map[string]int{}} }

func (r *LazyRegistry) Set(k string, v int) {
	if r.m == nil {
		r.m = map[string]int{}
	}
	r.mu.Lock()
	r.m[k] = v
	r.mu.Unlock()
}

func (r *LazyRegistry) Get(k string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[k]
}

func (r *LazyRegistry) Del(k string) {
	r.mu.Lock()
	delete(r.m, k)
	r.mu.Unlock()
}

// LazyLeaky's constructor leaves m nil: every first Set races on it.
type LazyLeaky struct {
	mu sync.Mutex
	m  map[string]int
}

func NewLazyLeaky() *LazyLeaky { return &LazyLeaky{} }

func (r *LazyLeaky) Set(k string, v int) {
	if r.m == nil {
		r.m = map[string]int{} // want `r.m is written in Set without r.mu`
	}
	r.mu.Lock()
	r.m[k] = v
	r.mu.Unlock()
}

func (r *LazyLeaky) Get(k string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[k]
}

func (r *LazyLeaky) Del(k string) {
	r.mu.Lock()
	delete(r.m, k)
	r.mu.Unlock()
}
