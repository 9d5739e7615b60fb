// Package pool recycles fixed-size byte buffers.
package pool

import "sync"

// Pool keeps a free list of byte buffers of one size. A Pool is safe for
// concurrent use by multiple goroutines.
type Pool struct {
	size int

	mu   sync.Mutex
	free [][]byte
	made int
}

// NewPool returns a Pool of size-byte buffers with n buffers preallocated.
func NewPool(n, size int) *Pool {
	if size < 0 {
		size = 0
	}
	p := &Pool{size: size}
	for i := 0; i < n; i++ {
		p.free = append(p.free, make([]byte, size))
	}
	p.made = len(p.free)
	return p
}

// Size returns the length of the buffers handed out.
func (p *Pool) Size() int { return p.size }

// Idle returns the number of buffers waiting in the free list.
func (p *Pool) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.free)
}

// Made returns the number of buffers allocated so far.
func (p *Pool) Made() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.made
}

// Get returns a buffer from the free list, allocating one if the list is
// empty.
func (p *Pool) Get() []byte {
	if p.Idle() == 0 {
		p.mu.Lock()
		p.made++
		p.mu.Unlock()
		return make([]byte, p.size)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	last := len(p.free) - 1
	b := p.free[last]
	p.free[last] = nil
	p.free = p.free[:last]
	return b
}

// Put returns b to the free list. Buffers of the wrong size are dropped.
func (p *Pool) Put(b []byte) bool {
	if len(b) != p.size {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free = append(p.free, b)
	return true
}

// Drain empties the free list and returns how many buffers it held.
func (p *Pool) Drain() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.free)
	p.free = nil
	return n
}
