// Package misbehave has types on which depcon test cannot do its work:
// one panics on every call, one blocks forever when a method is called
// alone, one ends the process.
package misbehave

import (
	"errors"
	"os"
	"sync"
)

// Bomb panics on every call, and its constructor always fails.
type Bomb struct {
	mu sync.Mutex
	n  int
}

// NewBomb always fails.
func NewBomb(size int) (*Bomb, error) { return nil, errors.New("misbehave: no bombs today") }

// Get panics.
func (b *Bomb) Get() int { panic("misbehave: Bomb.Get") }

// Set panics.
func (b *Bomb) Set(n int) { panic("misbehave: Bomb.Set") }

// Stuck blocks forever: its methods lock its mutex twice.
type Stuck struct {
	mu sync.Mutex
	n  int
}

// NewStuck returns a Stuck.
func NewStuck() *Stuck { return &Stuck{} }

// Inc locks s.mu, then calls Value, which locks it again.
func (s *Stuck) Inc() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n = s.Value() + 1
}

// Value returns the count.
func (s *Stuck) Value() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// Exiter ends the process when it is closed.
type Exiter struct {
	mu sync.Mutex
	n  int
}

// Add adds d.
func (e *Exiter) Add(d int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.n += d
}

// Close exits the process.
func (e *Exiter) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	os.Exit(3)
}

// Fanout notifies its listeners from goroutines, and waits for them while
// holding the lock they need: Notify never returns.
type Fanout struct {
	mu        sync.Mutex
	delivered int
}

// NewFanout returns a fanout.
func NewFanout() *Fanout { return &Fanout{} }

// Notify delivers to three listeners concurrently.
func (f *Fanout) Notify() {
	f.mu.Lock()
	defer f.mu.Unlock()
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.mu.Lock() // held by Notify, which waits for this goroutine
			f.delivered++
			f.mu.Unlock()
		}()
	}
	wg.Wait()
}

// Delivered returns how many deliveries were made.
func (f *Fanout) Delivered() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.delivered
}
