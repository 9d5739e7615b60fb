// want package:"chains.Index.mu"

// Package chains holds recursive read locks reached through call
// chains of three or more functions that pass the object through a value
// the summaries of each function do not name on their own: a comparator
// run by sort.Slice, and a small wrapper struct made by the caller. Each
// is next to a correct variant.
package chains

import (
	"sort"
	"sync"
)

type Index struct {
	mu    sync.RWMutex
	score map[string]int
}

func (x *Index) Set(k string, v int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.score[k] = v
}

// Score read-locks x.mu.
func (x *Index) Score(k string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.score[k]
}

func (x *Index) rank(k string) int { return x.Score(k) }

// Sorted holds the read lock while sort.Slice runs the comparator, which
// read-locks x.mu again (Sorted → sort.Slice → the comparator → rank →
// Score). A Set waiting in between blocks the comparator's RLock, and
// Set waits for Sorted's: both block forever.
func (x *Index) Sorted(keys []string) []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	sort.Slice(keys, func(i, j int) bool { // want `x.mu is read-locked \(in Score, called through a function value\) while already read-locked \(at chains.go:40:12\), and is write-locked at chains.go:21:11`
		return x.rank(keys[i]) < x.rank(keys[j])
	})
	return keys
}

// SortedOK reads the scores under its own read lock alone.
func (x *Index) SortedOK(keys []string) []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	sort.Slice(keys, func(i, j int) bool {
		return x.score[keys[i]] < x.score[keys[j]]
	})
	return keys
}

// SortedAfter releases the read lock before sorting.
func (x *Index) SortedAfter(keys []string) []string {
	x.mu.RLock()
	n := len(x.score)
	x.mu.RUnlock()
	sort.Slice(keys, func(i, j int) bool {
		return x.rank(keys[i]) < x.rank(keys[j])
	})
	return keys[:min(n, len(keys))]
}

// A view wraps the index for one query.
type view struct {
	x      *Index
	prefix string
}

func (v view) best(keys []string) (string, int) {
	top, n := "", -1
	for _, k := range keys {
		if s := v.x.rank(v.prefix + k); s > n {
			top, n = k, s
		}
	}
	return top, n
}

func (v *view) count(keys []string) int {
	n := 0
	for _, k := range keys {
		if v.x.rank(v.prefix+k) > 0 {
			n++
		}
	}
	return n
}

// Best holds the read lock while a view of the index ranks the keys
// (Best → view.best → rank → Score, which read-locks x.mu again).
func (x *Index) Best(prefix string, keys []string) string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	k, _ := view{x, prefix}.best(keys) // want `x.mu is read-locked \(in Score\) while already read-locked \(at chains.go:98:12\), and is write-locked at chains.go:21:11`
	return k
}

// Count does the same through a pointer to the view.
func (x *Index) Count(prefix string, keys []string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	v := &view{x: x, prefix: prefix}
	return v.count(keys) // want `x.mu is read-locked \(in Score\) while already read-locked \(at chains.go:106:12\), and is write-locked at chains.go:21:11`
}

// BestOK makes the view over another index, whose lock it does not hold.
func (x *Index) BestOK(other *Index, prefix string, keys []string) string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	k, _ := view{other, prefix}.best(keys)
	return k
}

// CountOK ranks without holding the lock.
func (x *Index) CountOK(prefix string, keys []string) int {
	v := &view{x: x, prefix: prefix}
	return v.count(keys)
}
