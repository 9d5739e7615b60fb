// Event emitters that keep their listeners as interface{} values and
// call them through reflect, refusing anything but a function: Emitter
// counts the calls of its listeners without its lock; SafeEmitter, its
// twin, is correct. Only listeners that are functions get there.

package objects

import (
	"fmt"
	"reflect"
	"sync"
)

// Emitter calls the listeners of an event. It is safe for concurrent
// use.
type Emitter struct {
	mu        sync.RWMutex
	listeners map[string][]reflect.Value
	calls     int
}

// NewEmitter returns an emitter without listeners.
func NewEmitter() *Emitter { return &Emitter{listeners: map[string][]reflect.Value{}} }

// On adds listener, a function, to the listeners of event.
func (e *Emitter) On(event string, listener interface{}) {
	fn := reflect.ValueOf(listener)
	if fn.Kind() != reflect.Func {
		panic(fmt.Sprintf("objects: listener of %q is a %s, not a func", event, fn.Kind()))
	}
	e.mu.Lock()
	e.listeners[event] = append(e.listeners[event], fn)
	e.mu.Unlock()
}

// Emit calls the listeners of event with args, and returns how many it
// called.
func (e *Emitter) Emit(event string, args ...interface{}) int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
	}
	n := 0
	for _, fn := range e.listeners[event] {
		if fn.Type().IsVariadic() || fn.Type().NumIn() == len(in) {
			fn.Call(in)
			e.calls++ // the race: under the read lock only
			n++
		}
	}
	return n
}

// SafeEmitter calls the listeners of an event. It is safe for
// concurrent use.
type SafeEmitter struct {
	mu        sync.RWMutex
	listeners map[string][]reflect.Value
	calls     int
}

// NewSafeEmitter returns an emitter without listeners.
func NewSafeEmitter() *SafeEmitter {
	return &SafeEmitter{listeners: map[string][]reflect.Value{}}
}

// On adds listener, a function, to the listeners of event.
func (e *SafeEmitter) On(event string, listener interface{}) {
	fn := reflect.ValueOf(listener)
	if fn.Kind() != reflect.Func {
		panic(fmt.Sprintf("objects: listener of %q is a %s, not a func", event, fn.Kind()))
	}
	e.mu.Lock()
	e.listeners[event] = append(e.listeners[event], fn)
	e.mu.Unlock()
}

// Emit calls the listeners of event with args, and returns how many it
// called.
func (e *SafeEmitter) Emit(event string, args ...interface{}) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
	}
	n := 0
	for _, fn := range e.listeners[event] {
		if fn.Type().IsVariadic() || fn.Type().NumIn() == len(in) {
			fn.Call(in)
			e.calls++
			n++
		}
	}
	return n
}
