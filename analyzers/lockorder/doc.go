// Package lockorder defines an Analyzer that reports lock-order inversions.
//
// # Analyzer lockorder
//
// lockorder: report locks acquired in inconsistent orders
//
// Paths that acquire the same locks in orders forming a cycle can
// deadlock: two locks in opposite orders (an AB-BA deadlock), or a longer
// cycle, within a package or across packages, also through callees,
// callbacks and interface methods called with a lock held; so can a
// method that locks the receiver and then an argument of the same type,
// like Equal(other *T).
//
// Locks are compared by class: the same field path of the same type,
// whatever the object (Account.mu of one account and of another are one
// class). The analyzer records, for every acquisition of a lock B made
// while a lock A must be held, the order A → B: directly (a.mu then
// a.b.mu), through callees of this or another package however deep,
// through closures, and through callbacks called with A held (function
// values passed as arguments or stored in fields, method values,
// interface methods whose implementations the package declares, found by
// the package's call graph, and the callbacks those call in turn). A lock
// of an object returned by a call (s := t.find(id); s.mu.Lock()) takes
// part by its class. The value of a range over a node's children, a
// slice or a map (for _, c := range n.children), is one of them, as
// n.children[k] is: a recursive traversal that locks the children's
// locks, or their objects', with the node's held establishes that order.
//
// It reports a cycle of orders A → B → … → A when it goes through an
// order of this package; the orders of imported packages are exported as
// facts. A cycle is reported once, at the latest of its acquisitions in
// this package, with the other orders as related information:
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
// Three locks deadlock the same way with three goroutines:
//
//	func (s *Sched) Tick()  { s.mu.Lock(); defer s.mu.Unlock(); s.store.Bump() }  // Sched → Store
//	func (s *Store) Flush() { s.mu.Lock(); defer s.mu.Unlock(); s.cache.Touch() } // Store → Cache
//	func (c *Cache) Evict() { c.mu.Lock(); defer c.mu.Unlock(); c.sched.Wake() }  // Cache → Sched: reported
//
// So do a lock held while notifying listeners and a listener that calls
// back into its source:
//
//	func (b *Bus) Publish(ev string) {
//		b.mu.Lock()
//		defer b.mu.Unlock()
//		for _, s := range b.subs {
//			s.OnEvent(ev) // logSink.OnEvent locks logSink.mu: Bus.mu → logSink.mu
//		}
//	}
//
//	func (l *logSink) Close() {
//		l.mu.Lock()
//		defer l.mu.Unlock()
//		l.bus.Unsubscribe(l) // logSink.mu → Bus.mu: reported
//	}
//
// Fix an inversion by choosing one order, or by calling out (to another
// type, a callback, a listener) after releasing the lock:
//
//	b.mu.Lock()
//	subs := slices.Clone(b.subs)
//	b.mu.Unlock()
//	for _, s := range subs {
//		s.OnEvent(ev)
//	}
//
// Not reported: a cycle with a shorter cycle inside (the shorter one is),
// a cycle whose every order is taken while holding one same other lock (a
// gate lock serialises them), a cycle with a link where both locks are
// read locks, which do not exclude each other, and the orders a function
// of a _test.go file takes on the locks of types declared in the
// package's other files (a test driving the package from one goroutine;
// code under test declared in a test file is checked as any other). Nor
// is an inversion between a callback and its maker that cannot happen on
// one object: the callback locks an object its maker allocated, and the
// maker takes the inverted order before it makes the callback, outside
// any loop, so a callback run by another goroutine is an earlier call's,
// locking an earlier object:
//
//	w := &watcher{}
//	w.mu.Lock()
//	defer w.mu.Unlock()
//	sub.mu.Lock() // watcher.mu → Subscription.mu
//	sub.done = func() { w.mu.Lock(); … } // run by Remove with sub.mu held
//	sub.mu.Unlock()
//
// It also reports a function that locks two objects of the same type in
// the order of its arguments, such as Equal(other *T) locking the receiver
// and then other: a.Equal(b) concurrent with b.Equal(a) deadlocks.
// Functions that also take them in the opposite order (to lock by address
// or id) are not reported, nor are two read locks.
//
// Fix Equal by copying other's state under other's lock alone, then
// locking the receiver.
package lockorder
