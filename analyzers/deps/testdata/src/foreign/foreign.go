// plan: Local: |M|=3 pc=3 d=0; Own: |M|=3 pc=2 d=0; Private: |M|=3 pc=0 d=0

// Package foreign checks which package variables count as shared state of
// a type: those of its own package, not the private state of a package it
// calls into.
package foreign

import "foreignlib"

// Private calls into foreignlib, which writes its own package variable:
// not state of Private.
type Private struct{ n int }

// A notes a call.
func (p *Private) A() { foreignlib.Note() }

// B notes a call.
func (p *Private) B() { foreignlib.Note() }

// Own has its field incremented by a function of another package: the
// field is Own's state wherever the code that writes it lives.
type Own struct{ n int }

// Inc increments n through foreignlib.
func (o *Own) Inc() { foreignlib.Inc(&o.n) }

// Get reads n.
func (o *Own) Get() int { return o.n }

var hits int

// Local is the negative twin of Private: it writes a package variable of
// its own package.
type Local struct{}

// A counts a hit.
func (l *Local) A() { hits++ }

// B counts a hit.
func (l *Local) B() { hits++ }
