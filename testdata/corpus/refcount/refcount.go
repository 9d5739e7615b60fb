// Package refcount implements a reference-counted handle to a named
// resource.
package refcount

import (
	"errors"
	"sync"
)

// ErrReleased is returned by Retain once the resource has been released.
var ErrReleased = errors.New("refcount: resource released")

// Ref counts the holders of a named resource; the resource is released when
// the last holder lets go. The creator holds the first reference. A Ref is
// safe for concurrent use by multiple goroutines.
type Ref struct {
	mu       sync.Mutex
	name     string
	refs     int
	released bool
	onFree   []func(string)
}

// NewRef returns a Ref to the resource name with one reference held.
func NewRef(name string) *Ref {
	return &Ref{name: name, refs: 1}
}

// Name returns the resource name.
func (r *Ref) Name() string { return r.name }

// Count returns the number of references held.
func (r *Ref) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.refs
}

// Released reports whether the last reference has been dropped.
func (r *Ref) Released() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.released
}

// Retain adds a reference.
func (r *Ref) Retain() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.released {
		return ErrReleased
	}
	r.refs++
	return nil
}

// OnRelease registers fn to be called with the name when the resource is
// released.
func (r *Ref) OnRelease(fn func(string)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.onFree = append(r.onFree, fn)
}

// Release drops a reference and reports whether it was the last one. It
// does nothing once no references remain.
func (r *Ref) Release() bool {
	if r.Count() == 0 {
		return false
	}
	r.mu.Lock()
	r.refs--
	if r.refs < 0 {
		r.mu.Unlock()
		panic("refcount: negative reference count")
	}
	last := r.refs == 0
	var fns []func(string)
	if last {
		r.released = true
		fns = r.onFree
		r.onFree = nil
	}
	r.mu.Unlock()
	for _, fn := range fns {
		if fn != nil {
			fn(r.name)
		}
	}
	return last
}
