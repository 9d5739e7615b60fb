//go:build depcondriver

package peerset

import (
	"testing"
	"time"
)

func TestDriver(t *testing.T) {
	s := NewSet()
	hammer(t, 500*time.Millisecond,
		func() { s.Add("a") },
		func() { s.Add("b") },
		func() { s.Remove("a") },
		func() { s.Has("a") },
		func() { s.Peers() },
		func() { s.Pick("k") },
		func() { s.Picks() },
	)
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
