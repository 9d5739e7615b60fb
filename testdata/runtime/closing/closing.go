// Package closing holds queues whose Close closes the channel Submit
// sends on. Collector's Submit is not meant to follow its Close (it
// panics if it does, one call after the other): a Submit racing with
// Close is a call after the end of its use, not reported. Guarded's
// Submit checks a closed flag under its lock, and returns an error after
// Close: it does support calls after Close, and its race, between the
// check and the send, is a defect. Throttle and Checked are the same
// pair with a Finish.
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

// Throttle bounds the workers running at once: Do before each worker,
// Done when it ends, and Finish once, after the last Do, to wait for
// them. Finish closes the channel Do sends on: a Do during Finish is a
// call after the end of its use (in sequence it panics), not reported.
type Throttle struct {
	once sync.Once
	wg   sync.WaitGroup
	ch   chan struct{}
	errs chan error
}

// NewThrottle returns a throttle of max workers.
func NewThrottle(max int) *Throttle {
	if max < 1 {
		max = 1
	}
	return &Throttle{ch: make(chan struct{}, max), errs: make(chan error, max)}
}

// Do waits for a worker's turn.
func (t *Throttle) Do() {
	t.ch <- struct{}{}
	t.wg.Add(1)
}

// Done ends a worker's turn.
func (t *Throttle) Done(err error) {
	select {
	case <-t.ch:
	default:
	}
	if err != nil {
		select {
		case t.errs <- err:
		default:
		}
	}
	t.wg.Done()
}

// Finish waits for the workers, and returns the first error.
func (t *Throttle) Finish() error {
	var err error
	t.once.Do(func() {
		t.wg.Wait()
		close(t.ch)
		close(t.errs)
		for e := range t.errs {
			if err == nil {
				err = e
			}
		}
	})
	return err
}

// Checked is a throttle whose Do returns ErrClosed after Finish: it
// supports calls after the end of its use, and Do reads the finished
// flag without the lock Finish sets it under: the race is a defect.
type Checked struct {
	mu       sync.Mutex
	finished bool
	n        int
}

// Do takes a worker's turn, or returns ErrClosed after Finish.
func (c *Checked) Do() error {
	if c.finished {
		return ErrClosed
	}
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return nil
}

// Finish ends the throttle's use.
func (c *Checked) Finish() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.finished = true
	return c.n
}
