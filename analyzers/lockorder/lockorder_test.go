package lockorder_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/internal/testpkgs"

	"github.com/depcon/depcon/analyzers/lockorder"
)

// Test covers inversions within a package, the argument-order deadlock
// (Transfer), correct orders, and (lockorder2) an inversion whose halves
// live in different packages, which needs the facts to flow.
func Test(t *testing.T) {
	analysistest.Run(t, testpkgs.Dir(t), lockorder.Analyzer, "lockorder", "lockorder2", "lockorder3", "lockorder4", "lockorder5", "lockorder6")
}

// TestTestCode checks that a test reversing the package's own lock order
// is not reported, while code under test declared in a test file is.
func TestTestCode(t *testing.T) {
	analysistest.Run(t, testpkgs.Dir(t), lockorder.Analyzer, "testorder")
}
