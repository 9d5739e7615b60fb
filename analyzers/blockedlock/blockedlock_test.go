package blockedlock_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/blockedlock"
)

// Test covers sends, receives, selects and WaitGroup waits under a lock
// that the other side needs (directly, through a callee, only after
// locking it), and a corpus of correct code that must stay silent
// (silent.go).
func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), blockedlock.Analyzer, "blockedlock")
}
