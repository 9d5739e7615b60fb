package harness

import "sync/atomic"

// This file is the only one the driver adds to the package under test as
// an ordinary (non-test) file: the package's own code, rewritten in the
// overlay (see runtime/driver/internal/instrument), calls these hooks at its scheduling
// points. Outside a test, and until a scheduler is installed, a hook
// loads one atomic flag and returns.

// hooked is set, once and for the life of the process, when a scheduler
// is installed; hookTo is written before it and never again.
var (
	hooked int32
	hookTo hookTarget
)

// A hookTarget receives the hooks' calls.
type hookTarget interface {
	point(site int)
	locked(site int)
	unlocked(site int)
	wait(site int, lock func())
}

// Point is called before a statement of interest and before an
// acquisition.
func Point(site int) {
	if atomic.LoadInt32(&hooked) != 0 {
		hookTo.point(site)
	}
}

// Locked is called right after an acquisition.
func Locked(site int) {
	if atomic.LoadInt32(&hooked) != 0 {
		hookTo.locked(site)
	}
}

// Unlocked is called right after a release.
func Unlocked(site int) {
	if atomic.LoadInt32(&hooked) != 0 {
		hookTo.unlocked(site)
	}
}

// Wait is called when an acquisition found the lock taken: it blocks in
// lock.
func Wait(site int, lock func()) {
	if atomic.LoadInt32(&hooked) != 0 {
		hookTo.wait(site, lock)
		return
	}
	lock()
}

// Unlock releases a lock in a deferred call: defer Unlock(mu.Unlock, site).
func Unlock(unlock func(), site int) {
	unlock()
	Unlocked(site)
}
