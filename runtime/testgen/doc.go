// Package testgen generates the concurrent tests of depcon test.
//
// It follows the DepCon+ Algorithms 3 (exception mode) and 4 (deadlock
// mode): for each type under test, it picks the least-covered method pair,
// builds a prefix from a constructor and, every second test,
// state-changing calls, and two suffixes that the harness runs in two
// goroutines.
//
// Generation is driven by the types of the package (go/types) and the
// plan of the deps analyzer, and is deterministic from a seed.
package testgen
