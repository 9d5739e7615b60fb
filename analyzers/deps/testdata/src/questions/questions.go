// plan: Breaker: |M|=3 pc=2 d=0; Counting: |M|=3 pc=2 d=0; Logging: |M|=3 pc=2 d=0; SafeBreaker: |M|=3 pc=2 d=0

// Package questions has conflicts that neither method orders: no lock,
// no atomic at either access, in types that lock elsewhere. Whether the
// methods may run at the same time is a question of the contract, which
// the documentation of SafeBreaker answers.
package questions

import (
	"log"
	"sync"
)

// Breaker trips after three failures and calls its subscribers.
type Breaker struct {
	mu       sync.Mutex
	failures int
	onTrip   []func()
}

// Subscribe adds f to the functions called when the breaker trips.
func (b *Breaker) Subscribe(f func()) { b.onTrip = append(b.onTrip, f) }

// Fail records a failure.
func (b *Breaker) Fail() {
	b.mu.Lock()
	b.failures++
	trip := b.failures > 3
	b.mu.Unlock()
	if trip {
		for _, f := range b.onTrip {
			f()
		}
	}
}

// SafeBreaker is Breaker, documented: a SafeBreaker is safe for
// concurrent use. The same conflicts are bugs.
type SafeBreaker struct {
	mu       sync.Mutex
	failures int
	onTrip   []func()
}

// Subscribe adds f to the functions called when the breaker trips.
func (b *SafeBreaker) Subscribe(f func()) { b.onTrip = append(b.onTrip, f) }

// Fail records a failure.
func (b *SafeBreaker) Fail() {
	b.mu.Lock()
	b.failures++
	trip := b.failures > 3
	b.mu.Unlock()
	if trip {
		for _, f := range b.onTrip {
			f()
		}
	}
}

// Logging has a limit that Get reads under its lock and SetLimit writes
// without any, logging what it refuses: the lock log.Printf takes is the
// log package's, so SetLimit synchronises nothing of the object, and
// SetLimit ∥ SetLimit is a question, as for a setter that does not log.
type Logging struct {
	mu    sync.Mutex
	limit int
}

// SetLimit sets the limit.
func (l *Logging) SetLimit(n int) {
	if n < 0 {
		log.Printf("negative limit %d", n)
		return
	}
	l.limit = n
}

// Get returns the limit.
func (l *Logging) Get() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limit
}

// Counting counts under its lock and forgets the hits: Inc synchronises
// the count, so Inc ∥ Inc's race on hits is no question but a bug.
type Counting struct {
	mu   sync.Mutex
	n    int
	hits int
}

// Inc counts one.
func (c *Counting) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c.hits++
}

// Hits returns the hits.
func (c *Counting) Hits() int { return c.hits }
