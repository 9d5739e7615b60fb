// Package selfdeadlocklib holds helpers that call a function with a lock
// held, for the selfdeadlock tests across packages.
package selfdeadlocklib

import "sync"

// Do calls f with mu held.
func Do(mu *sync.Mutex, f func()) { // want Do:`call \$1 \{\$0:W\}`
	mu.Lock()
	defer mu.Unlock()
	f()
}

// Guard holds a lock and calls functions under it.
type Guard struct {
	Mu sync.Mutex
}

// Run calls f with g.Mu held.
func (g *Guard) Run(f func()) { // want Run:`call \$1 \{\$0.Mu:W\}`
	g.Mu.Lock()
	f()
	g.Mu.Unlock()
}

// Each calls f for each element of xs, in the caller's goroutine.
func Each(xs []string, f func(string)) { // want Each:`call \$1 \{\}`
	for _, x := range xs {
		f(x)
	}
}

// Async calls f in a new goroutine.
func Async(f func()) {
	go f()
}
