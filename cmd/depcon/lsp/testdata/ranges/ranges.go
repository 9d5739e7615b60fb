// Package ranges is the package the tests of diagnostic ranges analyse:
// a lock order inversion and an unguarded read.
package ranges

import "sync"

// Transfer holds two locks, taken in opposite orders by AB and BA.
type Transfer struct {
	a, b sync.Mutex
	n    int
}

// AB locks a, then b.
func (t *Transfer) AB() {
	t.a.Lock()
	defer t.a.Unlock()
	t.b.Lock()
	t.n++
	t.b.Unlock()
}

// BA locks b, then a.
func (t *Transfer) BA() {
	t.b.Lock()
	defer t.b.Unlock()
	t.a.Lock()
	t.n--
	t.a.Unlock()
}

// Count reads n without the locks that guard its writes.
func (t *Transfer) Count() int {
	return t.n
}
