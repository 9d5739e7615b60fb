package lockleak_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/lockleak"
)

// Test covers leaks on early returns (directly and through a lock
// helper), continues, the end of a loop body and breaks, and a corpus of
// correct code that must stay silent (silent.go).
func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lockleak.Analyzer, "lockleak")
}
