//go:build depcondriver

package fanout

import (
	"testing"
	"time"
)

func TestDriver(t *testing.T) {
	h := NewHub(2)
	hammer(t, 200*time.Millisecond,
		func() {
			if id, _, err := h.Subscribe(); err == nil {
				h.Cancel(id)
			}
		},
		func() { h.Publish("m") },
		func() { h.Refs() },
		func() { h.Cancel(1) },
	)
	deadline := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(deadline) {
		h := NewHub(1)
		hammer(t, time.Millisecond,
			func() { h.Subscribe() },
			func() { h.Close() },
			func() { h.Cancel(1) },
			func() { h.Publish("m") },
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
