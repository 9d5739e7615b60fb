// Package lockorder defines an Analyzer that reports lock-order
// inversions: two code paths that acquire the same two locks in opposite
// orders (an AB-BA deadlock), within a package or across packages.
//
// # Analyzer lockorder
//
// lockorder: report locks acquired in inconsistent orders
//
// Locks are compared by class: the same field of the same type, whatever
// the object (Account.mu of one account and of another are one class).
// The analyzer records, for every acquisition of a lock B made while a
// lock A must be held (directly, or by a callee in this or another
// package), the order A → B.
//
// It reports an order B → A that contradicts an order A → B established
// in this package or in a package it imports (orders are exported as
// facts), with related information at the other order's site:
//
//	func (s *Store) Put(k string) {
//		s.mu.Lock() // Store.mu, then Log.mu in Append
//		defer s.mu.Unlock()
//		s.log.Append(k)
//	}
//
//	func (l *Log) Flush() {
//		l.mu.Lock() // Log.mu, then Store.mu in Sync: reported
//		defer l.mu.Unlock()
//		l.store.Sync()
//	}
//
// It also reports a function that locks two objects of the same type in
// the order of its arguments, such as Equal(other *T) locking the receiver
// and then other: a.Equal(b) concurrent with b.Equal(a) deadlocks.
// Functions that also take them in the opposite order (to lock by address
// or id) are not reported, nor are two read locks, which do not exclude
// each other.
//
// Fix an inversion by choosing one order; fix Equal by copying other's
// state under other's lock alone, then locking the receiver.
package lockorder

const doc = `report locks acquired in inconsistent orders

Two paths that acquire the same two locks (fields of the same types) in
opposite orders can deadlock; so can a method that locks the receiver and
then an argument of the same type, like Equal(other *T).`
