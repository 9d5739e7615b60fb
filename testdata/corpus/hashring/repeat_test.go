package hashring

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Add ∥ Lookup on a
// fresh ring it takes to see the two goroutines deadlock.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.Measure(t, "hashring", "deadlock", func() bool {
		r := NewRing(0)
		return repeat.Pair(func() { r.Add("a") }, func() { r.Lookup("k") }).Blocked
	})
}

// TestForced forces the interleaving: Add holds mu and waits for cacheMu
// while Lookup holds cacheMu and waits for mu.
func TestForced(t *testing.T) {
	repeat.HardOnly(t)
	if !forced() {
		t.Fatal("Add ∥ Lookup did not deadlock")
	}
}

// forced queues Add on r.mu first and Lookup (already holding cacheMu)
// second, then lets mu go: Add takes mu and blocks on cacheMu, Lookup
// blocks on mu. It reports whether the two calls are still blocked after
// a second.
func forced() bool {
	r := NewRing(0)
	r.mu.Lock()
	done := make(chan struct{}, 2)
	go func() { r.Add("a"); done <- struct{}{} }()
	time.Sleep(100 * time.Millisecond) // Add computed its points and waits for mu
	go func() { r.Lookup("k"); done <- struct{}{} }()
	for r.cacheMu.TryLock() { // until Lookup holds cacheMu
		r.cacheMu.Unlock()
		time.Sleep(time.Millisecond)
	}
	time.Sleep(10 * time.Millisecond) // Lookup waits for mu behind Add
	r.mu.Unlock()
	select {
	case <-done:
		return false
	case <-time.After(time.Second):
		return true
	}
}
