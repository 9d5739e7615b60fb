//go:build depcondriver

package slots

import (
	"testing"
	"time"
)

func TestDriver(t *testing.T) {
	tb := NewTable(2)
	hammer(t, 200*time.Millisecond,
		func() {
			if s, err := tb.Acquire("a"); err == nil {
				tb.Release(s)
			}
		},
		func() { tb.Available() },
		func() { tb.Owner(0) },
		func() { tb.Peak() },
		func() { tb.ResetPeak() },
	)
	deadline := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(deadline) {
		tb := NewTable(1)
		hammer(t, time.Millisecond,
			func() { tb.Acquire("a") },
			func() { tb.Release(0) },
			func() { tb.Peak() },
			func() { tb.ResetPeak() },
		)
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
