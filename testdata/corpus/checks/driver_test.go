//go:build depcondriver

package checks

import (
	"fmt"
	"testing"
	"time"
)

func TestDriver(t *testing.T) {
	check(t, "Pass() ∥ Summary()", 8*time.Second, func(run func(f, g func())) string {
		r := NewResults()
		var passed, failed, total int
		run(func() { r.Pass() }, func() { passed, failed, total = r.Summary() })
		return fmt.Sprint(passed, failed, total)
	})
}

// check runs the two calls of test one after the other in both orders,
// then concurrently, released together by a start barrier, with a fresh
// object each time, until d has passed. It fails the test with "not
// linearizable:" when the outcome of a concurrent run is that of neither
// order. test builds a fresh object, makes its two calls through run and
// returns their outcome.
func check(t *testing.T, name string, d time.Duration, test func(run func(f, g func())) string) {
	t.Helper()
	first := test(func(f, g func()) { f(); g() })
	second := test(func(f, g func()) { g(); f() })
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if got := test(func(f, g func()) { pair(t, f, g) }); got != first && got != second {
			t.Fatalf("not linearizable: %s gave %q; the first call first gives %q, the second first %q", name, got, first, second)
		}
	}
	t.Logf("%s: every outcome was that of a sequential order", name)
}

// pair runs f and g in two goroutines released together by a start barrier.
// It fails the test with "panic:" when either panics and with "deadlock:"
// when they have not both returned after a timeout.
func pair(t *testing.T, f, g func()) {
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
