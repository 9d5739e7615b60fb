// Package confirm has static diagnostics of each kind a generated test
// may or may not confirm: an unguarded write the tests reproduce, a lock
// order inversion behind a flag no method sets (its statements are never
// reached), and a lock leaked by a function, which no method pair
// concerns.
package confirm

import (
	"errors"
	"sync"
)

// Counter counts; Add forgets the lock the other methods take.
type Counter struct {
	mu sync.Mutex
	n  int
}

// NewCounter returns a zero counter.
func NewCounter() *Counter { return &Counter{} }

// Add adds d.
func (c *Counter) Add(d int) { c.n += d }

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Reset sets the count to zero.
func (c *Counter) Reset() {
	c.mu.Lock()
	c.n = 0
	c.mu.Unlock()
}

// Ledger moves units between two accounts. Back takes the locks in the
// other order, but only when reversed is set, which nothing does: the
// inversion is real in the code and unreachable through the API.
type Ledger struct {
	a, b     sync.Mutex
	x, y     int
	reversed bool
}

// NewLedger returns a ledger with 100 units in its first account.
func NewLedger() *Ledger { return &Ledger{x: 100} }

// Move moves one unit from the first account to the second.
func (l *Ledger) Move() {
	l.a.Lock()
	defer l.a.Unlock()
	l.b.Lock()
	l.x--
	l.y++
	l.b.Unlock()
}

// Back moves one unit back, in reversed ledgers.
func (l *Ledger) Back() {
	if !l.reversed {
		return
	}
	l.b.Lock()
	defer l.b.Unlock()
	l.a.Lock()
	l.x++
	l.y--
	l.a.Unlock()
}

var (
	mu    sync.Mutex
	total int
)

// Bump adds d to the package's total; it leaks mu when d is negative.
func Bump(d int) error {
	mu.Lock()
	if d < 0 {
		return errors.New("negative")
	}
	total += d
	mu.Unlock()
	return nil
}
