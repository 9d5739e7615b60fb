// Package selfdeadlock defines an Analyzer that reports re-locking a held mutex.
//
// # Analyzer selfdeadlock
//
// selfdeadlock: report locking a mutex that is already held
//
// Go's sync.Mutex and sync.RWMutex are not reentrant: a goroutine that
// locks a mutex it already holds, directly, through a callee, a recursive
// call or a callback, blocks forever. The analyzer reports a Lock (or an
// RLock while the lock is write-locked, or a Lock while it is read-locked)
// of a lock that must be held on every path to that point, on the same
// access path, either directly or through callees in this or another
// package, however deep:
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
// A lock helper counts as an acquisition: c.lock() followed by
// c.mu.Lock() is reported, whatever the number of calls between.
//
// Recursive read locking (RLock while read-locked) is reported by
// rwrdeadlock, since it only deadlocks when a writer waits in between.
// The diagnostic's related information points at the first acquisition.
//
// # Recursion
//
// A recursive call made with the lock held, to a function that locks it
// on every path (directly, or through the functions of the recursion):
//
//	func (t *Tree) Insert(n *node, k int) {
//		t.mu.Lock()
//		defer t.mu.Unlock()
//		...
//		t.Insert(n.left, k) // reported
//	}
//
// The fix is the same: lock in the exported method, recurse in an
// unexported one that expects the lock held. Recursion over other objects
// (n.kids[i].Walk(), each with its own lock) is not reported, nor is a
// function that locks only when a flag says the caller does not.
//
// # Callbacks
//
// A function value or an interface method called with the lock held,
// whose target locks it again:
//
//	func (c *Cache) withLock(f func()) { c.mu.Lock(); defer c.mu.Unlock(); f() }
//
//	func (c *Cache) Count() (n int) {
//		c.withLock(func() { n = c.Len() }) // reported: Len locks c.mu
//		return n
//	}
//
// Targets are closures and functions passed as arguments (also to a
// helper of another package that calls them with a lock held), callbacks
// stored in a field of the very object they capture (c.onEvict =
// func(k string) { c.Remove(k) }, or a method value c.onClose = c.Close),
// callbacks installed through a setter by a closure over the object
// (l.SetHook(func() { l.Checkpoint() })), a function handed to a helper
// that runs it with sync.Once (c.lazyInit(c.load), where lazyInit calls
// c.once.Do(f)), a function made by sync.OnceFunc or sync.OnceValue over
// the object and stored in one of its fields (c.size =
// sync.OnceValue(func() int { c.mu.Lock() … })), the implementations of an
// interface method found by the package's call graph when the receiver is
// the object whose lock is held, or an adapter that wraps that object and
// is stored in one of its fields (s.handler = recorder{s}, where
// recorder.Handle calls back into s), and the String and Error methods
// of the operands of fmt and log print functions:
//
//	func (p *Peer) String() string { p.mu.Lock(); defer p.mu.Unlock(); return p.addr }
//
//	func (p *Peer) Close() {
//		p.mu.Lock()
//		defer p.mu.Unlock()
//		log.Printf("closing %v", p) // reported: String locks p.mu
//	}
//
// Fix it by calling out after the lock is released, or by handing the
// callback what it needs instead of the object:
//
//	p.mu.Lock()
//	addr := p.addr
//	p.mu.Unlock()
//	log.Printf("closing %s", addr)
//
// A callback of another object (a.onDone = b.Done) is not reported: its
// lock is another one.
package selfdeadlock
