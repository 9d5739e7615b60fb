package aliases

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Remove ∥ Retarget on
// a table holding one name it takes until Retarget panics.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.Measure(t, "aliases", "panic", func() bool {
		tb := NewTable(0)
		tb.Add("a", "h")
		return repeat.Pair(func() { tb.Remove("a") }, func() { tb.Retarget("a", "h") }).Panicked != nil
	})
}

// TestForced runs Remove between Retarget's version check and its store at
// the position it looked up: the table is empty by then and the store
// indexes past its end.
func TestForced(t *testing.T) {
	repeat.ForcedPanic(t, forced)
}

func forced() (r any) {
	tb := NewTable(0)
	tb.Add("a", "h")
	i, v, _ := tb.position("a") // Retarget up to its version check
	addr, _ := canonical("h")
	if tb.version.Load() != v {
		return nil
	}
	tb.Remove("a")
	defer func() { r = recover() }()
	tb.mu.Lock() // Retarget, second half
	defer tb.mu.Unlock()
	tb.addrs[i] = addr
	return nil
}
