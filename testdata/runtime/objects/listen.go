// Servers that serve on a listener until it is closed, and a stack whose
// Pop panics when it is empty. Listening counts the connections it
// served without its lock, a race a test finds only with a listener
// that works; SafeListening, its twin, is correct. In both, Addr reads
// the listener that Serve stores, and panics before Serve: its callers
// order it after Serve, and its race with Serve is not reported. Stack's
// Pop panics on an empty stack too, but works after a Push: its race
// with a concurrent Push is its defect.

package objects

import (
	"net"
	"sync"
)

// Listening serves connections on a listener.
type Listening struct {
	mu     sync.Mutex
	ln     net.Listener
	served int
}

// NewListening returns a server that serves nothing yet.
func NewListening() *Listening { return &Listening{} }

// Serve accepts connections on ln until it is closed.
func (s *Listening) Serve(ln net.Listener) error {
	s.mu.Lock()
	s.ln = ln
	s.mu.Unlock()
	s.served++ // the race
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		c.Close()
	}
}

// Served returns how many times Serve was called.
func (s *Listening) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}

// Addr returns the address served, once serving.
func (s *Listening) Addr() string { return s.ln.Addr().String() }

// SafeListening serves connections on a listener.
type SafeListening struct {
	mu     sync.Mutex
	ln     net.Listener
	served int
}

// NewSafeListening returns a server that serves nothing yet.
func NewSafeListening() *SafeListening { return &SafeListening{} }

// Serve accepts connections on ln until it is closed.
func (s *SafeListening) Serve(ln net.Listener) error {
	s.mu.Lock()
	s.ln = ln
	s.served++
	s.mu.Unlock()
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		c.Close()
	}
}

// Served returns how many times Serve was called.
func (s *SafeListening) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}

// Addr returns the address served, once serving.
func (s *SafeListening) Addr() string { return s.ln.Addr().String() }

// Stack is a stack of ints.
type Stack struct {
	mu    sync.Mutex
	items []int
}

// NewStack returns an empty stack.
func NewStack() *Stack { return &Stack{} }

// Push pushes v.
func (s *Stack) Push(v int) {
	s.mu.Lock()
	s.items = append(s.items, v)
	s.mu.Unlock()
}

// Pop pops the top value; it panics when the stack is empty.
func (s *Stack) Pop() int {
	n := len(s.items) // the race
	if n == 0 {
		panic("objects: Pop of an empty Stack")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v
}
