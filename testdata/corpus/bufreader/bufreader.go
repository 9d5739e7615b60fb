// Package bufreader implements a buffered reader over an in-memory source
// with support for marking and resetting the read position.
package bufreader

import (
	"errors"
	"sync"
)

// ErrClosed is returned by operations on a closed Reader.
var ErrClosed = errors.New("bufreader: reader closed")

// ErrNoMark is returned by Reset when no position has been marked.
var ErrNoMark = errors.New("bufreader: no mark set")

// Reader reads from a byte buffer and remembers a marked position that the
// reader can be reset to. A Reader is safe for concurrent use by multiple
// goroutines.
type Reader struct {
	mu   sync.Mutex
	buf  []byte
	pos  int
	mark int
}

// NewReader returns a Reader over a copy of data.
func NewReader(data string) *Reader {
	return &Reader{buf: []byte(data), mark: -1}
}

// Read returns up to n bytes from the current position.
func (r *Reader) Read(n int) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.buf == nil {
		return nil, ErrClosed
	}
	if n <= 0 {
		return nil, nil
	}
	if avail := len(r.buf) - r.pos; n > avail {
		n = avail
	}
	out := make([]byte, n)
	copy(out, r.buf[r.pos:r.pos+n])
	r.pos += n
	return out, nil
}

// ReadByte returns the next byte.
func (r *Reader) ReadByte() (byte, error) {
	b, err := r.Read(1)
	if err != nil {
		return 0, err
	}
	if len(b) == 0 {
		return 0, errors.New("bufreader: end of input")
	}
	return b[0], nil
}

// Available returns the number of bytes that can be read without blocking.
func (r *Reader) Available() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.buf == nil {
		return 0
	}
	return len(r.buf) - r.pos
}

// Mark remembers the current position for a later Reset.
func (r *Reader) Mark() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mark = r.pos
}

// Reset moves the read position back to the last mark.
func (r *Reader) Reset() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.buf == nil {
		return ErrClosed
	}
	if r.mark < 0 {
		return ErrNoMark
	}
	r.pos = r.mark
	return nil
}

// Close releases the buffer. Subsequent reads return ErrClosed.
func (r *Reader) Close() error {
	r.buf = nil
	return nil
}
