// Package summary defines an Analyzer that computes the summaries of a package's functions.
//
// # Analyzer summary
//
// summary: compute method summaries for the depcon analyzers
//
// The summary of a function records its accesses to shared locations
// (relative to its parameters and package variables), the locks held at each,
// and its lock acquisitions with the locks already held. The summaries of
// exported functions are exported, as a fact about the package, for callers
// in the packages that import it.
//
// # Summaries
//
// The summary of a function records, relative to its parameters, free
// variables and package-level variables:
//
//   - its accesses (AS): reads and writes of access paths such as
//     recv.buf, recv.m[*] or pkg.cache, each flagged atomic, sync.Map, map,
//     channel or indirect (a conservative write by unknown code), with the
//     locks that must be held at the access;
//   - its lock acquisitions, each with the locks already held (from which
//     the double-lock summary DS and the self-deadlocks derive);
//   - the locks it still holds on return and those it releases without
//     acquiring them (lock and unlock helpers).
//
// Locks are sync.Mutex, sync.RWMutex (R and W modes) and sync.Locker
// values, named by access path. The held sets come from a flow-sensitive
// analysis over the SSA control-flow graph: a deferred Unlock holds its
// lock to the function's exit, a successful TryLock holds it on its true
// branch only, and a goroutine started by the function holds none of the
// function's locks.
//
// A goroutine that a lock's holder wakes through a channel and waits
// for before unlocking (a send on p.wake with p.mu held, then
// p.wg.Wait() or <-p.done) runs its code between the receive and its
// signal (p.wg.Done(), p.done <- …) under that lock: its accesses there
// hold it, when every send on the channel in the package hands the lock
// over that way and the signals are the goroutine's own.
//
// Calls are modelled as follows. The summary of a callee in the same
// package is computed from its body; that of a callee in another package
// comes from that package's fact (Fact; under go vet, only an imported
// package's: a fact about a package reaches its direct importers).
// Either is mapped onto the caller's locations: a callee access to $1.x
// with argument recv.child becomes recv.child.x. A call of a callee in
// the same package that passes constants for bool parameters the callee
// tests by an if (readErr(true), where readErr locks unless told its
// caller holds the lock) applies the callee's summary specialised for
// those values, without the branches they rule out
// (lockstate.BoolArgs).
// A call through an interface or a function value is unknown code and
// counts, as in DepCon, as a write of every location passed to it by
// reference; Lock and Unlock through a sync.Locker are lock events.
// A summary lists the calls of the function values the function is
// given (its parameters and free variables), made by itself or by a
// callee it passes them to, and whether each happens in a goroutine it
// starts: a caller that passes a function it knows to a helper that
// runs it in a goroutine (Wrap(cb func()) { go func() { cb() }() }, an
// errgroup's Go) has that function's accesses, as those of a goroutine
// it starts, as it would with a go statement of its own. A function
// value that a helper calls in its caller's goroutine is not applied.
// A struct that the caller makes to wrap its values for a call
// (view{r}.best(), v := &cb{s: s}; v.run()), each field stored once,
// hands the callee's locations behind a field to the value stored there:
// a lock the callee reaches as $0.r->mu is the caller's r.mu. A struct
// passed by value (a value receiver) keeps its fields in place, and a
// value parameter that the function only reads is that parameter also
// where it is spilled to memory to address its fields. The value of a
// range over a map is an element of the map, as m[k] is.
// Paths do not name dynamic types: a location a callee reaches through
// an interface parameter (after a type assertion) is not mapped onto a
// value of known type that the caller passes, and a type assertion of a
// value converted to an interface in the same function denotes it only
// when it asserts the value's own type.
// The summaries of recursive functions are computed to a fixed point over
// their strongly connected component (a recursive call sees the previous
// round's summary, empty at first; at most three rounds, for a recursion
// over a data structure extends its paths at every round); a function of
// another package without a fact has no shared effects. Summaries are
// capped in size.
//
// Outside go vet, NewProgram computes the same summaries over a whole
// program at once, resolving calls through interfaces and function values
// with a go/callgraph call graph (depcon pairs -callgraph).
//
// The analyzer reports no diagnostics; its Result is the package's
// summaries and its named types with methods, with their doc comments and
// the summaries of their methods: the exported methods of *T (promoted
// methods included but for those of sync and sync/atomic types, such as
// the Lock of an embedded sync.Mutex; for a generic type, its declared
// methods and those promoted through its embedded fields, found through
// an instance whose type arguments satisfy the constraints), and the
// unexported methods the package declares, unless the type has more
// than MaxMethods methods. It is used by the deps,
// selfdeadlock, lockorder, rwrdeadlock and unguarded analyzers.
package summary
