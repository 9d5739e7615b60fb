// Package closing holds two queues whose Close closes the channel Submit
// sends on. Collector's Submit is not meant to follow its Close (it
// panics if it does, one call after the other): a Submit racing with
// Close is a call after the end of its use, not reported. Guarded's
// Submit checks a closed flag under its lock, and returns an error after
// Close: it does support calls after Close, and its race, between the
// check and the send, is a defect.
package closing

import (
	"errors"
	"sync"
)

// Collector collects values until it is closed.
type Collector struct {
	ch chan int
}

// NewCollector returns a collector.
func NewCollector() *Collector { return &Collector{ch: make(chan int, 16)} }

// Submit adds v, dropping it when the collector is full.
func (c *Collector) Submit(v int) {
	select {
	case c.ch <- v:
	default:
	}
}

// Close ends the collection.
func (c *Collector) Close() { close(c.ch) }

// ErrClosed is returned by Guarded's Submit after Close.
var ErrClosed = errors.New("closed")

// Guarded is a collector that refuses values once closed.
type Guarded struct {
	mu     sync.Mutex
	closed bool
	ch     chan int
}

// NewGuarded returns a collector.
func NewGuarded() *Guarded { return &Guarded{ch: make(chan int, 16)} }

// Submit adds v, or returns ErrClosed once the collector is closed.
func (g *Guarded) Submit(v int) error {
	g.mu.Lock()
	closed := g.closed
	g.mu.Unlock()
	if closed {
		return ErrClosed
	}
	select {
	case g.ch <- v:
	default:
	}
	return nil
}

// Close closes the collector.
func (g *Guarded) Close() {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return
	}
	g.closed = true
	g.mu.Unlock()
	close(g.ch)
}

// File is a handle whose Close drops its buffer: Size after Close
// crashes on the nil buffer, one call after the other too. That is a
// defect of its own, and Size racing with Close stays reported.
type File struct {
	mu   sync.Mutex
	buf  *[]byte
	size int
}

// NewFile returns an open file.
func NewFile() *File { return &File{buf: new([]byte)} }

// Size returns the size of the buffer.
func (f *File) Size() int { return len(*f.buf) }

// Write appends p under the lock.
func (f *File) Write(p []byte) {
	f.mu.Lock()
	*f.buf = append(*f.buf, p...)
	f.mu.Unlock()
}

// Close drops the buffer.
func (f *File) Close() { f.buf = nil }
