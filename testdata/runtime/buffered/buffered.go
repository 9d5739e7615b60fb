// Package buffered has a buffered reader whose Close does not take the
// lock that guards the buffer: Close races with Read, and a Read that
// checked the buffer before a Close may index a nil one.
package buffered

import (
	"errors"
	"sync"
)

// ErrClosed is returned by reads from a closed Reader.
var ErrClosed = errors.New("buffered: reader closed")

// Reader reads from an in-memory buffer. It is meant to be safe for
// concurrent use.
type Reader struct {
	mu  sync.Mutex
	buf []byte
	pos int
}

// NewReader returns a Reader over a copy of data.
func NewReader(data string) *Reader { return &Reader{buf: []byte(data)} }

// Read copies up to len(p) bytes into p.
func (r *Reader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.buf == nil {
		return 0, ErrClosed
	}
	n := copy(p, r.buf[r.pos:])
	r.pos += n
	return n, nil
}

// Len returns the number of unread bytes.
func (r *Reader) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.buf) - r.pos
}

// Close releases the buffer. BUG: it does not take r.mu.
func (r *Reader) Close() error {
	r.buf = nil
	r.pos = 0
	return nil
}
