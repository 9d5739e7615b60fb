// plan: Cursor: |M|=1 pc=0 d=0; Pool: |M|=10 pc=1 d=0

// Package directives writes contracts down in the code: a set-up method,
// a type meant for one goroutine, and a pair its maintainer says is not
// dependent.
package directives

import "sync"

// Pool hands out buffers.
//
//depcon:ignore pair=Get,Reset Reset runs only once the pool is drained
type Pool struct {
	mu   sync.Mutex
	free [][]byte
	size int
	n    int
}

// Init sizes the pool.
//
//depcon:setup called once by the server before it serves
func (p *Pool) Init(size int) {
	p.mu.Lock()
	p.size = size
	p.mu.Unlock()
}

// Get returns a buffer.
func (p *Pool) Get() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	if len(p.free) == 0 {
		return make([]byte, p.size)
	}
	b := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return b
}

// Put returns a buffer to the pool.
func (p *Pool) Put(b []byte) {
	p.mu.Lock()
	p.free = append(p.free, b)
	p.mu.Unlock()
}

// Reset forgets the count.
func (p *Pool) Reset() { p.n = 0 }

// Cursor walks a pool's buffers.
//
//depcon:single-goroutine
type Cursor struct {
	mu  sync.Mutex
	pos int
}

// Next moves on.
func (c *Cursor) Next() { c.mu.Lock(); c.pos++; c.mu.Unlock() }
