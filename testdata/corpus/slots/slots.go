// Package slots hands out numbered slots to named owners.
package slots

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrFull is returned by Acquire when every slot is held.
var ErrFull = errors.New("slots: no free slot")

// Table is a fixed set of numbered slots that owners acquire and release.
// It also keeps the largest number of slots ever held at once. A Table is
// safe for concurrent use by multiple goroutines.
type Table struct {
	mu     sync.Mutex
	free   []int
	owners []string
	held   []bool

	peak atomic.Int64
}

// NewTable returns a table of n slots (at least 1), all free.
func NewTable(n int) *Table {
	if n < 1 {
		n = 1
	}
	t := &Table{owners: make([]string, n), held: make([]bool, n)}
	for i := n - 1; i >= 0; i-- {
		t.free = append(t.free, i)
	}
	return t
}

// Acquire gives a free slot to owner and returns its number. The check
// for a free slot and the removal from the free list happen in one
// critical section.
func (t *Table) Acquire(owner string) (int, error) {
	owner = strings.TrimSpace(owner)
	t.mu.Lock()
	if len(t.free) == 0 {
		t.mu.Unlock()
		return -1, ErrFull
	}
	last := len(t.free) - 1
	slot := t.free[last]
	t.free = t.free[:last]
	t.owners[slot] = owner
	t.held[slot] = true
	inUse := int64(len(t.owners) - len(t.free))
	t.mu.Unlock()

	for {
		p := t.peak.Load()
		if inUse <= p || t.peak.CompareAndSwap(p, inUse) {
			return slot, nil
		}
	}
}

// Release frees slot. It reports false if slot is not held.
func (t *Table) Release(slot int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if slot < 0 || slot >= len(t.held) || !t.held[slot] {
		return false
	}
	t.owners[slot] = ""
	t.held[slot] = false
	t.free = append(t.free, slot)
	return true
}

// Available returns the number of free slots.
func (t *Table) Available() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.free)
}

// Owner returns the owner of slot, "" when it is free.
func (t *Table) Owner(slot int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if slot < 0 || slot >= len(t.owners) {
		return ""
	}
	return t.owners[slot]
}

// Peak returns the largest number of slots held at once.
func (t *Table) Peak() int { return int(t.peak.Load()) }

// ResetPeak sets the peak to 0 and returns the previous peak.
func (t *Table) ResetPeak() int { return int(t.peak.Swap(0)) }
