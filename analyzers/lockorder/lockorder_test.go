package lockorder_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/lockorder"
)

// Test covers inversions within a package, the argument-order deadlock
// (Transfer), correct orders, and (lockorder2) an inversion whose halves
// live in different packages, which needs the facts to flow.
func Test(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, lockorder.Analyzer, "lockorder", "lockorder2")
}
