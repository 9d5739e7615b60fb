// Package victim has types whose methods misbehave on purpose, for the
// tests of package child.
package victim

import (
	"os"
	"path/filepath"
	"sync"
)

// V is a type under test.
type V struct {
	mu sync.Mutex
	n  int
	m  map[int]int
}

// NewV returns a V.
func NewV() *V { return &V{m: map[int]int{}} }

// Inc increments without the lock: a data race.
func (v *V) Inc() { v.n++ }

// Put writes the map without the lock: concurrent map writes.
func (v *V) Put(k int) {
	for i := range 1000 {
		v.m[k+i] = i
	}
}

// Exit exits the process.
func (v *V) Exit(code int) { os.Exit(code) }

// Get is correct.
func (v *V) Get() int { v.mu.Lock(); defer v.mu.Unlock(); return v.n }

// Spin never returns.
func (v *V) Spin() {
	for {
		v.mu.Lock()
		v.mu.Unlock()
	}
}

// Unlock unlocks an unlocked mutex: a fatal error.
func (v *V) Unlock() { v.mu.Unlock() }

// Touch writes a file with a relative name and one in the temporary
// directory.
func (v *V) Touch() {
	if err := os.WriteFile("touched.txt", []byte("x"), 0o644); err != nil {
		panic(err)
	}
	if err := os.WriteFile(filepath.Join(os.TempDir(), "touched-tmp.txt"), []byte("x"), 0o644); err != nil {
		panic(err)
	}
}
