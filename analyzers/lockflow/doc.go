// Package lockflow defines an Analyzer that computes where locks may be held.
//
// # Analyzer lockflow
//
// lockflow: compute the locks each function may hold at each instruction, for the analyzers that report on them
//
// The analyzer computes, for each function of a package, the states each
// lock may be in at each instruction: untouched since the function's
// entry, held, or released, over the paths that reach it, with the calls
// deferred on the way. It is the may-held half of the lock engine; the
// summary package computes the must-held half (the locks held at every
// access and call, which the summaries, the deadlock analyzers and deps
// read). lockstate's Engine runs both and reads the lock operations for
// them: the Lock and Unlock calls (lockstate.LockCall), the branch on
// which a TryLock succeeded, a channel of one slot used as a mutex (a
// send takes it, a receive gives it back, the branch of a select's case
// that sends holds it) and an Unlock handed to a goroutine.
//
// A lock is named by its access path in the function under the exact
// policy of lockstate.Namer (lockstate.ExactPath): exact indices and local
// roots, so that a loop's lock of one element is told from another's. The
// summaries name the same values under the namer's other policy. A
// callee's net effect on the locks its caller can name is mapped onto the
// caller's paths at the call; a call that passes constants for bool
// parameters the callee tests by an if has the effect of the callee's
// flow specialised for them (lockstate.BoolArgs), as in the summaries.
//
// The lockleak and blockedlock analyzers read the flows through the
// Analyzer's result, a *Program, which is safe for concurrent use.
package lockflow
