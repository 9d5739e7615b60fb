// plan: Breaker: |M|=3 pc=2 d=0; SafeBreaker: |M|=3 pc=2 d=0

// Package questions has conflicts that neither method orders: no lock,
// no atomic at either access, in types that lock elsewhere. Whether the
// methods may run at the same time is a question of the contract, which
// the documentation of SafeBreaker answers.
package questions

import "sync"

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
