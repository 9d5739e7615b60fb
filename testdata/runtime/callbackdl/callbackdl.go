// Package callbackdl has deadlocks that only a call through a function
// value shows: the summaries of the methods do not see into the
// callbacks, the callback analysis does, and the plan must have the
// pairs for depcon test to confirm them.
package callbackdl

import "sync"

// Bus delivers events to its handler. The bus makes its own recorder
// the handler at construction; Publish calls it with the lock held, and
// the recorder takes the lock again.
type Bus struct {
	mu      sync.Mutex
	handler func(string)
	log     []string
}

// NewBus returns a bus that records what it publishes.
func NewBus() *Bus {
	b := &Bus{}
	b.handler = b.record
	return b
}

func (b *Bus) record(ev string) {
	b.mu.Lock()
	b.log = append(b.log, ev)
	b.mu.Unlock()
}

// Publish delivers ev.
func (b *Bus) Publish(ev string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handler(ev)
}

// Len returns the number of events recorded.
func (b *Bus) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.log)
}

// SafeBus copies its subscribers under the lock and calls them after
// releasing it.
type SafeBus struct {
	mu   sync.Mutex
	subs []func(string)
	log  []string
}

// NewSafeBus returns a bus that records what it publishes.
func NewSafeBus() *SafeBus {
	b := &SafeBus{}
	b.subs = append(b.subs, b.record)
	return b
}

func (b *SafeBus) record(ev string) {
	b.mu.Lock()
	b.log = append(b.log, ev)
	b.mu.Unlock()
}

// Publish delivers ev.
func (b *SafeBus) Publish(ev string) {
	b.mu.Lock()
	subs := append(make([]func(string), 0, len(b.subs)), b.subs...)
	b.mu.Unlock()
	for _, f := range subs {
		f(ev)
	}
}

// Len returns the number of events recorded.
func (b *SafeBus) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.log)
}
