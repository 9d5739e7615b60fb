package batcher

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Add ∥ SetLimit on a
// fresh batcher it takes until the race detector reports Add's read of
// limit racing with SetLimit's write.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.MeasureRace(t, "batcher", func() {
		b := NewBatcher(1)
		repeat.Pair(func() { b.Add([]byte("record")) }, func() { b.SetLimit(2) })
	})
}

// TestForced runs Add's halves in one goroutine and SetLimit in another,
// ordered by sleeps (which add no happens-before edge): SetLimit's
// critical section falls between Add's push and its read of limit, so the
// read is ordered with nothing SetLimit did and the race detector reports
// it. Without -race it only checks that the code runs.
func TestForced(t *testing.T) {
	repeat.ForcedRace(t, forced)
}

func forced() {
	b := NewBatcher(1)
	done := make(chan bool)
	go func() {
		rec := []byte("record")
		n := b.push(Record{rec, 0})
		time.Sleep(50 * time.Millisecond)
		due := n >= b.limit
		b.count(due)
		done <- due
	}()
	go func() {
		time.Sleep(20 * time.Millisecond)
		b.SetLimit(2)
		done <- false
	}()
	<-done
	<-done
}
