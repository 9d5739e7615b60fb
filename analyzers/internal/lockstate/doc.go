// Package lockstate names locks by access paths and solves the lock states of the depcon analyzers.
//
// It holds what the depcon analyzers share about locks and paths: the
// Path type and its helpers, the Namer that names a function's SSA values
// under the summaries' policy (where a value may point) and the lock
// flows' (which object a Lock call names, ExactPath), the Frame that maps
// a callee's paths onto its caller's at a call (and a caller's lock into
// its callee's terms, InCallee), LockCall, the one rule
// that tells what a call does to a lock, with the branches on which a
// TryLock or a select's case succeeded (TryLockEdge, SelectCaseEdge) and
// the channels used as mutexes (FindChanLocks), the Engine, the one
// transfer function of both lock states, which reads the lock operations
// for the lattice an analysis supplies (Ops), and Solve, the dataflow
// solver that runs it: the lock states are the locks that must be held
// (package summary) and the ways each lock may be (package lockflow).
// Both specialise a call that passes constants for the bool parameters
// its callee tests by an if (BoolArgs): the Engine then runs the callee
// without the branches they rule out (Engine.Assume), and Specs
// memoises a few specialisations of each function.
//
// A location is written as an access path:
//
//	$0, $1, …     the function's parameters ($0 is the receiver of a method)
//	$f0, $f1, …   the free variables of a closure
//	@pkg.Name     a package-level variable
//
// The path of a variable's package is quoted when its last element has a
// dot, `@"gopkg.in/yaml.v3".Name`, where the dot before the name would
// otherwise be ambiguous (GlobalRoot); Root and GlobalPkg split both
// forms, Display shows both the same way ("yaml.v3.Name").
//
// followed by steps: ".f" selects field f in place, "[*]" any element of
// an array in place, and "->" goes through a reference (a pointer, slice,
// map, channel or interface value loaded from memory), so that
// "$0.buf->[*]" is an element of the slice held in the receiver's buf field
// and "$0.next->val" the val field of the node that next points to. A path
// ending in "->" is the whole object behind a reference. The root itself
// names the object its pointer points to, so "$0" is the whole receiver.
//
// Two locations are compatible (may overlap) when they are equal or one
// extends the other in place: "$0" and "$0.x" overlap (copying the
// receiver reads x); "$0.buf" and "$0.buf->[*]" do not (the slice header
// and its elements are distinct memory).
package lockstate
