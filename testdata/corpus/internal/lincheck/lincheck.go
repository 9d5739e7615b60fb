// Package lincheck is what the corpus's drivers share: Pair runs two
// calls concurrently behind a start barrier (every driver that hammers a
// pair), and Check runs them in both sequential orders and concurrently
// and fails with "not linearizable:" when a concurrent outcome is that of
// neither order (the atomicity subjects and their controls; see the
// corpus README, "Atomicity violations").
package lincheck

import (
	"testing"
	"time"
)

// Check runs the two calls of test one after the other in both orders,
// then concurrently, released together by a start barrier, with a fresh
// object each time, until d has passed. It fails the test with "not
// linearizable:" when the outcome of a concurrent run is that of neither
// order. test builds a fresh object, makes its two calls through run and
// returns their outcome.
func Check(t *testing.T, name string, d time.Duration, test func(run func(f, g func())) string) {
	t.Helper()
	first := test(func(f, g func()) { f(); g() })
	second := test(func(f, g func()) { g(); f() })
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if got := test(func(f, g func()) { Pair(t, f, g) }); got != first && got != second {
			t.Fatalf("not linearizable: %s gave %q; the first call first gives %q, the second first %q", name, got, first, second)
		}
	}
	t.Logf("%s: every outcome was that of a sequential order", name)
}

// Pair runs f and g in two goroutines released together by a start barrier.
// It fails the test with "panic:" when either panics and with "deadlock:"
// when they have not both returned after a timeout.
func Pair(t *testing.T, f, g func()) {
	t.Helper()
	start := make(chan struct{})
	done := make(chan any, 2)
	for _, fn := range []func(){f, g} {
		go func() {
			defer func() { done <- recover() }()
			<-start
			fn()
		}()
	}
	close(start)
	timer := time.NewTimer(2 * time.Second)
	defer timer.Stop()
	for range 2 {
		select {
		case r := <-done:
			if r != nil {
				t.Fatalf("panic: %v", r)
			}
		case <-timer.C:
			t.Fatalf("deadlock: goroutines still blocked after 2s")
		}
	}
}

// Hammer calls each fn in a loop from its own goroutine (two goroutines per
// fn) for d. It fails the test with "panic:" when a call panics and with
// "deadlock:" when the goroutines do not all stop after the run.
func Hammer(t *testing.T, d time.Duration, fns ...func()) {
	t.Helper()
	stop := time.Now().Add(d)
	done := make(chan any, 2*len(fns))
	for _, fn := range fns {
		for range 2 {
			go func() {
				defer func() { done <- recover() }()
				for time.Now().Before(stop) {
					fn()
				}
			}()
		}
	}
	timer := time.NewTimer(d + 5*time.Second)
	defer timer.Stop()
	for range 2 * len(fns) {
		select {
		case r := <-done:
			if r != nil {
				t.Fatalf("panic: %v", r)
			}
		case <-timer.C:
			t.Fatalf("deadlock: goroutines still blocked after the run")
		}
	}
}
