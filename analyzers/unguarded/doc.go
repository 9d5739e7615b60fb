// Package unguarded defines an Analyzer that reports a field read or
// written without the lock that guards it at every other access.
//
// # Analyzer unguarded
//
// unguarded: report a field accessed without the lock that guards it elsewhere
//
// For every struct type with exported methods, the analyzer looks at the
// accesses its exported methods make to each field of the receiver,
// directly or through the unexported methods and functions they call
// (which run under the caller's locks). When a lock of the receiver is
// held at every access but one, and at least two other accesses hold it
// (in write mode where they write), the remaining access is reported:
//
//	func (r *Reader) Read() byte { r.mu.Lock(); defer r.mu.Unlock(); return r.buf[r.pos] … }
//	func (r *Reader) Reset()     { r.mu.Lock(); r.pos = 0; r.mu.Unlock() }
//	func (r *Reader) Close()     { r.buf = nil } // reported: buf is guarded by r.mu
//
// A write made while holding only the read lock of an RWMutex that guards
// the field everywhere else is reported too.
//
// To keep the bar of a vet check, only unexported fields are considered
// (exported ones are configuration, set before the value is shared), and
// only when one of their accesses is a write; constructors and other functions (which run
// before the value is shared) are not entry points; atomic, sync.Map and
// channel operations, fields that are themselves synchronisation
// primitives, accesses by goroutines the method starts, accesses through
// a value that may be one of several objects (c = c.parent on one path),
// and calls of unknown code are ignored; so are reads in a method that takes the lock
// elsewhere (a value set once under the lock and read after synchronising
// on it). The related information points at an access
// that holds the lock.
package unguarded

const doc = `report a field accessed without the lock that guards it elsewhere

A field of a type whose exported methods access it with a lock of the
receiver held everywhere but in one place is most likely racy there.`
