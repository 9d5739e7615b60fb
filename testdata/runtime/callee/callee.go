// Package callee has windows that lie inside a callee of the calls that
// race: the statement the static evidence names is a call, and the
// interleaving that breaks the type must stop the goroutine between two
// operations of the function it calls, with a lock held.
package callee

import (
	"sync"
	"sync/atomic"
)

// Index is a list of names that readers see without locking: Add
// publishes a new slice and its length by two atomic stores, under the
// writers' lock. The length is published first, so a reader between the
// two stores indexes the old, shorter slice.
type Index struct {
	mu    sync.Mutex
	names atomic.Value // []string
	n     atomic.Int64
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	x := &Index{}
	x.names.Store([]string(nil))
	return x
}

// Add appends name.
func (x *Index) Add(name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	old := x.names.Load().([]string)
	next := make([]string, len(old), len(old)+1)
	copy(next, old)
	x.publish(append(next, name))
}

func (x *Index) publish(next []string) {
	x.n.Store(int64(len(next)))
	x.names.Store(next)
}

// Last returns the name added last, or "".
func (x *Index) Last() string {
	n := x.n.Load()
	if n == 0 {
		return ""
	}
	return x.names.Load().([]string)[n-1]
}

// SafeIndex is Index with the stores in the right order: the slice
// first, then its length. A reader sees a length no longer than the
// slice it loads after it.
type SafeIndex struct {
	mu    sync.Mutex
	names atomic.Value // []string
	n     atomic.Int64
}

// NewSafeIndex returns an empty index.
func NewSafeIndex() *SafeIndex {
	x := &SafeIndex{}
	x.names.Store([]string(nil))
	return x
}

// Add appends name.
func (x *SafeIndex) Add(name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	old := x.names.Load().([]string)
	next := make([]string, len(old), len(old)+1)
	copy(next, old)
	x.publish(append(next, name))
}

func (x *SafeIndex) publish(next []string) {
	x.names.Store(next)
	x.n.Store(int64(len(next)))
}

// Last returns the name added last, or "".
func (x *SafeIndex) Last() string {
	n := x.n.Load()
	if n == 0 {
		return ""
	}
	return x.names.Load().([]string)[n-1]
}
