package profile

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Export ∥ Set on a
// fresh profile it takes until both block.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.Measure(t, "profile", "deadlock", func() bool {
		p := NewProfile("u")
		return repeat.Pair(func() { p.Export() }, func() { p.Set("theme", "dark") }).Blocked
	})
}

// TestForced takes Export's first read lock, lets Set queue for the write
// lock, then takes Export's second read lock (through Revision): the
// reader waits for the writer, which waits for the reader.
func TestForced(t *testing.T) {
	repeat.HardOnly(t)
	if !forced() {
		t.Fatal("no deadlock")
	}
}

func forced() bool {
	p := NewProfile("u")
	p.mu.RLock() // Export, first read lock
	go p.Set("theme", "dark")
	time.Sleep(50 * time.Millisecond) // Set waits for the write lock
	done := make(chan struct{})
	go func() {
		p.Revision() // Export, second read lock
		close(done)
	}()
	select {
	case <-done:
		return false
	case <-time.After(time.Second):
		return true
	}
}
