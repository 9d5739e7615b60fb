// Package seqfail has a type one of whose pairs fails whenever its two
// calls run, one after the other as much as concurrently: Close closes a
// channel, and a second Close panics (Close is to be called once). Its
// tests say nothing about interleavings, and must not take the type's
// tests from its other pair, whose race needs a few tests to show. Slots
// has no pair with a test that passes.
package seqfail

import (
	"sync"
	"time"
)

// Feed counts the items it is given until it is closed.
type Feed struct {
	mu    sync.Mutex
	n     int
	last  time.Time
	done  chan struct{}
	slow  []byte
	items map[string]int
}

// NewFeed returns an open feed. Building it is slow (a large buffer).
func NewFeed() *Feed {
	f := &Feed{done: make(chan struct{}), slow: make([]byte, 8<<20), items: map[string]int{}}
	for i := range f.slow {
		f.slow[i] = byte(i)
	}
	return f
}

// Add counts an item.
func (f *Feed) Add(name string) {
	f.mu.Lock()
	f.n++
	f.items[name]++
	f.mu.Unlock()
	f.last = time.Now() // not under the lock: races with Last
}

// Last returns when the last item was added.
func (f *Feed) Last() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

// Close closes the feed.
func (f *Feed) Close() { close(f.done) }
