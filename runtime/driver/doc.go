// Package driver runs depcon test: it tests the types of packages in child processes.
//
// The command (flags, exit statuses, signals) is in cmd/depcon. [Run]
// loads the packages, reads the plans of the deps analyzer, builds for
// each package one child (the package's test binary with the harness added
// through go test -overlay, compiled with -race, on a copy of the module
// when the package is in the module cache), and for each type under test
// generates concurrent tests for its dependent method pairs and runs them
// in the child until the type's budget is spent. Types are tested -p at a
// time.
//
// # Oracles
//
// Each is a kind of violation:
//
//   - race: the race detector's report (the child runs with
//     GORACE=halt_on_error=1, so the report ends the child);
//   - panic: a panic of a suffix call that neither sequential order of the
//     two calls, with the same prefix and arguments, reproduces;
//   - deadlock: the two calls still blocked in lock or channel waits after
//     an adaptive watchdog (max(200ms, 50 times the call's sequential run
//     time)), in the same states at two goroutine dumps, and not
//     reproduced sequentially;
//   - fatal: a fatal runtime error, or an exit, of the child during the
//     concurrent calls that no sequential order reproduces;
//   - self-deadlock: a call blocked in a lock wait when made alone, on a
//     fresh object or (for the plan's self pairs) after a prefix.
//
// Sequential orders run in fresh children. A violation is recorded once
// per kind, pair and location (later sightings count), and the pair's
// target is retired: testing goes on with the others (-first stops at
// the first). After the type's testing, the reproducer of each violation
// is built and run in the package (in a sandbox); a violation whose
// reproducer passes twice is unconfirmed: it is shown as such and does
// not count in the exit status.
//
// # Decisions
//
// Before testing a type, each constructor and then each method is called
// alone on a fresh object (a probe): constructors that fail three times
// are dropped (the zero value is used when none is left, and the report
// says so), methods are timed for the watchdog, a probe that panics or
// ends before the call is retried with other arguments, and methods that
// end the process or never return are kept out of the tests, those that
// block on a channel out of prefixes. A type whose every method panics on
// a fresh object is reported as not tested. Methods promoted from package
// sync (Lock, Unlock) are not tested, and methods whose documentation
// forbids concurrent calls are not tested concurrently (see testgen). The
// package's own test files are hidden from the child. A child that died,
// or may have goroutines left blocked, is replaced. A concurrent test stops
// iterating after max(1s, budget/30). Reproducers repeat the test ten
// times the -iters (a hundred times for a deadlock, whose window is
// narrow).
package driver
