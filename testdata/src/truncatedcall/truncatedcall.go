// plan: X: |M|=6 pc=3 d=0

// Package truncatedcall calls a method of another package whose summary
// is cut at its size limit (truncated's T.Big): the caller's summary is
// cut too when what Big lost may be the caller's shared memory (Shared),
// not when Big only gets memory that is the caller's own (Local).
package truncatedcall

import (
	"sync"
	"truncated"
)

// X holds a T.
type X struct {
	mu sync.Mutex
	n  int
	t  truncated.T
}

// Shared calls Big on the T that X holds: what Big's summary lost may
// be that T's memory, part of X's. (Shared's summary has room for all
// that Big's shows: it is cut only because Big's is.)
func (x *X) Shared() int { return x.t.Big() }

// Local calls Big on a T of its own: nothing that Big's summary lost is
// X's.
func (x *X) Local() int {
	var t truncated.T
	return t.Big()
}

// Count increments n under the lock.
func (x *X) Count() {
	x.mu.Lock()
	x.n++
	x.mu.Unlock()
}
