// Package selfdeadlock defines an Analyzer that reports a sync.Mutex or
// sync.RWMutex locked while it is already held by the same goroutine.
//
// # Analyzer selfdeadlock
//
// selfdeadlock: report locking a mutex that is already held
//
// Go's mutexes are not reentrant: a goroutine that locks a mutex it holds
// blocks forever. The analyzer reports a Lock (or an RLock while the lock
// is write-locked, or a Lock while it is read-locked) of a lock that must
// be held on every path to that point, on the same access path, either
// directly or through a callee in this or another package:
//
//	func (c *Cache) Put(k string, v int) {
//		c.mu.Lock()
//		defer c.mu.Unlock()
//		if c.Len() > c.max { // Len locks c.mu: Put never returns
//			...
//
// Fix it with an unexported variant that expects the lock to be held:
//
//	func (c *Cache) len() int { return len(c.m) } // c.mu must be held
//
// Recursive read locking (RLock while read-locked) is reported by
// rwrdeadlock, since it only deadlocks when a writer waits in between.
// The diagnostic's related information points at the first acquisition.
package selfdeadlock

const doc = `report locking a mutex that is already held

Go's sync.Mutex and sync.RWMutex are not reentrant: locking a mutex that
the goroutine already holds, directly or through a callee, never returns.`
