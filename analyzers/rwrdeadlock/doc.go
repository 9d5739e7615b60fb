// Package rwrdeadlock defines an Analyzer that reports recursive read locking.
//
// # Analyzer rwrdeadlock
//
// rwrdeadlock: report recursive read locking of an RWMutex that has writers
//
// Once a writer is blocked in Lock, sync.RWMutex blocks new readers. A
// goroutine that holds a read lock and read-locks again therefore
// deadlocks when a writer arrives in between: the writer waits for the
// first read lock, the second RLock waits for the writer.
//
//	func (r *Registry) Lookup(k string) *Entry {
//		r.mu.RLock()
//		defer r.mu.RUnlock()
//		if r.Len() == 0 { // Len read-locks r.mu again
//			...
//	func (r *Registry) Register(e *Entry) { r.mu.Lock(); … }
//
// The analyzer reports the second RLock when the first one must be held
// on every path and the lock (the same field of the same type) is
// write-locked in the package or in a package it imports (the write-locked
// classes are exported as facts). The second RLock may happen directly,
// in a callee several calls deep or in another package, in a recursive
// call, in the String method of a value printed with fmt or log, in a
// method of a small struct that wraps the object (view{r}.best(keys)),
// or in a callback run with the read lock held (also by a function of
// another package that keeps it in a struct, as sort.Slice does with its
// comparator):
//
//	func Sum(t *lib.Table) (n int) {
//		t.Each(func(k string) { n += t.Get(k) }) // Each read-locks t, so does Get
//		return n
//	}
//
// Fix it by reading under one read lock (an unexported variant that
// expects the lock held), or by collecting what the callback needs first:
//
//	var keys []string
//	t.Each(func(k string) { keys = append(keys, k) })
//	for _, k := range keys {
//		n += t.Get(k)
//	}
//
// Recursive read locking of a lock that nothing write-locks is not
// reported. The related information points at the first RLock and, when
// it is in this package, at a Lock.
package rwrdeadlock
