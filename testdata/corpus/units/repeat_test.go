package units

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Define ∥ Known on a
// zero converter it takes until Known panics.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.Measure(t, "units", "panic", func() bool {
		c := new(Converter)
		return repeat.Pair(func() { c.Define("u", "length", 2) }, func() { c.Known("m") }).Panicked != nil
	})
}

// TestForced calls Known while Define is between marking the converter as
// having defined units and publishing the table: Known gets a nil table
// and dereferences it.
func TestForced(t *testing.T) {
	repeat.ForcedPanic(t, forced)
}

func forced() (r any) {
	c := new(Converter)
	c.custom.Store(true) // Define, up to the creation of the table
	defer func() { r = recover() }()
	c.Known("m")
	return nil
}
