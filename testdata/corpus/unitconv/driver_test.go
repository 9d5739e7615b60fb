//go:build depcondriver

package unitconv

import (
	"testing"
	"time"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(500 * time.Millisecond)
	for time.Now().Before(deadline) {
		var c Converter
		hammer(t, time.Millisecond,
			func() { c.Convert(1, "km", "m") },
			func() { c.Define("au", "length", 1.496e11) },
			func() { c.Known("m") },
			func() { c.Units("length") },
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
