// Package config has a pool whose constructor refuses a zero
// configuration: only a Config with positive sizes builds one whose
// Submit reaches the count that Pending reads without the lock.
package config

import (
	"errors"
	"sync"
)

// Config sizes a pool.
type Config struct {
	Workers  int
	QueueLen int
}

// Pool queues jobs.
type Pool struct {
	mu     sync.Mutex
	jobs   chan func()
	closed bool
	n      int
}

// NewPool returns a pool sized by c, whose sizes must be positive.
func NewPool(c Config) (*Pool, error) {
	if c.Workers <= 0 || c.QueueLen <= 0 {
		return nil, errors.New("config: workers and queue length must be positive")
	}
	return &Pool{jobs: make(chan func(), c.QueueLen)}, nil
}

// Submit queues f and reports whether there was room for it.
func (p *Pool) Submit(f func()) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	select {
	case p.jobs <- f:
		p.n++
		return true
	default:
		return false
	}
}

// Pending returns how many jobs were queued.
func (p *Pool) Pending() int { return p.n }

// Close stops the pool taking jobs.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}
