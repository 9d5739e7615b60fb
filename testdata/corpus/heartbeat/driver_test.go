//go:build depcondriver

package heartbeat

import (
	"fmt"
	"testing"
	"time"
)

func TestDriver(t *testing.T) {
	m := NewMonitor()
	hammer(t, 500*time.Millisecond,
		func() { m.Beat("a") },
		func() { m.Beat("") },
		func() { m.Age("a") },
		func() { m.Beats("a") },
		func() { m.Forget("a") },
		func() { m.Names() },
		func() { m.Total() },
		func() { m.Idle() },
		func() { m.Longest() },
	)
	// The durations differ from run to run; what they say does not.
	const each = 300 * time.Millisecond
	check(t, "Beat(a) ∥ Beat(a)", each, func(run func(f, g func())) string {
		m := NewMonitor()
		var g1, g2 time.Duration
		run(func() { g1 = m.Beat("a") }, func() { g2 = m.Beat("a") })
		return fmt.Sprint(min(g1, g2) == 0, max(g1, g2) > 0, m.Beats("a"), m.Total(), m.Age("a") >= 0, m.Names(), m.Longest() == max(g1, g2))
	})
	check(t, "Beat(a) ∥ Longest() after Beat(a)", each, func(run func(f, g func())) string {
		m := NewMonitor()
		m.Beat("a")
		var gap, longest time.Duration
		run(func() { gap = m.Beat("a") }, func() { longest = m.Longest() })
		return fmt.Sprint(gap > 0, longest == 0 || longest == gap, m.Longest() == gap, m.Total())
	})
	check(t, "Beat(a) ∥ Forget(a) after Beat(a)", each, func(run func(f, g func())) string {
		m := NewMonitor()
		m.Beat("a")
		var gap time.Duration
		var forgot bool
		run(func() { gap = m.Beat("a") }, func() { forgot = m.Forget("a") })
		return fmt.Sprint(gap == 0, forgot, m.Beats("a"), m.Age("a") < 0)
	})
	check(t, "Age(a) ∥ Beat(a)", each, func(run func(f, g func())) string {
		m := NewMonitor()
		var age, gap time.Duration
		run(func() { age = m.Age("a") }, func() { gap = m.Beat("a") })
		return fmt.Sprint(age < 0, gap, m.Beats("a"), m.Idle() <= m.Age("a"))
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

// hammer calls each fn in a loop from its own goroutine (two goroutines per
// fn) for d. It fails the test with "panic:" when a call panics and with
// "deadlock:" when the goroutines do not all stop after the run.
func hammer(t *testing.T, d time.Duration, fns ...func()) {
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
