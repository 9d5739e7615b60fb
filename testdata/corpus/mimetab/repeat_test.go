package mimetab

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Add ∥ TypeByExtension
// on a fresh table it takes until TypeByExtension panics.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.Measure(t, "mimetab", "panic", func() bool {
		tab := New()
		return repeat.Pair(func() { _ = tab.Add(".x", "text/x") }, func() { tab.TypeByExtension(".png") }).Panicked != nil
	})
}

// TestForced calls TypeByExtension while Add is between dropping the
// index and marking it as not built: the lookup finds the index marked
// built, loads nil and dereferences it.
func TestForced(t *testing.T) {
	repeat.ForcedPanic(t, forced)
}

func forced() (r any) {
	tab := New()
	tab.index.Store(nil) // Add, up to the store that marks the index stale
	defer func() { r = recover() }()
	tab.TypeByExtension(".png")
	return nil
}
