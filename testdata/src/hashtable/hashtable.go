// plan: Table: |M|=10 pc=0 d=1

// Package hashtable is DepCon+'s Hashtable example (its Figure 3) in Go:
// Equal locks the receiver and then, through Len and Get, the other table.
package hashtable

import "sync"

// Table is a map safe for concurrent use.
type Table struct {
	mu sync.Mutex
	m  map[string]int
}

// NewTable returns an empty Table.
func NewTable() *Table { return &Table{m: make(map[string]int)} }

// Put sets the value of k.
func (t *Table) Put(k string, v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m[k] = v
}

// Get returns the value of k.
func (t *Table) Get(k string) (int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.m[k]
	return v, ok
}

// Len returns the number of keys.
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}

// Equal reports whether t and o hold the same keys and values.
func (t *Table) Equal(o *Table) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if o == t {
		return true
	}
	if o.Len() != len(t.m) {
		return false
	}
	for k, v := range t.m {
		if w, ok := o.Get(k); !ok || w != v {
			return false
		}
	}
	return true
}
