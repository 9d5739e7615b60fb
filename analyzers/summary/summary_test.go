package summary_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/internal/testpkgs"

	"github.com/depcon/depcon/analyzers/summary"
)

// TestFacts checks the exported summaries: accesses with the locks held,
// acquisitions, defer, TryLock, closures, goroutines, helpers, atomics,
// sync.Map, maps and channels.
func TestFacts(t *testing.T) {
	analysistest.Run(t, testpkgs.Dir(t), summary.Analyzer, "sum")
}
