// want package:"rwrdeadlock.Registry.mu"

package rwrdeadlock

import "sync"

type Registry struct {
	mu sync.RWMutex
	m  map[string]int
}

func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.m)
}

func (r *Registry) Lookup(k string) (int, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.Len() == 0 { // want `r.mu is read-locked \(in Len\) while already read-locked \(at rwrdeadlock.go:19:12\), and is write-locked at rwrdeadlock.go:3\d:\d+`
		return 0, false
	}
	v, ok := r.m[k]
	return v, ok
}

func (r *Registry) Direct() int {
	r.mu.RLock()
	r.mu.RLock() // want `r.mu is read-locked while already read-locked`
	n := len(r.m)
	r.mu.RUnlock()
	r.mu.RUnlock()
	return n
}

func (r *Registry) Register(k string, v int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[k] = v
}

// No writer: recursive read locking cannot deadlock.
type ReadOnly struct {
	mu sync.RWMutex
	m  map[string]int
}

func (r *ReadOnly) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.m)
}

func (r *ReadOnly) Get(k string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.Len() == 0 {
		return 0
	}
	return r.m[k]
}

// Correct: the read lock is released before reading again.
func (r *Registry) Sequential() int {
	r.mu.RLock()
	n := len(r.m)
	r.mu.RUnlock()
	return n + r.Len()
}

// Correct: another object.
func (r *Registry) Both(o *Registry) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.m) + o.Len()
}
