// Package stream carries encoded records from producers to one consumer.
package stream

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is returned by Send after Close.
var ErrClosed = errors.New("stream: closed")

// Stream is a bounded queue of encoded records. Send never blocks: when
// the queue is full the record is dropped and counted. A Stream is safe
// for concurrent use by multiple goroutines.
type Stream struct {
	ch     chan string
	closed atomic.Bool
	mu     sync.RWMutex // held for reading while sending, for writing while closing

	sent    atomic.Int64
	dropped atomic.Int64
}

// NewStream returns an open stream that buffers up to size records (at
// least 1).
func NewStream(size int) *Stream {
	if size < 1 {
		size = 1
	}
	return &Stream{ch: make(chan string, size)}
}

// Send encodes the fields as one record, stamped with the current time,
// and queues it. It reports whether
// the record was queued; it returns ErrClosed after Close.
func (s *Stream) Send(fields ...string) (bool, error) {
	rec := encode(time.Now(), fields)
	if s.Closed() {
		return false, ErrClosed
	}
	return s.enqueue(rec), nil
}

// enqueue queues rec unless the buffer is full.
func (s *Stream) enqueue(rec string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	select {
	case s.ch <- rec:
		s.sent.Add(1)
		return true
	default:
		s.dropped.Add(1)
		return false
	}
}

// Next returns the next queued record, or false when none is queued.
func (s *Stream) Next() (string, bool) {
	select {
	case rec, ok := <-s.ch:
		return rec, ok
	default:
		return "", false
	}
}

// Close closes the stream and returns how many records were queued over
// its lifetime. Records still queued can be read with Next. Closing a
// closed stream does nothing.
func (s *Stream) Close() int {
	if s.closed.Swap(true) {
		return int(s.sent.Load())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.ch)
	return int(s.sent.Load())
}

// Closed reports whether Close was called.
func (s *Stream) Closed() bool {
	return s.closed.Load()
}

// Stats returns the number of records queued and dropped so far.
func (s *Stream) Stats() (sent, dropped int) {
	return int(s.sent.Load()), int(s.dropped.Load())
}

// encode joins the time stamp and the fields into one line, quoting the
// fields that need it.
func encode(stamp time.Time, fields []string) string {
	var b strings.Builder
	b.WriteString(stamp.UTC().Format(time.RFC3339Nano))
	for _, f := range fields {
		b.WriteByte(' ')
		if f == "" || strings.ContainsAny(f, " \t\n\"\\") {
			b.WriteString(strconv.Quote(f))
		} else {
			b.WriteString(f)
		}
	}
	b.WriteByte('\n')
	return b.String()
}
