// Package callsout has methods that run a function they are given, with
// their lock held or between critical sections.
package callsout

import (
	"errors"
	"sync"
)

type Breaker struct {
	mu       sync.Mutex
	requests int
	failures int
}

// Execute counts the request, runs req unlocked, then records its
// outcome: two critical sections with the caller's code between them.
func (b *Breaker) Execute(req func() error) error {
	b.mu.Lock()
	b.requests++
	b.mu.Unlock()
	err := req()
	b.mu.Lock()
	if err != nil {
		b.failures++
	}
	b.mu.Unlock()
	return err
}

// Update runs fn with the lock held: one atomic step.
func (b *Breaker) Update(fn func() error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return fn()
}

// Apply takes no lock.
func (b *Breaker) Apply(fn func()) { fn() }

// Reset calls no function it is given.
func (b *Breaker) Reset() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.requests == 0 {
		return errors.New("idle")
	}
	b.requests, b.failures = 0, 0
	return nil
}
