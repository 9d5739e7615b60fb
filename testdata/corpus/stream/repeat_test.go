package stream

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Close ∥ Send on a
// fresh stream it takes until Send panics.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.Measure(t, "stream", "panic", func() bool {
		s := NewStream(1)
		return repeat.Pair(func() { s.Close() }, func() { s.Send("a") }).Panicked != nil
	})
}

// TestForced runs Send's two halves around a Close: Send has seen the
// stream open (Closed) and not yet queued its record (enqueue) when Close
// closes the channel. The send panics.
func TestForced(t *testing.T) {
	repeat.ForcedPanic(t, forced)
}

// forced returns the panic of the forced interleaving.
func forced() (r any) {
	s := NewStream(1)
	if s.Closed() {
		return nil
	}
	s.Close()
	defer func() { r = recover() }()
	s.enqueue(encode(time.Now(), []string{"a"}))
	return nil
}
