// Package broken does not compile.
package broken

import "sync"

// T is a type under test that does not type-check.
type T struct{ mu sync.Mutex }

// Get returns an undefined value.
func (t *T) Get() int { return undefinedValue }
