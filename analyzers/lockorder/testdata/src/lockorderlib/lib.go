// want package:"lockorderlib.X.Mu -> lockorderlib.Y.Mu; lockorderlib.Y.Mu -> lockorderlib.Z.Mu"

// Package lockorderlib establishes two lock orders, X then Y and Y then
// Z, which an importing package closes into a cycle.
package lockorderlib

import "sync"

type X struct {
	Mu sync.Mutex
	Y  *Y
}

type Y struct {
	Mu sync.Mutex
	Z  *Z
	n  int
}

type Z struct {
	Mu sync.Mutex
	X  *X
	n  int
}

// Touch locks x, then its Y.
func (x *X) Touch() {
	x.Mu.Lock()
	defer x.Mu.Unlock()
	x.Y.Mu.Lock()
	x.Y.n++
	x.Y.Mu.Unlock()
}

// Touch locks y, then its Z.
func (y *Y) Touch() {
	y.Mu.Lock()
	defer y.Mu.Unlock()
	y.Z.Mu.Lock()
	y.Z.n++
	y.Z.Mu.Unlock()
}
