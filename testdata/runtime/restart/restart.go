// Package restart holds a pool that Release closes and Reboot opens
// again: two Reboots of a closed pool race on its generation, which a
// test sees only when a prefix released the pool first.
package restart

import (
	"sync"
	"sync/atomic"
)

const (
	opened int32 = iota
	closed
)

// Pool is a pool of workers.
type Pool struct {
	mu      sync.Mutex
	state   int32
	gen     int
	workers int
}

// NewPool returns an open pool.
func NewPool() *Pool { return &Pool{} }

// Submit counts a task, when the pool is open.
func (p *Pool) Submit() bool {
	if atomic.LoadInt32(&p.state) == closed {
		return false
	}
	p.mu.Lock()
	p.workers++
	p.mu.Unlock()
	return true
}

// Release closes the pool.
func (p *Pool) Release() {
	atomic.StoreInt32(&p.state, closed)
}

// Reboot opens a closed pool again, in a new generation.
func (p *Pool) Reboot() {
	if atomic.LoadInt32(&p.state) == closed {
		p.gen++ // the race: two Reboots of one closed pool
		atomic.StoreInt32(&p.state, opened)
	}
}

// Generation returns the pool's generation.
func (p *Pool) Generation() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gen
}
