package tickets

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Recall ∥ Sell on a
// fresh office it takes until Sell panics.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.Measure(t, "tickets", "panic", func() bool {
		o := New("gala")
		return repeat.Pair(func() { o.Recall("cancelled") }, func() { _, _ = o.Sell() }).Panicked != nil
	})
}

// TestForced runs Sell's check, then the whole Recall, then the rest of
// Sell: Sell takes the first ticket of an empty stock.
func TestForced(t *testing.T) {
	repeat.ForcedPanic(t, forced)
}

func forced() (r any) {
	o := New("gala")
	defer func() { r = recover() }()
	if o.Open() { // Sell's check
		o.Recall("cancelled")
		o.take() // the rest of Sell
	}
	return nil
}
