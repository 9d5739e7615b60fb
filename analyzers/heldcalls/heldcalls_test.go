package heldcalls_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/heldcalls"
)

// Test checks the facts of functions that call their function
// parameters: with a lock held (Do, Run) or not (Each), but not in
// another goroutine (Async). The events themselves are checked by the
// lockorder, selfdeadlock and rwrdeadlock tests.
func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), heldcalls.Analyzer, "selfdeadlocklib")
}
