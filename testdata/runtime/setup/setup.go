// Package setup has correct types whose set-up misbehaves: a method that
// panics while holding the lock (recovering nothing), a method that
// writes a file it is given the name of, and a constructor that
// allocates in proportion to its argument. depcon test must report
// nothing on them and write nothing outside its sandbox.
package setup

import (
	"os"
	"sync"
)

// Ledger panics, holding its lock, on a negative amount.
type Ledger struct {
	mu    sync.Mutex
	total int
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{} }

// Add adds n; it panics on a negative n and leaves the ledger locked, as
// a corrupted object would be.
func (l *Ledger) Add(n int) {
	l.mu.Lock()
	if n < 0 {
		panic("negative amount")
	}
	l.total += n
	l.mu.Unlock()
}

// Total returns the total.
func (l *Ledger) Total() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

// Store keeps a value and saves it to files.
type Store struct {
	mu sync.Mutex
	v  string
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{} }

// Set sets the value.
func (s *Store) Set(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.v = v
}

// Save writes the value to the file named name.
func (s *Store) Save(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "" {
		name = "store.out"
	}
	return os.WriteFile(name, []byte(s.v), 0o644)
}

// Buffer is a pre-allocated buffer.
type Buffer struct {
	mu  sync.Mutex
	buf []byte
	n   int
}

// NewBuffer allocates a buffer of size bytes.
func NewBuffer(size int) *Buffer {
	if size < 0 {
		size = 0
	}
	return &Buffer{buf: make([]byte, size)}
}

// Write appends p as far as it fits.
func (b *Buffer) Write(p []byte) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := copy(b.buf[b.n:], p)
	b.n += n
	return n
}

// Len returns the number of bytes written.
func (b *Buffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}
