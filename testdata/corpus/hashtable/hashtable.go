// Package hashtable provides a string-keyed table of integers.
package hashtable

import (
	"sort"
	"sync"
)

// Table maps string keys to integer values. A Table is safe for concurrent
// use by multiple goroutines.
type Table struct {
	mu sync.Mutex
	m  map[string]int
}

// NewTable returns an empty Table.
func NewTable() *Table {
	return &Table{m: make(map[string]int)}
}

// Put sets the value for key and returns the previous value, if any.
func (t *Table) Put(key string, value int) (old int, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	old, ok = t.m[key]
	t.m[key] = value
	return old, ok
}

// Get returns the value stored for key.
func (t *Table) Get(key string) (int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.m[key]
	return v, ok
}

// Remove deletes key and reports whether it was present.
func (t *Table) Remove(key string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.m[key]
	delete(t.m, key)
	return ok
}

// Len returns the number of entries.
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}

// Keys returns the keys in sorted order.
func (t *Table) Keys() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	keys := make([]string, 0, len(t.m))
	for k := range t.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Equal reports whether t and other hold the same entries.
func (t *Table) Equal(other *Table) bool {
	if other == nil {
		return false
	}
	if other == t {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.m) != other.Len() {
		return false
	}
	for k, v := range t.m {
		if ov, ok := other.Get(k); !ok || ov != v {
			return false
		}
	}
	return true
}
