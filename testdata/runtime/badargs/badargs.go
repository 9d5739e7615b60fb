// Package badargs holds a type whose calls fail alone on some arguments
// and leave it broken: Feed takes the type of the first value sent, and
// a nil value, which has no type, panics in that first Send; a Send of a
// typed value after it panics too. Used with typed values, as its
// documentation says, Feed is correct: no concurrent failure of it is
// its defect.
package badargs

import (
	"fmt"
	"reflect"
	"sync"
)

// Feed sends values of one type, the type of the first value sent;
// nil is no value.
type Feed struct {
	once sync.Once
	mu   sync.Mutex
	typ  reflect.Type
	sent int
}

// Send sends v, which must have the feed's type.
func (f *Feed) Send(v any) int {
	f.once.Do(func() {
		f.typ = reflect.TypeOf(v)
		_ = f.typ.Kind() // a nil value has no type
	})
	if t := reflect.TypeOf(v); t != f.typ {
		panic(fmt.Sprintf("badargs: sent %v to a feed of %s", t, f.typ.String()))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent++
	return f.sent
}

// Sent returns the number of values sent.
func (f *Feed) Sent() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sent
}
