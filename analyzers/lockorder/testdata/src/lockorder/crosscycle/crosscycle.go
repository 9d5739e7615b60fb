// want package:"lockorderlib.Z.Mu -> lockorderlib.X.Mu"

// Package crosscycle closes, across packages, a cycle of three locks
// whose other two orders are established in lockorderlib.
package crosscycle

import "lockorderlib"

func Reset(z *lockorderlib.Z) {
	z.Mu.Lock()
	defer z.Mu.Unlock()
	z.X.Mu.Lock() // want `lock order cycle of 3 locks: Reset locks z.X.Mu while holding z.Mu, lockorderlib.Touch \(at lib.go:\d+:\d+\) locks lockorderlib.Y.Mu while holding lockorderlib.X.Mu, lockorderlib.Touch \(at lib.go:\d+:\d+\) locks lockorderlib.Z.Mu while holding lockorderlib.Y.Mu`
	z.X.Mu.Unlock()
}

// Correct: one lock at a time.
func Reset2(z *lockorderlib.Z) {
	z.Mu.Lock()
	x := z.X
	z.Mu.Unlock()
	x.Mu.Lock()
	x.Mu.Unlock()
}
