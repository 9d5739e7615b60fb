// Services that serve until their context ends. Service counts the
// requests it handles without its lock; SafeService, its twin, is
// correct.

package objects

import (
	"context"
	"sync"
)

// Service handles the requests sent to it while it serves.
type Service struct {
	mu      sync.Mutex
	reqs    chan int
	handled int
	sum     int
}

// NewService returns a service that is not serving yet.
func NewService() *Service { return &Service{reqs: make(chan int, 16)} }

// Serve handles requests until ctx ends.
func (s *Service) Serve(ctx context.Context) error {
	for {
		select {
		case n := <-s.reqs:
			s.mu.Lock()
			s.sum += n
			s.mu.Unlock()
			s.handled++ // the race
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Send queues a request, or drops it when the queue is full.
func (s *Service) Send(n int) bool {
	select {
	case s.reqs <- n:
		return true
	default:
		return false
	}
}

// Handled returns how many requests were handled.
func (s *Service) Handled() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.handled
}

// SafeService handles the requests sent to it while it serves.
type SafeService struct {
	mu      sync.Mutex
	reqs    chan int
	handled int
	sum     int
}

// NewSafeService returns a service that is not serving yet.
func NewSafeService() *SafeService { return &SafeService{reqs: make(chan int, 16)} }

// Serve handles requests until ctx ends.
func (s *SafeService) Serve(ctx context.Context) error {
	for {
		select {
		case n := <-s.reqs:
			s.mu.Lock()
			s.sum += n
			s.handled++
			s.mu.Unlock()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Send queues a request, or drops it when the queue is full.
func (s *SafeService) Send(n int) bool {
	select {
	case s.reqs <- n:
		return true
	default:
		return false
	}
}

// Handled returns how many requests were handled.
func (s *SafeService) Handled() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.handled
}
