// Package unguarded defines an Analyzer that reports unguarded field accesses.
//
// # Analyzer unguarded
//
// unguarded: report a field accessed without the synchronisation used elsewhere
//
// A field of a type whose entry points access it with a lock of the
// receiver held everywhere but in one place is most likely racy there.
// So is a field accessed with sync/atomic in some places and plainly in
// others, and a guarded field read before its lock is taken
// (check-then-lock).
//
// The analyzer looks, for every struct type of the package, at the
// accesses that its entry points make to the fields of the receiver,
// directly or through the unexported methods and functions they call
// (which run under the caller's locks). The entry points are the exported
// methods of *T, and the methods that a goroutine of the package runs:
// go t.loop(), wg.Go(t.tick), or go func() { t.flush() }() when the
// function literal takes no lock before the call. A go statement in a
// function that waits for a WaitGroup (or calls another Wait method) does
// not count: fork-join goroutines run within their caller's critical
// section.
//
// The related information points at an access that holds the lock, at
// the atomic access, or at the lock acquisition and a guarded write.
//
// # A field accessed without its lock
//
// When a lock of the receiver is held at every access of a field but one,
// and at least two other accesses hold it (in write mode where they
// write), the remaining access is reported. A lock of the receiver is a
// mutex field of it (or of a struct it embeds or holds by value), or the
// L of the sync.Cond a field points to (t.cond.L):
//
//	func (r *Reader) Read() byte { r.mu.Lock(); defer r.mu.Unlock(); return r.buf[r.pos] … }
//	func (r *Reader) Reset()     { r.mu.Lock(); r.pos = 0; r.mu.Unlock() }
//	func (r *Reader) Close()     { r.buf = nil } // reported: buf is guarded by r.mu
//
// So is the first access in a method that accesses the field several
// times, none of them with the lock that the type's other methods hold at
// every access of it (at least two):
//
//	func (l *Log) Append(s string) {
//		l.mu.Lock()
//		l.seq++
//		l.mu.Unlock()
//		l.entries = append(l.entries, s) // reported: entries is guarded by l.mu
//	}
//
// A write made while holding only the read lock of an RWMutex that guards
// the field everywhere else is reported too. So is an access in a method
// that a goroutine runs:
//
//	func NewHub() *Hub { h := &Hub{}; go h.loop(); return h }
//	func (h *Hub) loop() { h.clients = 0 } // reported: clients is guarded by h.mu
//
// Take the lock, or call a helper from a function that holds it.
//
// # A field written under a sync.Once
//
// A field written only in the function that a sync.Once's Do runs is
// published by the Once: the writes happen once, before every Do
// returns, whatever lock the callers of Do hold. Its accesses made after
// a Do (in a method that calls Do on a Once of the receiver, itself or in
// a helper) are not reported, nor is the write, even when the lock that
// other paths hold is not held there (a configuration resolved under
// the lock by Write and without it by a background goroutine). A read of
// what the Once writes, in a method that calls no Do and holds no lock
// held at every write, is reported: the first Do may be writing it.
//
//	func (r *Rotator) resolve()        { r.once.Do(func() { r.layout = … }) }
//	func (r *Rotator) Mill() string    { r.resolve(); return r.layout }
//	func (r *Rotator) Peek() string    { return r.layout } // reported
//
// # A field accessed both atomically and plainly
//
// A field that some methods access with sync/atomic (atomic.AddInt64,
// atomic.LoadInt64, …) is shared without a lock; a plain read or write of
// it elsewhere is a data race in Go's memory model, even with a lock held
// on the plain side, since the atomic side takes none:
//
//	func (s *Stats) Hit()          { atomic.AddInt64(&s.hits, 1) }
//	func (s *Stats) Hits() int64   { return s.hits }                 // reported
//	func (s *Stats) Reset()        { s.mu.Lock(); s.hits = 0; s.mu.Unlock() } // reported
//
// Use the atomic functions everywhere, or better a field of an atomic
// type (atomic.Int64), which cannot be accessed plainly:
//
//	func (s *Stats) Hits() int64 { return atomic.LoadInt64(&s.hits) }
//
// An access that a goroutine of the type makes while a method hands it
// the lock holds the lock: the method, holding it, wakes the goroutine
// through a channel and waits for it (a WaitGroup, a reply channel)
// before unlocking, so the goroutine's accesses between its receive and
// its signal run in the method's critical section:
//
//	func (p *Pool) Put(x int) {
//		p.mu.Lock()
//		defer p.mu.Unlock()
//		p.wg.Add(1)
//		p.wake <- x
//		p.wg.Wait()
//	}
//
//	func (p *Pool) waiter() {
//		for x := range p.wake {
//			p.items = append(p.items, x) // not reported
//			p.wg.Done()
//		}
//	}
//
// Without the wait, or after the signal, the access is reported.
//
// The fields of an object that a receiver field refers to are judged
// each on its own accesses (recv.fr.wbuf apart from recv.fr.rbuf): the
// read half of a framer, which only its reader uses, is not guarded by
// the lock held where the write half is used.
//
// Not reported: fields of sync/atomic types; plain accesses made before
// the value is shared (composite literals, constructors and the helpers
// only they call, which are not entry points); a plain access and the
// atomic ones that hold a common lock (one of them in write mode): the
// atomics are then merely redundant; a plain read where all the atomic
// accesses are reads too; atomic accesses by goroutines that the method
// making the plain access starts (it may wait for them); the fields of
// lock implementations (a type that declares Lock and Unlock, and the
// fields inside one), whose atomics are their synchronisation; the fields
// of another package's types, reported in that package. Exported fields
// are checked too: an atomic access by the package's own methods shows
// that the field changes while the value is shared.
//
// # Check-then-lock
//
// A method that reads a field and then locks the mutex that guards it
// reads it unguarded: the check may see a torn or stale value, and the
// decision it makes is outdated by the time the lock is held.
//
//	func (q *Queue) Send(x int) bool {
//		if q.closed { // reported: closed is written with q.mu held in Close
//			return false
//		}
//		q.mu.Lock()
//		defer q.mu.Unlock()
//		…
//
// Lock first and check under the lock, or make the flag atomic
// (atomic.Bool) to keep a lock-free fast path:
//
//	func (q *Queue) Send(x int) bool {
//		q.mu.Lock()
//		defer q.mu.Unlock()
//		if q.closed {
//			return false
//		}
//		…
//
// The read is reported when it happens, directly or in a callee, before
// the function locks a mutex of the receiver on every path that reaches
// the lock (a read in a loop that also locks is not), when no
// synchronising operation (a lock or unlock, an atomic access, a channel
// operation, a call into sync) may come before it, and when every write
// of the field by an entry point holds that mutex in write mode. The
// functions looked at are the entry points and the methods of the type
// that they call on their receiver (a lazy-initialisation helper), each
// in its own body. len of a guarded map reads the map's size, which its
// element writes change.
//
// Not reported: fields accessed with sync/atomic (a double-checked read
// of an atomic value is the correct form of the idiom; a plain read after
// an atomic load that publishes the value is synchronised by it); fields
// no entry point writes (set before the value is shared); a read under
// another lock held at all the writes too; reads in deferred calls; a
// function that unlocks the mutex before locking it (it is called with
// the lock held, and upgrades a read lock); a read by a goroutine's method
// of a field that only that method writes (a single writer reads its own
// writes without the lock).
//
// # Not reported
//
// A type that is not meant to be shared between goroutines (documented
// "not safe for concurrent use" or for one goroutine, annotated
// //depcon:single-goroutine, or a handle: the deps analyzer's definition,
// which depcon test uses too) is not checked.
//
// To keep the bar of a vet check, the lock rules (the first and the last)
// only consider unexported fields (exported ones are configuration, set
// before the value is shared), and only when one of their accesses is a
// write; constructors and other functions (which run before the value is
// shared) are not entry points, and neither are set-up methods (those the
// deps analyzer marks: fluent setters returning their receiver,
// initialisers (Init, InitX) that take no lock, methods documented to be
// called before use, and the only, unsynchronised, writers of fields the
// other methods read without synchronisation either; depcon test calls
// them in prefixes only) or methods that a _test.go file adds to a type
// declared in the package's other files (test hooks). The accesses of a
// method of an unexported type that no code of the package's non-test
// files calls, that no interface the package uses could reach, and that
// no exported name exposes (an accessor the tests read state through)
// are not reported either, though the locks they hold still say which
// lock guards a field. So
//
//	func (t *Table) SetHash(f func(int) int) { t.hash = f }
//	func (l *Limiter) WithMax(m int64) *Limiter { l.max = m; return l }
//
// are not reported against the guarded or atomic accesses of hash and
// max. Nor is a lazy initialisation that every constructor of the type
// makes dead: the check and the store of
//
//	func New() *Registry { return &Registry{m: map[string]int{}} }
//	func (r *Registry) Set(k string, v int) { if r.m == nil { r.m = map[string]int{} }; r.mu.Lock() … }
//
// (a constructor that leaves m nil keeps the store reported). Nor are the
// accesses made once an atomic decrement of a reference count reached
// zero: no other goroutine holds the object then
//
//	func (l *Log) Finish() {
//		if atomic.AddInt32(&l.refs, -1) == 0 {
//			l.reset() // plain writes of l's guarded fields, not reported
//			pool.Put(l)
//		}
//	}
//
// Fields that are themselves synchronisation primitives or channels, the
// accesses of an object that a field refers to, or of a struct value
// within the receiver, made with that object's own lock held (recv.in.err
// with the mutex embedded in in's struct), the accesses of objects reached
// through a second reference (recv.pending[k].err: objects taken out of a
// container are commonly handed over), sync.Map and channel operations,
// accesses by goroutines a method starts through a function literal,
// accesses through a value that may be one of several objects
// (c = c.parent on one path), and calls of unknown code are ignored; so are
// reads after the method synchronised on the lock (a value set once under
// the lock and read after taking and releasing it), and the accesses of a
// method that locks the receiver's lock or another object's through one
// variable (first, second := a, b in id order). The guard is the lock most
// consistently held: an access that holds a lock held at least as often as
// the candidate at the field's accesses is not reported (two locks, one
// serialising some methods, the other guarding the field). Nor is an
// access that lacks a lock held only at the reads of one other method
// (that method's "one call at a time" lock, say) unless the access holds
// it in read mode. Nor is a field that the struct's declaration puts
// outside a lock named for a purpose: a lock such as pathMu declared above
// fields named for it (pathProbe), in a group of lines, guards those; the
// type's other fields, declared elsewhere and not named for it, are its
// goroutine's even where a method holding the lock uses them, unless a
// comment of the field or of the lock names the other:
//
//	type idManager struct {
//		queue     []id
//		pathMu    sync.Mutex
//		pathProbe map[pathID]id
//
//		seq int // not reported in Next, although Add holds pathMu at it
//	}
//
// Locations reached through an interface value that a callee asserts to a
// concrete type are not attributed to a value of a known type that the
// caller passes (a type switch's cases are other types). Nothing at all is
// reported of the fields of a type one of whose methods has a summary cut
// at its size limit (or applying the summary of a callee that was): the
// accesses, locks and releases it lost may make the guard inferred for any
// field, and the set-up methods, wrong (depcon pairs counts such methods
// as "truncated").
package unguarded
