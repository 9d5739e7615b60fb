// Package lib locks a Pair's mutexes First, then Second.
package lib

import "sync"

// Pair is always locked First, then Second.
type Pair struct{ First, Second sync.Mutex }

// Both locks both mutexes.
func (p *Pair) Both() {
	p.First.Lock()
	defer p.First.Unlock()
	p.Second.Lock()
	defer p.Second.Unlock()
}
