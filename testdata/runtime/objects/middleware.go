// Circuit breakers that a user obtains only as another package's Runner,
// made by a middleware's function literal: breaker counts its runs
// without its lock; safeBreaker, its twin, is correct.

package objects

import (
	"errors"
	"sync"

	"github.com/depcon/depcon/testdata/runtime/objects/run"
)

// errOpen is the error of a run refused by an open breaker.
var errOpen = errors.New("objects: breaker open")

type breaker struct {
	mu       sync.Mutex
	next     run.Runner
	limit    int
	failures int
	runs     int
}

// NewBreaker returns a runner that refuses to run once limit runs in a
// row have failed.
func NewBreaker(limit int) run.Runner { return NewBreakerMiddleware(limit)(nil) }

// NewBreakerMiddleware returns a middleware that puts a breaker before
// the next runner.
func NewBreakerMiddleware(limit int) run.Middleware {
	return func(next run.Runner) run.Runner {
		return &breaker{next: next, limit: limit}
	}
}

// Run runs f unless the breaker is open.
func (b *breaker) Run(f func() error) error {
	b.runs++ // the race
	b.mu.Lock()
	open := b.limit > 0 && b.failures >= b.limit
	b.mu.Unlock()
	if open {
		return errOpen
	}
	var err error
	if f != nil {
		err = f()
	}
	b.mu.Lock()
	if err != nil {
		b.failures++
	} else {
		b.failures = 0
	}
	b.mu.Unlock()
	return err
}

// Runs returns how many runs were asked for.
func (b *breaker) Runs() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.runs
}

type safeBreaker struct {
	mu       sync.Mutex
	limit    int
	failures int
	runs     int
}

// NewSafeBreaker returns a runner that refuses to run once limit runs in
// a row have failed.
func NewSafeBreaker(limit int) run.Runner { return NewSafeBreakerMiddleware(limit)(nil) }

// NewSafeBreakerMiddleware returns a middleware that puts a breaker
// before the next runner.
func NewSafeBreakerMiddleware(limit int) run.Middleware {
	return func(run.Runner) run.Runner {
		return &safeBreaker{limit: limit}
	}
}

// Run runs f unless the breaker is open.
func (b *safeBreaker) Run(f func() error) error {
	b.mu.Lock()
	b.runs++
	open := b.limit > 0 && b.failures >= b.limit
	b.mu.Unlock()
	if open {
		return errOpen
	}
	var err error
	if f != nil {
		err = f()
	}
	b.mu.Lock()
	if err != nil {
		b.failures++
	} else {
		b.failures = 0
	}
	b.mu.Unlock()
	return err
}

// Runs returns how many runs were asked for.
func (b *safeBreaker) Runs() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.runs
}
