// Package slowbuild has a type whose objects take long to build, with
// many methods and a race: the probes of its methods must not spend the
// whole budget.
package slowbuild

import (
	"sync"
	"time"
)

// Big is slow to build.
type Big struct {
	mu   sync.Mutex
	n    int
	seen int
	buf  []byte
}

// NewBig builds a big object, slowly.
func NewBig() *Big {
	time.Sleep(300 * time.Millisecond)
	return &Big{buf: make([]byte, 1<<20)}
}

// Add counts under the lock, and records the count without it.
func (b *Big) Add() {
	b.mu.Lock()
	b.n++
	n := b.n
	b.mu.Unlock()
	b.seen = n // the race
}

// Seen returns the count recorded last.
func (b *Big) Seen() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.seen
}

// The other methods only read under the lock.

func (b *Big) N() int       { b.mu.Lock(); defer b.mu.Unlock(); return b.n }
func (b *Big) Len() int     { b.mu.Lock(); defer b.mu.Unlock(); return len(b.buf) }
func (b *Big) Cap() int     { b.mu.Lock(); defer b.mu.Unlock(); return cap(b.buf) }
func (b *Big) First() byte  { b.mu.Lock(); defer b.mu.Unlock(); return b.buf[0] }
func (b *Big) Last() byte   { b.mu.Lock(); defer b.mu.Unlock(); return b.buf[len(b.buf)-1] }
func (b *Big) Empty() bool  { b.mu.Lock(); defer b.mu.Unlock(); return b.n == 0 }
func (b *Big) Twice() int   { b.mu.Lock(); defer b.mu.Unlock(); return 2 * b.n }
func (b *Big) Thrice() int  { b.mu.Lock(); defer b.mu.Unlock(); return 3 * b.n }
func (b *Big) Quarter() int { b.mu.Lock(); defer b.mu.Unlock(); return b.n / 4 }
