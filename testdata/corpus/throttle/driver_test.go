//go:build depcondriver

package throttle

import (
	"testing"
	"time"
)

func TestDriver(t *testing.T) {
	for range 200 {
		l := NewLimiter(2)
		pair(t, func() { l.Acquire() }, func() { l.Reset() })
	}
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
