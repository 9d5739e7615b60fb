// Event buses whose listeners are an interface that nothing of the
// package implements: Bus counts its deliveries without its lock;
// SafeBus, its twin, is correct. A test reaches the count only with a
// listener that is not nil, whose Scope is not nil either.

package objects

import "sync"

// A Scope names where a listener listens.
type Scope interface {
	Name() string
}

// A Listener is told of the events a bus publishes.
type Listener interface {
	Event(name string, tags ...string) error
	Scope() Scope
}

// Bus publishes events to its listeners. It is safe for concurrent use.
type Bus struct {
	mu        sync.Mutex
	listeners []Listener
	delivered int
}

// NewBus returns a bus with no listener.
func NewBus() *Bus { return &Bus{} }

// Subscribe adds l, which must not be nil.
func (b *Bus) Subscribe(l Listener) {
	if l == nil {
		panic("objects: Subscribe of a nil Listener")
	}
	b.mu.Lock()
	b.listeners = append(b.listeners, l)
	b.mu.Unlock()
}

// Publish tells the listeners of scope of the event name.
func (b *Bus) Publish(scope, name string) {
	b.mu.Lock()
	ls := b.listeners
	b.mu.Unlock()
	for _, l := range ls {
		if l.Scope().Name() == scope {
			_ = l.Event(name)
		}
		b.delivered++ // the race
	}
}

// Delivered returns how many deliveries were made.
func (b *Bus) Delivered() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.delivered
}

// SafeBus publishes events to its listeners. It is safe for concurrent
// use.
type SafeBus struct {
	mu        sync.Mutex
	listeners []Listener
	delivered int
}

// NewSafeBus returns a bus with no listener.
func NewSafeBus() *SafeBus { return &SafeBus{} }

// Subscribe adds l, which must not be nil.
func (b *SafeBus) Subscribe(l Listener) {
	if l == nil {
		panic("objects: Subscribe of a nil Listener")
	}
	b.mu.Lock()
	b.listeners = append(b.listeners, l)
	b.mu.Unlock()
}

// Publish tells the listeners of scope of the event name.
func (b *SafeBus) Publish(scope, name string) {
	b.mu.Lock()
	ls := b.listeners
	b.mu.Unlock()
	for _, l := range ls {
		if l.Scope().Name() == scope {
			_ = l.Event(name)
		}
		b.mu.Lock()
		b.delivered++
		b.mu.Unlock()
	}
}

// Delivered returns how many deliveries were made.
func (b *SafeBus) Delivered() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.delivered
}
