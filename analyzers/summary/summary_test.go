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

// TestOwnGlobals checks that a summary lists the package variables of its
// own package (Lookup's table, published by a sync.Once) and leaves out
// those of other packages (os.Args), marking them Foreign.
func TestOwnGlobals(t *testing.T) {
	results := analysistest.Run(t, testpkgs.Dir(t), summary.Analyzer, "sum")
	res := results[0].Result.(*summary.Result)
	got := map[string]*summary.Summary{}
	for _, fn := range res.SSA.SrcFuncs {
		got[fn.Name()] = res.Of(fn)
	}
	if s := got["Lookup"]; s == nil || s.String() != "R @sum.table; R @sum.table->[*] (map); R @sum.tableOnce (atomic)" || s.Foreign {
		t.Errorf("Lookup: %v", s)
	}
	if s := got["Args"]; s == nil || len(s.Accesses) != 0 || !s.Foreign {
		t.Errorf("Args: %+v", s)
	}
}
