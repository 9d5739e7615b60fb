// Package observable provides a string value that notifies subscribers
// when it changes.
package observable

import "sync"

// Value holds a string and calls its subscribers with every new value. A
// Value is safe for concurrent use by multiple goroutines.
type Value struct {
	mu      sync.Mutex
	v       string
	version int
	subs    []func(string)
}

// NewValue returns a Value holding initial.
func NewValue(initial string) *Value {
	return &Value{v: initial}
}

// Get returns the current value.
func (o *Value) Get() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.v
}

// Version returns the number of changes so far.
func (o *Value) Version() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.version
}

// Set stores s and, if it differs from the current value, calls every
// subscriber with it. It reports whether the value changed.
func (o *Value) Set(s string) bool {
	o.mu.Lock()
	changed := o.v != s
	if changed {
		o.v = s
		o.version++
	}
	subs := o.subs
	o.mu.Unlock()
	if changed {
		for _, fn := range subs {
			fn(s)
		}
	}
	return changed
}

// Subscribe registers fn to be called after each change and returns the
// number of subscribers.
func (o *Value) Subscribe(fn func(string)) int {
	if fn == nil {
		return o.Subscribers()
	}
	o.subs = append(o.subs, fn)
	return len(o.subs)
}

// Subscribers returns the number of registered subscribers.
func (o *Value) Subscribers() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.subs)
}
