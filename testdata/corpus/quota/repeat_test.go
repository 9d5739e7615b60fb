package quota

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Allow ∥ Rollover on a
// fresh limiter it takes until the race detector reports Allow's read of
// limit racing with Rollover's write.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.MeasureRace(t, "quota", func() {
		l := New(10)
		repeat.Pair(func() { l.Allow(1) }, func() { l.Rollover(20) })
	})
}

// TestForced runs Allow's halves in one goroutine and Rollover in
// another, ordered by sleeps (which add no happens-before edge):
// Rollover's second critical section falls between Allow's two, so the
// read of limit is ordered with nothing Rollover did and the race
// detector reports it. Without -race it only checks that the code runs.
func TestForced(t *testing.T) {
	repeat.ForcedRace(t, forced)
}

func forced() {
	l := New(10)
	done := make(chan bool)
	go func() {
		l.mu.Lock() // Allow's first critical section
		l.used++
		used := l.used
		l.mu.Unlock()
		time.Sleep(50 * time.Millisecond)
		ok := used <= l.limit
		l.mu.Lock()
		l.allowed++
		l.mu.Unlock()
		done <- ok
	}()
	go func() {
		time.Sleep(20 * time.Millisecond)
		l.Rollover(20)
		done <- false
	}()
	<-done
	<-done
}
