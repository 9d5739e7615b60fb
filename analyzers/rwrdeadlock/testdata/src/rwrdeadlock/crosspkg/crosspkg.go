// want package:"crosspkg.Index.mu"

// Package crosspkg holds recursive read locks whose second reader or
// writer is in another package, several calls away, or behind a
// callback, each next to a correct variant.
package crosspkg

import (
	"fmt"
	"sync"

	"rwrdeadlocklib"
)

// The writer (Set) is in the table's package; the second read lock in
// Get, called with the read lock taken through the package's RLock.
func Lookup(t *rwrdeadlocklib.Table, k string) int {
	t.RLock()
	defer t.RUnlock()
	return t.Get(k) // want `t.mu is read-locked \(in Get\) while already read-locked \(at crosspkg.go:\d+:\d+\), and is write-locked at lib.go:\d+:\d+`
}

// Each read-locks the table while it calls the closure, which reads the
// table again.
func Sum(t *rwrdeadlocklib.Table) int {
	n := 0
	t.Each(func(k string) { // want `t.mu is read-locked \(in Get, called through a function value\) while already read-locked`
		n += t.Get(k)
	})
	return n
}

// Correct: the stats are never write-locked.
func Total(s *rwrdeadlocklib.Stats) int {
	n := 0
	s.Each(func(int) { n += s.N() })
	return n
}

// Correct: the keys are collected first, the values read after.
func Sum2(t *rwrdeadlocklib.Table) int {
	var keys []string
	t.Each(func(k string) { keys = append(keys, k) })
	n := 0
	for _, k := range keys {
		n += t.Get(k)
	}
	return n
}

type Index struct {
	mu   sync.RWMutex
	m    map[string][]string
	hook func(string) int
}

func (x *Index) count(k string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.m[k])
}

// Several calls away: Docs → total → count.
func (x *Index) Docs(k string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.total(k) // want `x.mu is read-locked \(in count\) while already read-locked`
}

func (x *Index) total(k string) int { return x.sum(k) }

func (x *Index) sum(k string) int { return x.count(k) }

func (x *Index) Add(k, doc string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.m[k] = append(x.m[k], doc)
}

// A hook stored in the index, reading the index it belongs to.
func NewIndex() *Index {
	x := &Index{m: map[string][]string{}}
	x.hook = func(k string) int { return x.count(k) }
	return x
}

func (x *Index) Hooked(k string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.hook(k) // want `x.mu is read-locked \(in count, called through a function value\) while already read-locked`
}

// Recursion with the read lock held.
func (x *Index) Expand(k string, depth int) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if depth == 0 {
		return len(x.m[k])
	}
	return x.Expand(k, depth-1) // want `x.mu is read-locked \(in Expand(, a recursive call)?\) while already read-locked`
}

// Correct: the recursion runs in a helper that expects the lock held.
func (x *Index) Expand2(k string, depth int) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.expand(k, depth)
}

func (x *Index) expand(k string, depth int) int {
	if depth == 0 {
		return len(x.m[k])
	}
	return x.expand(k, depth-1)
}

// An interface method of the object itself, called with the read lock
// held.
type Counter interface{ count(string) int }

func countVia(c Counter, k string) int { return c.count(k) }

func (x *Index) Via(k string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return countVia(x, k) // want `x.mu is read-locked \(in count, called through an interface\) while already read-locked`
}

// Correct: another implementation, with its own lock.
type other struct {
	mu sync.RWMutex
	n  int
}

func (o *other) count(string) int {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.n
}

func (x *Index) Other(o *other, k string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return countVia(o, k)
}

// A String method that read-locks, called by fmt with the read lock held.
type Range struct {
	mu   sync.RWMutex
	desc string
}

func (r *Range) String() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.desc
}

func (r *Range) Lookup() string {
	r.mu.RLock()
	s := fmt.Sprintf("range %s", r) // want `r.mu is read-locked \(in String, called through an interface\) while already read-locked`
	r.mu.RUnlock()
	r.mu.Lock()
	r.desc = s
	r.mu.Unlock()
	return s
}

// Correct: the description is read under the lock, printed after.
func (r *Range) Lookup2() string {
	r.mu.RLock()
	d := r.desc
	r.mu.RUnlock()
	return fmt.Sprintf("range %s", d)
}
