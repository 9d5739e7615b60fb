// Package service provides a long-lived named service that can be stopped.
package service

import (
	"context"
	"errors"
	"sync"
)

// ErrStopped is returned by requests made after Stop.
var ErrStopped = errors.New("service: stopped")

// Service runs requests until it is stopped. A Service is safe for
// concurrent use by multiple goroutines.
type Service struct {
	name string
	done chan struct{}

	mu       sync.Mutex
	stopped  bool
	requests int
}

// NewService returns a running Service called name.
func NewService(name string) *Service {
	return &Service{name: name, done: make(chan struct{})}
}

// Name returns the service name.
func (s *Service) Name() string { return s.name }

// Done returns a channel that is closed when the service stops.
func (s *Service) Done() <-chan struct{} { return s.done }

// Stopped reports whether Stop has been called.
func (s *Service) Stopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

// Requests returns the number of requests served.
func (s *Service) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// Do runs fn as a request unless the service is stopped or ctx is done.
func (s *Service) Do(ctx context.Context, fn func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return ErrStopped
	}
	s.requests++
	s.mu.Unlock()
	if fn != nil {
		fn()
	}
	return nil
}

// Stop stops the service and wakes everything waiting on Done. Calling Stop
// again has no effect.
func (s *Service) Stop() {
	if s.Stopped() {
		return
	}
	s.mu.Lock()
	s.stopped = true
	close(s.done)
	s.mu.Unlock()
}
