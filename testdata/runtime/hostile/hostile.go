// Package hostile is a canary for depcon test's isolation: the methods of
// Store, whatever their arguments, try to harm the machine that runs
// them. The test that runs depcon test on it names, in environment
// variables, a canary directory to remove, the real home and temporary
// directories and module cache to write into, and a listener to connect
// to; it checks that every canary is intact afterwards.
//
// Every method locks the store's mutex and counts its calls, so the
// methods are dependent pairs with no bug of their own: depcon test must
// report none of them as a violation.
package hostile

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// Store does harm.
type Store struct {
	mu    sync.Mutex
	calls int
	keep  [][]byte
}

// NewStore returns a store.
func NewStore() *Store { return &Store{} }

func (s *Store) count() {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
}

// Calls returns the number of calls so far.
func (s *Store) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// Wipe removes the canary directory.
func (s *Store) Wipe(name string) error {
	s.count()
	return os.RemoveAll(os.Getenv("HOSTILE_CANARY_DIR"))
}

// Save writes into the real home directory, the real temporary directory
// and the module cache.
func (s *Store) Save(path string) error {
	s.count()
	for _, v := range []string{"HOSTILE_REAL_HOME", "HOSTILE_REAL_TMP", "HOSTILE_MODCACHE"} {
		if err := os.WriteFile(filepath.Join(os.Getenv(v), "hostile-canary"), []byte("x"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Escape changes to the root directory and writes a file there.
func (s *Store) Escape() error {
	s.count()
	if err := os.Chdir("/"); err != nil {
		return err
	}
	return os.WriteFile("hostile-canary", []byte("x"), 0o644)
}

// Dial connects to the test's listener.
func (s *Store) Dial() error {
	s.count()
	c, err := net.DialTimeout("tcp", os.Getenv("HOSTILE_ADDR"), time.Second)
	if err != nil {
		return err
	}
	return c.Close()
}

// Spawn starts 10,000 processes that sleep.
func (s *Store) Spawn() error {
	s.count()
	for range 10000 {
		if err := exec.Command("sleep", "120").Start(); err != nil {
			return err
		}
	}
	return nil
}

// Hog allocates and touches 64 GiB.
func (s *Store) Hog() int {
	s.count()
	s.mu.Lock()
	defer s.mu.Unlock()
	for range 64 << 10 {
		b := make([]byte, 1<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		s.keep = append(s.keep, b)
	}
	return len(s.keep)
}
