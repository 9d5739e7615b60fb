// Package heldcalls defines an Analyzer that follows calls made with a lock held.
//
// # Analyzer heldcalls
//
// heldcalls: find lock acquisitions through callbacks and recursive calls made with a lock held
//
// The analyzer finds the calls made with a lock held whose callees the
// function summaries cannot see: calls through function values and
// interfaces (callbacks, listeners, hooks, sync.Once bodies passed around)
// and recursive calls. It resolves their targets, maps the targets' lock
// acquisitions onto the caller's locations, and hands them to the
// lockorder, selfdeadlock and rwrdeadlock analyzers.
//
// A function value passed as an argument is resolved where the argument
// is a function or a closure: a helper that calls its parameter while
// holding a lock (within the package, or in another package through this
// analyzer's facts) hands the lock to the closure's author. Other
// function values and interface methods are resolved with the package's
// call graph (go/callgraph/vta over a CHA graph), computed only when a
// lock is held at such a call; a call with more than a few possible
// targets is left alone. In a package where a lock is held at such a
// call, the targets' own calls through function values and interfaces are
// followed too, a few levels deep.
//
// The locks held at each call are the summary analyzer's
// (summary.Result.CallHeld): this analyzer does not repeat the
// flow-sensitive walk. The String and Error methods of the operands of
// fmt and log print functions count as called with the caller's locks
// held. Locks of objects that have no access path (the result of a call)
// are held by class, for lock orders, until an Unlock of their class.
package heldcalls
