// Package mailbox provides a bounded message queue between goroutines.
package mailbox

import (
	"errors"
	"sync"
)

var (
	// ErrClosed is returned when putting into a closed Mailbox.
	ErrClosed = errors.New("mailbox: closed")
	// ErrFull is returned when the Mailbox has no free slot.
	ErrFull = errors.New("mailbox: full")
)

// Mailbox is a bounded FIFO of string messages. A Mailbox is safe for
// concurrent use by multiple goroutines.
type Mailbox struct {
	ch chan string

	mu     sync.Mutex
	closed bool
	sent   int
}

// NewMailbox returns a Mailbox that holds up to capacity messages (at least
// one).
func NewMailbox(capacity int) *Mailbox {
	if capacity < 1 {
		capacity = 1
	}
	return &Mailbox{ch: make(chan string, capacity)}
}

// Put enqueues msg without blocking.
func (m *Mailbox) Put(msg string) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrClosed
	}
	m.sent++
	m.mu.Unlock()
	select {
	case m.ch <- msg:
		return nil
	default:
		return ErrFull
	}
}

// TryGet dequeues the oldest message without blocking.
func (m *Mailbox) TryGet() (string, bool) {
	select {
	case msg, ok := <-m.ch:
		return msg, ok
	default:
		return "", false
	}
}

// Len returns the number of queued messages.
func (m *Mailbox) Len() int { return len(m.ch) }

// Sent returns the number of messages accepted by Put.
func (m *Mailbox) Sent() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sent
}

// Close stops the Mailbox from accepting messages; queued messages can
// still be taken.
func (m *Mailbox) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.closed = true
	close(m.ch)
	return nil
}
