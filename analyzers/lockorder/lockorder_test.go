package lockorder_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/lockorder"
)

// Test covers inversions within a package, the argument-order deadlock
// (Transfer), correct orders, and (lockorder/crosspkg) an inversion whose
// halves live in different packages, which needs the facts to flow.
func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lockorder.Analyzer, "lockorder", "lockorder/crosspkg", "lockorder/indirect", "lockorder/crosscycle", "lockorder/traversal", "lockorder/published")
}

// TestTestCode checks that a test reversing the package's own lock order
// is not reported, while code under test declared in a test file is.
func TestTestCode(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lockorder.Analyzer, "testorder")
}
