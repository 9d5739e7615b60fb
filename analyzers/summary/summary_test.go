package summary_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/summary"
)

// TestFacts checks the exported summaries: accesses with the locks held,
// acquisitions, defer, TryLock, closures, goroutines, helpers, atomics,
// sync.Map, maps and channels.
func TestFacts(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, summary.Analyzer, "sum")
}
