// plan: Private: |M|=3 pc=0 d=0; Store: |M|=3 pc=3 d=0; Tally: |M|=3 pc=0 d=0

// Package dotted checks that the package variables of a package whose
// import path's last element has a dot (dotted.v2, as gopkg.in/yaml.v3)
// are its own state, as in any other package, and those of another such
// package (dottedlib.v3) are not.
package dotted

import (
	"sync"

	"dottedlib.v3"
)

var count int

// Store writes the package variable count with no lock: Put and Reset
// race on it.
type Store struct{}

// Put counts an item.
func (s *Store) Put() { count++ }

// Reset clears the count.
func (s *Store) Reset() { count = 0 }

var (
	mu    sync.Mutex
	total int
)

// Tally is the correct twin of Store: it writes the package variable
// total under the package's mutex.
type Tally struct{}

// Add counts an item.
func (t *Tally) Add() {
	mu.Lock()
	total++
	mu.Unlock()
}

// Reset clears the total.
func (t *Tally) Reset() {
	mu.Lock()
	total = 0
	mu.Unlock()
}

// Private calls into dottedlib, which writes its own package variable:
// not state of Private.
type Private struct{}

// A notes a call.
func (p *Private) A() { dottedlib.Note() }

// B notes a call.
func (p *Private) B() { dottedlib.Note() }
