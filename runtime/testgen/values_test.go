package testgen

import (
	"math/rand/v2"
	"testing"
)

// TestPickExtremesRare checks that extreme numeric arguments are drawn, but
// rarely: a MaxInt size makes many constructors run for ever.
func TestPickExtremesRare(t *testing.T) {
	v := &valuer{rng: rand.New(rand.NewPCG(1, 2))}
	const n = 16000
	extremes := 0
	for range n {
		switch v.pick(signedLits) {
		case "max", "min":
			extremes++
		}
	}
	// Expected: n/extremeOdds of the draws pick among all 8 literals, 2
	// of which are extremes: n/64 = 250.
	if extremes < 150 || extremes > 350 {
		t.Errorf("%d extremes in %d draws, want about %d", extremes, n, n/64)
	}
	if got := v.pick(stringLits); got == "max" {
		t.Errorf("string literal %q", got)
	}
}
