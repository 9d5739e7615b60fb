// plan: Reader: |M|=15 pc=3 d=0

// Package bufreader is the running example of DepCon+ (its Figure 1, a
// BufferedInputStream) in Go: Close is not synchronised.
package bufreader

import (
	"errors"
	"sync"
)

// Reader reads bytes from a source through a buffer. It is safe for
// concurrent use.
type Reader struct {
	mu        sync.Mutex
	src       []byte
	buf       []byte
	pos       int
	count     int
	markpos   int
	marklimit int
}

// NewReader returns a Reader of src with a buffer of size bytes.
func NewReader(src []byte, size int) *Reader {
	if size <= 0 {
		size = 16
	}
	return &Reader{src: src, buf: make([]byte, size), markpos: -1}
}

func (r *Reader) fill() {
	n := copy(r.buf, r.src)
	r.src = r.src[n:]
	r.pos, r.count = 0, n
}

// Read returns the next byte, or -1 at the end.
func (r *Reader) Read() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pos >= r.count {
		r.fill()
		if r.pos >= r.count {
			return -1
		}
	}
	b := r.buf[r.pos]
	r.pos++
	return int(b)
}

// Mark remembers the current position.
func (r *Reader) Mark(limit int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.marklimit = limit
	r.markpos = r.pos
}

// Reset goes back to the marked position.
func (r *Reader) Reset() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.markpos < 0 {
		return errors.New("bufreader: not marked")
	}
	r.pos = r.markpos
	return nil
}

// Available returns the number of bytes that can be read without blocking.
func (r *Reader) Available() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.count - r.pos + len(r.src)
}

// Close releases the buffer.
func (r *Reader) Close() {
	r.buf = nil
	r.src = nil
}
