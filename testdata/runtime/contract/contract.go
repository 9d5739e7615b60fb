// Package contract has a race between two methods neither of which
// synchronises what they share, in a type that locks elsewhere and whose
// documentation does not say it is safe for concurrent use: whether
// Subscribe may be called while the breaker is in use is a question of
// its contract.
package contract

import "sync"

// Breaker trips after three failures and calls its subscribers.
type Breaker struct {
	mu       sync.Mutex
	failures int
	onTrip   []func()
}

// NewBreaker returns a closed breaker.
func NewBreaker() *Breaker { return &Breaker{} }

// Subscribe adds f to the functions called when the breaker trips.
func (b *Breaker) Subscribe(f func()) { b.onTrip = append(b.onTrip, f) }

// Fail records a failure and calls the subscribers once the breaker
// trips.
func (b *Breaker) Fail() int {
	b.mu.Lock()
	b.failures++
	n := b.failures
	b.mu.Unlock()
	for _, f := range b.onTrip {
		if n > 3 {
			f()
		}
	}
	return n
}

// Unsubscribe removes every subscriber.
func (b *Breaker) Unsubscribe() { b.onTrip = nil }
