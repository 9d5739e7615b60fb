// Package foreignlib keeps private state in package variables, as
// reflect's, encoding/json's or time's caches do.
package foreignlib

var calls int

// Note counts a call in the package's private state.
func Note() { calls++ }

// Inc increments the int p points to.
func Inc(p *int) { *p++ }
