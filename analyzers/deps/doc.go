// Package deps defines an Analyzer that computes the dependent method pairs of each type.
//
// # Analyzer deps
//
// deps: compute the dependent method pairs of each type under test
//
// A type under test is an exported named type with exported methods (the
// method set of *T, promoted methods included): the plan's exported view.
// The plan's full view also covers the unexported types with methods and
// the unexported methods (for tests run inside the package; see Plan).
// From the summaries of its methods (see package summary) deps derives, as
// DepCon+ does:
//
//   - AS(m), the accesses of m to shared locations: the receiver's, those of
//     parameters of the type itself, and the package variables of the
//     type's own package (those of other packages, reached through calls
//     into them — reflect's or encoding/json's caches, fmt's or time's
//     internals — are their private state and do not count; the type's own
//     fields written by other packages' code do); a read counts in AS(m)
//     as shown only if some method of the type writes a compatible
//     location (error values, lookup tables and fields set once by the
//     constructor, such as the pointer to an embedded struct that promoted
//     methods go through, are not shared mutable state; such a read
//     conflicts with nothing);
//   - LS(m), the locks held under one acquisition at every such access
//     (shown in the plan; the pairs are decided on the locks held at each
//     access);
//   - DS(m), the pairs ⟨l1,l2⟩ such that m may acquire l2 while holding l1.
//
// Over all unordered pairs M of the view's methods (self-pairs included,
// |M| = n(n+1)/2) it computes:
//
//   - M_pc: m1 and m2 are parallel and conflict dependent, decided per
//     pair of accesses: an access of m1 and one of m2 are under no common
//     lock held in W mode by one of them (two RLock holders do interleave;
//     a lock that m1 released between two accesses of the location and
//     acquired again protects neither, the check-then-act of DepCon's
//     atomicity rule) and conflict (compatible locations, at least one a
//     write: unlike Java, DepCon's Definition 7, two writes conflict, for
//     an unsynchronised write–write pair is a data race in Go and
//     concurrent map writes are fatal; two single synchronised operations —
//     atomics, sync.Map, channel sends and receives — do not conflict
//     unless one of the methods makes several of them on the location, a
//     check-then-act; nor do two conservative writes by unknown code);
//   - M_d: m1 and m2 are double-lock dependent (⟨la,lb⟩ ∈ DS(m1) and
//     ⟨lc,ld⟩ ∈ DS(m2) with la ≐ ld and lb ≐ lc, where ≐ is the same field of
//     the same type whatever the object, so recv.mu ≐ other.mu: the
//     Equal(other *T) deadlock needs two objects), or RWR dependent (m1
//     read-locks l again while holding it and m2 write-locks l), or the
//     self-pair of a method that re-acquires a lock it holds.
//
// A method whose summary was cut at its size limit (or applies the
// summary of a callee that was) may have lost the accesses that make a
// pair dependent: completeness first, every pair it takes part in is
// parallel and conflict dependent, with evidence saying so ("the summary
// of Big was cut at its size limit: what it lost may conflict with
// Tail"), none is a contract question, it is a set-up method only when
// its documentation or a directive says so, and no other method of the
// type is one for being the only writer of a location (the cut summary
// may have lost a write of it). The plan marks it (Method.Truncated;
// depcon pairs counts such methods).
//
// Each type plan also says whether the type looks meant to be used from
// several goroutines (Concurrent, and why: ConcurrentWhy), which makes
// depcon test select it by default: it holds a sync or sync/atomic value
// or a channel, directly, through an embedded or pointed-to struct of its
// package, or through a slice, array or map of such structs (a sharded
// map); its methods use sync/atomic functions on its fields; or its doc
// comment says it is safe for concurrent use, thread-safe,
// goroutine-safe, immutable, or may be shared between goroutines (and
// does not say it is not).
//
// A call of a method of the package's own interface held in a field of
// the receiver (recv.store.Put(k, v), the store's implementation unknown)
// counts as a write of that field's implementation, with the locks held
// at the call: a method calling the store without the lock the others
// take is dependent on them (InterfaceCalls). An exported type whose
// synchronisation lives in a type of an internal package it may import
// is concurrent through it.
//
// The type's contract is decided here, once, for depcon test and for the
// unguarded analyzer (Contract): which methods are set-up methods, called
// before the object is shared (annotated //depcon:setup, documented to be
// called before use, fluent setters, option conversions, initialisers
// and the only unsynchronised writers of configuration), but never a
// method that ends the object's use (Close, Stop, Shutdown, Release…) nor
// one that writes, without the lock, a field another method accesses
// under it; which methods switch the type's synchronisation off (they
// write the flag the other methods test to skip their lock, or are
// documented to: Method.LockOff), which depcon test never calls, and
// which option fields of the package are documented to turn the locking
// off (Options.NoLocks, "will disable locking": TypePlan.LockOffFields),
// which it never sets; and
// whether documentation, the type's or its package's, says the type is
// safe for concurrent use, which wins over the handle shape.
//
// Each dependent pair carries its evidence: the locations or locks and the
// source positions that make it dependent. The analyzer reports no
// diagnostics; depcon pairs prints the plans and depcon test generates
// concurrent tests for the dependent pairs only.
package deps
