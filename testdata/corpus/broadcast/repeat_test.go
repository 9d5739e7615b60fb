package broadcast

import (
	"regexp"
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Close ∥ Subscribe on
// a fresh hub it takes until Subscribe panics.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.Measure(t, "broadcast", "panic", func() bool {
		h := NewHub(1)
		return repeat.Pair(func() { h.Close() }, func() { h.Subscribe("") }).Panicked != nil
	})
}

// TestForced runs Close between the load and the store of Subscribe's
// reference count (retain): Close drops the last reference and shuts the
// hub down, retain's store then resurrects the count and the
// registration writes to the hub's nil map.
func TestForced(t *testing.T) {
	repeat.ForcedPanic(t, forced)
}

func forced() (r any) {
	h := NewHub(1)
	n := h.refs.Load() // retain, first half
	h.Close()
	h.refs.Store(n + 1) // retain, second half
	defer func() { r = recover() }()
	h.register(regexp.MustCompile(""))
	return nil
}
