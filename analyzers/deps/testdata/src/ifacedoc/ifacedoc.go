// Package ifacedoc has unexported types whose methods are documented
// only where the package declares the interface they are returned as.
package ifacedoc

import "sync"

// Timer gives the current time.
type Timer interface {
	// Now returns the time in seconds.
	Now() uint32
}

// StoppableTimer is a Timer that must be stopped.
type StoppableTimer interface {
	Timer

	// Stop releases the timer's resources. It is not called
	// automatically, so the user must call it just once.
	Stop()
}

type cachedTimer struct {
	mu   sync.Mutex
	now  uint32
	done chan struct{}
}

// NewCachedTimer returns a timer that must be stopped.
func NewCachedTimer() StoppableTimer {
	return &cachedTimer{done: make(chan struct{})}
}

func (t *cachedTimer) Now() uint32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.now
}

func (t *cachedTimer) Stop() {
	close(t.done)
	t.mu.Lock()
	t.now = 0
	t.mu.Unlock()
}

// Closer is something that can be closed.
type Closer interface {
	// Close closes it.
	Close()
}

type conn struct {
	mu     sync.Mutex
	closed bool
	done   chan struct{}
}

// Dial returns a connection.
func Dial() Closer { return &conn{done: make(chan struct{})} }

func (c *conn) Close() {
	close(c.done)
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
}
