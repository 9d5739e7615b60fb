// Package sink carries records from producers to one consumer.
package sink

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrClosed is returned by Send after Close.
var ErrClosed = errors.New("sink: closed")

// Sink is a bounded queue of records. Send never blocks: when the queue
// is full the record is dropped and counted. A Sink is safe for
// concurrent use by multiple goroutines.
type Sink struct {
	ch chan string

	mu     sync.RWMutex // held for reading while sending, for writing while closing
	closed bool

	sent    atomic.Int64
	dropped atomic.Int64
}

// NewSink returns an open sink that buffers up to size records (at least
// 1).
func NewSink(size int) *Sink {
	if size < 1 {
		size = 1
	}
	return &Sink{ch: make(chan string, size)}
}

// Send joins the fields into one record and queues it. It reports whether
// the record was queued; it returns ErrClosed after Close.
func (s *Sink) Send(fields ...string) (bool, error) {
	rec := strings.Join(fields, " ")
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return false, ErrClosed
	}
	select {
	case s.ch <- rec:
		s.sent.Add(1)
		return true, nil
	default:
		s.dropped.Add(1)
		return false, nil
	}
}

// Next returns the next queued record, or false when none is queued.
func (s *Sink) Next() (string, bool) {
	select {
	case rec, ok := <-s.ch:
		return rec, ok
	default:
		return "", false
	}
}

// Close closes the sink and returns how many records were queued over its
// lifetime. Records still queued can be read with Next. Closing a closed
// sink does nothing.
func (s *Sink) Close() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.ch)
	}
	return int(s.sent.Load())
}

// Stats returns the number of records queued and dropped so far.
func (s *Sink) Stats() (sent, dropped int) {
	return int(s.sent.Load()), int(s.dropped.Load())
}
