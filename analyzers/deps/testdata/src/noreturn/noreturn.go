// Package noreturn has a method whose failure path releases the lock and
// then ends in a call that never returns (Settings.Must calling die,
// which exits): the read after it holds the lock, and Must ∥ Set is not
// dependent. Its twin Warned goes on after a warning, reading the path
// without the lock: Must ∥ Set is.
package noreturn

import (
	"os"
	"sync"
)

// Settings reads its path under the lock, but for a path that ends in a
// call that never returns (die exits the process): silent.
type Settings struct {
	mu   sync.Mutex
	path string
}

func (s *Settings) Set(p string) {
	s.mu.Lock()
	s.path = p
	s.mu.Unlock()
}

func (s *Settings) Get() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.path
}

func (s *Settings) Must() string {
	s.mu.Lock()
	if s.path == "" {
		s.mu.Unlock()
		die("no path")
	}
	p := s.path
	s.mu.Unlock()
	return p
}

// die exits the process.
func die(msg string) {
	println(msg)
	os.Exit(1)
}

// Warned is Settings whose failure path goes on, after a warning, to
// read the path without the lock.
type Warned struct {
	mu   sync.Mutex
	path string
}

func (s *Warned) Set(p string) {
	s.mu.Lock()
	s.path = p
	s.mu.Unlock()
}

func (s *Warned) Get() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.path
}

func (s *Warned) Must() string {
	s.mu.Lock()
	if s.path == "" {
		s.mu.Unlock()
		warn("no path")
	}
	p := s.path
	s.mu.Unlock()
	return p
}

// warn prints msg.
func warn(msg string) { println(msg) }
