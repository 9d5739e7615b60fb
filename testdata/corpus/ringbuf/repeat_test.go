package ringbuf

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Push ∥ Resize on a
// fresh ring it takes until Push panics.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.Measure(t, "ringbuf", "panic", func() bool {
		r := NewRing(1)
		return repeat.Pair(func() { r.Push(1) }, func() { r.Resize(2) }).Panicked != nil
	})
}

// TestForced runs Push while Resize has taken the buffer out (detach) and
// not yet put the new one in (attach): Push divides by the length of the
// nil buffer.
func TestForced(t *testing.T) {
	repeat.ForcedPanic(t, forced)
}

func forced() (r any) {
	rg := NewRing(1)
	rg.detach() // Resize, first half
	defer func() { r = recover() }()
	rg.Push(1)
	return nil
}
